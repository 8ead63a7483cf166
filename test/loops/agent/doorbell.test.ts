// The agent's doorbell (loops/agent/doorbell.ts) against the hub's real one over HTTP
// (adapters/http/notify-server.ts), times on a fake clock: an answer with a new head names it
// (for the refresh to fetch alone) and says "look again" once, and the next wait asks past it; a doorbell that names a head the agent cannot
// find makes no refresh storm; one that is down or refuses the token is said once per change
// of state, backed off, and connected again when it answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startNotifyServer } from '../../../src/adapters/http/notify-server.js';
import { parseNotifyTokens } from '../../../src/adapters/http/notify-tokens.js';
import { sendBeacon, waitForHead } from '../../../src/adapters/http/doorbell-request.js';
import { doorbell } from '../../../src/loops/agent/doorbell.js';
import type { Logger } from '../../../src/loops/runtime/logger.js';
import { fakeClock } from '../runtime/fake-clock.js';
import { eventually } from '../../support/eventually.js';

const a = 'a'.repeat(40);
const b = 'b'.repeat(40);

function recordingLog(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
}

async function setUp(opts: { token?: string; head?: string | null } = {}) {
  const clock = fakeClock();
  let head: string | null = opts.head === undefined ? a : opts.head;
  let serving = true;
  const beacons: string[] = [];
  const server = await startNotifyServer({
    port: 0,
    tokens: parseNotifyTokens('m1: right-token\n', 'tokens.yaml'),
    head: () => head,
    serving: () => serving,
    onBeacon: (c) => beacons.push(c),
    setTimer: (cb, ms) => clock.setTimer(cb, ms),
  });
  const log = recordingLog();
  const request = { url: server.url, cluster: 'm1', token: opts.token ?? 'right-token', timeoutMs: 10_000 };
  const fired: string[] = [];
  // The head a ring names and its "look again", in the order they came.
  const events: string[] = [];
  const bell = doorbell({
    url: server.url,
    wait: (after, signal) => waitForHead({ ...request, signal }, after),
    beacon: (signal) => sendBeacon({ ...request, signal }),
    localHead: () => Promise.resolve(a),
    clock,
    random: () => 0,
    log,
    beaconIntervalMs: 10_000,
    minGapMs: 1000,
    onHead: (named) => events.push(`head ${named}`),
  });
  await bell.start((reason) => {
    fired.push(reason);
    events.push('look');
  });
  return {
    clock,
    server,
    bell,
    log,
    fired,
    events,
    beacons,
    move: (to: string | null) => {
      head = to;
      server.moved('m1', to);
    },
    setServing: (on: boolean) => {
      serving = on;
      if (!on) server.standDown();
    },
    close: async () => {
      await bell.stop();
      await server.close();
    },
  };
}

test('a push the hub announces says "look again" once, and the next wait asks past it', async (t) => {
  const s = await setUp();
  t.after(s.close);
  await eventually(() => s.server.waiting() === 1, 'the agent waits with the head it has');
  assert.equal(s.bell.connected(), false, 'no answer yet');
  s.move(b);
  await eventually(() => s.fired.length === 1, 'told to look again');
  assert.deepEqual(s.fired, [`doorbell: branch moved to ${b.slice(0, 12)}`]);
  assert.deepEqual(
    s.events,
    [`head ${b}`, 'look'],
    'the head named before the look, for the refresh to fetch',
  );
  assert.equal(s.bell.connected(), true);
  await eventually(() => s.server.waiting() === 1, 'waiting past the new head');
  s.clock.advance(10_000);
  await eventually(() => s.beacons.length >= 3, 'a beacon every interval while connected');
  assert.deepEqual(s.fired.length, 1, 'the beacon says nothing moved');
  assert.deepEqual(
    s.log.lines.filter((l) => l.includes('doorbell')),
    [`info doorbell: connected to ${s.server.url}; Git is polled slowly (the safety poll)`],
  );
});

test('a branch that is gone says "look again" and names no head', async (t) => {
  const s = await setUp();
  t.after(s.close);
  await eventually(() => s.server.waiting() === 1, 'the agent waits with the head it has');
  s.move(null);
  await eventually(() => s.fired.length === 1, 'told to look again');
  assert.deepEqual(s.events, ['look']);
});

test('a doorbell naming a head the agent never finds makes one look, not a storm', async (t) => {
  // The hub claims b; the agent's refresh would not find it (it lies): it waits past b.
  const s = await setUp({ head: b });
  t.after(s.close);
  await eventually(() => s.fired.length === 1, 'one look');
  await eventually(() => s.server.waiting() === 1, 'held past the claimed head');
  s.clock.advance(55_000);
  await eventually(() => s.server.waiting() === 1, 'held again after the 204');
  assert.equal(s.fired.length, 1);
});

test('a doorbell that stops leading is said once, backed off from, and connected again', async (t) => {
  const s = await setUp();
  t.after(s.close);
  await eventually(() => s.server.waiting() === 1, 'held');
  s.move(b);
  await eventually(() => s.bell.connected(), 'connected');
  await eventually(() => s.server.waiting() === 1, 'held again');
  s.setServing(false);
  await eventually(() => s.bell.state() === 'down', 'down');
  assert.equal(s.bell.connected(), false, 'the agent polls at its normal pace again');
  for (let i = 0; i < 4; i++) {
    await eventually(() => s.clock.pending().length >= 2, `backing off ${i}`);
    s.clock.advance(5_000);
  }
  s.setServing(true);
  for (let i = 0; i < 10 && s.bell.state() !== 'connected'; i++) {
    s.clock.advance(10_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await eventually(() => s.bell.state() === 'connected', 'connected again (a beacon answered)');
  const said = s.log.lines.filter((l) => l.includes('doorbell'));
  assert.equal(said.length, 3, said.join('\n'));
  assert.match(
    said[1]!,
    /^warn doorbell: .* is unavailable \(answered 503\); polling Git at the branch poll meanwhile$/,
  );
});

test('a wrong token is said once, naming the flags to check, and never connects', async (t) => {
  const s = await setUp({ token: 'wrong-token' });
  t.after(s.close);
  await eventually(() => s.bell.state() === 'refused', 'refused');
  s.clock.advance(30_000);
  await eventually(() => s.clock.pending().length >= 1, 'tried again');
  s.clock.advance(30_000);
  assert.equal(s.bell.connected(), false);
  const said = s.log.lines.filter((l) => l.includes('doorbell'));
  assert.deepEqual(said, [
    `warn doorbell: ${s.server.url} refused the token (401): check --notify-token-file against the hub's --notify-tokens; polling Git at the branch poll meanwhile`,
  ]);
  assert.ok(!said.join('').includes('wrong-token'), 'the token is never said');
});
