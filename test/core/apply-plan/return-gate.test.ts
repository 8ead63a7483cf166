import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  judgeReturnGate,
  nextReturnState,
  type HubRecord,
  type ReturnSignals,
  type ReturnState,
} from '../../../src/core/apply-plan/return-gate.js';

const quiet: ReturnSignals = {
  nowMs: 1000,
  firstPass: false,
  clusterUnreachable: false,
  leaseDurationMs: 40_000,
};

test('what starts a return, and what keeps one going', () => {
  const cases: {
    name: string;
    previous?: ReturnState;
    given: Partial<ReturnSignals>;
    want: string | undefined;
  }[] = [
    { name: 'nothing happened: no return', given: {}, want: undefined },
    { name: "the loop's first pass", given: { firstPass: true }, want: 'the agent (re)started' },
    {
      name: 'the cluster did not answer',
      given: { clusterUnreachable: true },
      want: 'its cluster did not answer (reported NotReady)',
    },
    {
      name: 'the last report said NotReady',
      given: { lastReport: 'NotReady' },
      want: 'its last report said the cluster was NotReady',
    },
    {
      name: 'the last report said pruning waits (a kill -9 while waiting)',
      given: { lastReport: 'WaitingForHub' },
      want: 'its last report said pruning waits for the hub',
    },
    {
      name: 'Git unreachable for longer than the lease',
      given: { gitDownMs: 90_000 },
      want: 'its heartbeat could not be pushed for 90s (longer than the 40s lease)',
    },
    {
      name: 'Git unreachable for less than the lease: no return',
      given: { gitDownMs: 20_000 },
      want: undefined,
    },
    {
      name: 'the hub judges the cluster',
      given: { hubJudged: 'Unknown' },
      want: 'the hub judges it Unknown',
    },
    {
      name: 'an ongoing return keeps its start and its reason',
      previous: { sinceMs: 5, reason: 'the agent (re)started', report: 'abc' },
      given: { hubJudged: 'Unknown' },
      want: 'the agent (re)started',
    },
  ];
  for (const c of cases) {
    const state = nextReturnState(c.previous, { ...quiet, ...c.given });
    assert.equal(state?.reason, c.want, c.name);
  }
  const resumed = nextReturnState(undefined, {
    ...quiet,
    lastReport: 'WaitingForHub',
    lastWait: { sinceMs: 7, reason: 'the agent (re)started', report: 'r1' },
  });
  assert.deepEqual(
    resumed,
    { sinceMs: 7, reason: 'the agent (re)started', report: 'r1' },
    'a restart while waiting goes on with that return: its start (the timeout) and its report',
  );
  const restarted = nextReturnState(
    { sinceMs: 5, reason: 'x', report: 'abc' },
    { ...quiet, clusterUnreachable: true },
  );
  assert.deepEqual(
    restarted,
    { sinceMs: 1000, reason: 'its cluster did not answer (reported NotReady)' },
    'an outage starts it again: a new report is needed',
  );
});

test('the gate opens on the hub reading the return report, or at the timeout', () => {
  const state: ReturnState = { sinceMs: 0, reason: 'the agent (re)started', report: '0123456789abcdef' };
  const read: HubRecord = { readsReport: true, renderedApplied: true };
  const gate = (s: ReturnState | undefined, record: HubRecord, nowMs = 10_000) =>
    judgeReturnGate({ cluster: 'member1', state: s, record, nowMs, timeoutMs: 300_000 });
  assert.deepEqual(
    gate(undefined, { readsReport: false, renderedApplied: false }),
    { type: 'open' },
    'not returning',
  );
  assert.equal(gate(state, read).type, 'open', 'the hub rendered from the report');
  assert.match(
    (gate(state, read) as { note: string }).note,
    /rendered from status commit 0123456789ab or a later one; pruning resumes/,
  );
  assert.equal(gate(state, { ...read, readsReport: false }).type, 'wait', 'the hub has not read the report');
  assert.equal(gate(state, { ...read, judged: 'Unknown' }).type, 'wait', 'the hub still judges it down');
  assert.equal(
    gate(state, { ...read, renderedApplied: false }).type,
    'wait',
    'the branch applied is older than its render',
  );
  const { report: _none, ...unreported } = state;
  assert.equal(gate(unreported, read).type, 'wait', 'no report written yet');
  assert.deepEqual(gate(unreported, read), {
    type: 'wait',
    message:
      'member1: pruning waits for the hub since 1970-01-01T00:00:00.000Z: the agent (re)started; deletions are held until the hub renders from this report or a later one (at most 300s)',
  });
  const late = gate(state, { ...read, readsReport: false }, 300_000);
  assert.equal(late.type, 'open');
  assert.match(
    (late as { note: string }).note,
    /waited 300s .* no longer waits \(the 300s timeout\); pruning as before/,
  );
});
