import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { pollRemote } from '../../../src/adapters/watch/poll-remote.js';

/** Fails the test later (an exception inside the poller would only be reported to onError). */
const errors: unknown[] = [];
const unexpected = (error: unknown): void => void errors.push(error);
afterEach(() => assert.deepEqual(errors.splice(0), []));

test('The poller checks on its interval, never sooner, and after stop() no check starts again.', async () => {
  const starts: number[] = [];
  const poller = pollRemote({
    intervalMs: 20,
    check: async () => void starts.push(performance.now()),
    onError: unexpected,
  });
  for (let waited = 0; starts.length < 3 && waited < 5000; waited += 10) await sleep(10);
  await poller.stop();
  assert.ok(starts.length >= 3, `checked ${starts.length} times`);
  // Timers may fire late on a busy machine, never early (1 ms of rounding aside).
  for (let i = 1; i < starts.length; i++) assert.ok(starts[i]! - starts[i - 1]! >= 19, `gap ${i}`);
  const atStop = starts.length;
  await sleep(80);
  assert.equal(starts.length, atStop);
});

test('The first check waits one interval unless asked to run immediately.', async () => {
  const seen: string[] = [];
  const later = pollRemote({
    intervalMs: 10_000,
    check: async () => void seen.push('later'),
    onError: unexpected,
  });
  const now = pollRemote({
    intervalMs: 10_000,
    check: async () => void seen.push('now'),
    onError: unexpected,
    immediately: true,
  });
  for (let waited = 0; seen.length === 0 && waited < 5000; waited += 10) await sleep(10);
  await sleep(30);
  await Promise.all([later.stop(), now.stop()]);
  assert.deepEqual(seen, ['now']);
});

test('Checks never overlap, and a trigger during a check runs exactly one more right after it.', async () => {
  let active = 0;
  let maxActive = 0;
  let checks = 0;
  const poller = pollRemote({
    intervalMs: 10_000,
    onError: unexpected,
    check: async () => {
      checks++;
      active++;
      maxActive = Math.max(maxActive, active);
      await sleep(40);
      active--;
    },
  });
  poller.trigger();
  await sleep(10);
  poller.trigger();
  poller.trigger();
  for (let waited = 0; checks < 2 && waited < 5000; waited += 10) await sleep(10);
  await sleep(120); // room for a third check, which must not come
  await poller.stop();
  assert.equal(maxActive, 1);
  assert.equal(checks, 2);
});

test('A failing check is reported and polling goes on.', async () => {
  const errors: unknown[] = [];
  let checks = 0;
  const poller = pollRemote({
    intervalMs: 15,
    onError: (e) => errors.push(e),
    check: async () => {
      checks++;
      throw new Error(`failure ${checks}`);
    },
  });
  for (let waited = 0; checks < 2 && waited < 5000; waited += 10) await sleep(10);
  await poller.stop();
  assert.ok(checks >= 2);
  assert.equal(errors.length, checks);
});

test('stop() waits for the check in progress to finish.', async () => {
  let finished = false;
  const poller = pollRemote({
    intervalMs: 1000,
    immediately: true,
    onError: unexpected,
    check: async () => {
      await sleep(50);
      finished = true;
    },
  });
  await sleep(10);
  await poller.stop();
  assert.equal(finished, true);
});

test('An interval that is not positive is refused.', () => {
  assert.throws(
    () => pollRemote({ intervalMs: 0, check: async () => undefined, onError: unexpected }),
    RangeError,
  );
});
