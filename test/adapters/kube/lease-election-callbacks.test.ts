// The Lease election's own timers (issue 27 point 1): a listener told of the loss that throws,
// from the renew-deadline timer or from a failed renewal, must not escape the timer's callback
// (ending the process): it is logged and the election stands by. A fake LeaseStore (our own
// small interface) and a fake clock; the election against a real API server is
// test/kube/lease-election.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LeaseElection } from '../../../src/adapters/kube/lease-election.js';
import type { LeaseRecord, LeaseStore, StoredLease } from '../../../src/adapters/kube/lease-store.js';
import { fakeClock } from '../../loops/runtime/fake-clock.js';

/** A store in memory whose reads can be made to hang or fail. */
function memoryStore(): LeaseStore & { mode: 'ok' | 'hang' | 'fail' } {
  let stored: StoredLease | undefined;
  let version = 0;
  const gate = async (): Promise<void> => {
    if (store.mode === 'hang') await new Promise(() => undefined);
    if (store.mode === 'fail') throw new Error('the API server answered 500');
  };
  const put = (record: LeaseRecord): StoredLease => (stored = { record, resourceVersion: String(++version) });
  const store = {
    mode: 'ok' as 'ok' | 'hang' | 'fail',
    description: 'Lease gitfleet-system/gitfleet-agent-m1 in member cluster m1',
    get: async () => (await gate(), stored),
    create: async (record: LeaseRecord) => (await gate(), stored ? ('conflict' as const) : put(record)),
    update: async (record: LeaseRecord, rv: string) => (
      await gate(),
      stored?.resourceVersion === rv ? put(record) : ('conflict' as const)
    ),
  };
  return store;
}

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

function election(store: LeaseStore, clock: ReturnType<typeof fakeClock>, lines: string[]) {
  return new LeaseElection({
    store,
    identity: 'agent-a',
    leaseDurationMs: 15_000,
    renewDeadlineMs: 10_000,
    retryPeriodMs: 2_000,
    clock,
    random: () => 0,
    log: { info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`) },
  });
}

test('a loss listener that throws from the renew-deadline timer is logged, and the election stands by', async () => {
  const clock = fakeClock();
  const store = memoryStore();
  const lines: string[] = [];
  const e = election(store, clock, lines);
  assert.equal(await e.acquire(new AbortController().signal), true);
  e.onLost(() => {
    throw new Error('agent m1: the loop could not stop');
  });
  store.mode = 'hang';
  // The deadline timer fires inside advance(): a throw escaping it would fail the test here.
  clock.advance(10_000);
  await settle();
  assert.equal(e.isLeading(), false);
  assert.ok(
    lines.some((l) => /^warn .*: a listener of the loss failed: agent m1: the loop could not stop$/.test(l)),
    lines.join('\n'),
  );
});

test('a loss listener that throws after a failed renewal rejects nothing (no unhandled rejection)', async (t) => {
  const clock = fakeClock();
  const store = memoryStore();
  const lines: string[] = [];
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown): void => void rejections.push(reason);
  process.on('unhandledRejection', onRejection);
  t.after(() => process.off('unhandledRejection', onRejection));
  const e = election(store, clock, lines);
  assert.equal(await e.acquire(new AbortController().signal), true);
  e.onLost(() => {
    throw new Error('agent m1: the loop could not stop');
  });
  store.mode = 'fail';
  // Renewals fail every 2 s; the one at 10 s finds the deadline passed and loses from renew().
  for (let n = 0; n < 5; n++) {
    clock.advance(2_000);
    await settle();
  }
  assert.equal(e.isLeading(), false);
  assert.deepEqual(rejections, []);
  assert.ok(
    lines.some((l) => /a listener of the loss failed/.test(l)),
    lines.join('\n'),
  );
});
