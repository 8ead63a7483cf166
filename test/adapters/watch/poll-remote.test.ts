// The poller on a fake clock: time moves only when a test says so, so nothing here depends on
// how busy the machine is.
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { nextCheckDelay, pollRemote } from '../../../src/adapters/watch/poll-remote.js';
import { RateLimitedError } from '../../../src/adapters/remote/rate-limited-error.js';
import { fakeClock, type FakeClock } from '../../loops/runtime/fake-clock.js';

/** Fails the test later (an exception inside the poller would only be reported to onError). */
const errors: unknown[] = [];
const unexpected = (error: unknown): void => void errors.push(error);
afterEach(() => assert.deepEqual(errors.splice(0), []));

/** Lets the checks' promises settle (they schedule the next check when they do). */
const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** Moves the clock forward and lets what it started settle. */
async function advance(clock: FakeClock, ms: number): Promise<void> {
  clock.advance(ms);
  await settle();
}

/** A check the test finishes by hand. */
function heldCheck(): { check: () => Promise<void>; release: () => void; started: () => number } {
  let started = 0;
  let release: () => void = () => undefined;
  return {
    check: () => {
      started++;
      return new Promise<void>((resolve) => (release = resolve));
    },
    release: () => release(),
    started: () => started,
  };
}

test('The poller checks on its interval, never sooner, and after stop() no check starts again.', async () => {
  const clock = fakeClock();
  const starts: number[] = [];
  const began = clock.now();
  const poller = pollRemote({
    intervalMs: 20,
    timer: clock,
    check: async () => void starts.push(clock.now() - began),
    onError: unexpected,
  });
  await advance(clock, 19);
  assert.deepEqual(starts, []);
  await advance(clock, 1);
  // Each next check is one interval after the last finished (here: at once, on the fake clock).
  for (let i = 0; i < 2; i++) await advance(clock, 20);
  assert.deepEqual(starts, [20, 40, 60]);
  await poller.stop();
  await advance(clock, 100);
  assert.deepEqual(starts, [20, 40, 60]);
  assert.deepEqual(clock.pending(), [], 'no timer is left');
});

test('The first check waits one interval unless asked to run immediately.', async () => {
  const clock = fakeClock();
  const seen: string[] = [];
  const later = pollRemote({
    intervalMs: 10_000,
    timer: clock,
    check: async () => void seen.push('later'),
    onError: unexpected,
  });
  const now = pollRemote({
    intervalMs: 10_000,
    timer: clock,
    check: async () => void seen.push('now'),
    onError: unexpected,
    immediately: true,
  });
  await advance(clock, 9_999);
  await Promise.all([later.stop(), now.stop()]);
  assert.deepEqual(seen, ['now']);
});

test('Checks never overlap, and a trigger during a check runs exactly one more right after it.', async () => {
  const clock = fakeClock();
  const held = heldCheck();
  const poller = pollRemote({ intervalMs: 10_000, timer: clock, onError: unexpected, check: held.check });
  poller.trigger();
  await advance(clock, 0);
  assert.equal(held.started(), 1);
  poller.trigger();
  poller.trigger();
  await advance(clock, 0);
  assert.equal(held.started(), 1, 'no second check while the first runs');
  held.release();
  await settle();
  await advance(clock, 0);
  assert.equal(held.started(), 2, 'the triggers during the check ran one more');
  held.release();
  await advance(clock, 9_999);
  assert.equal(held.started(), 2, 'and only one');
  await poller.stop();
});

test('A failing remote is checked less and less often, up to the cap, and the interval comes back with the first success.', async () => {
  const clock = fakeClock();
  const began = clock.now();
  const starts: number[] = [];
  const told: number[] = [];
  let failing = true;
  const poller = pollRemote({
    intervalMs: 1_000,
    maxBackoffMs: 8_000,
    timer: clock,
    onError: (_error, nextMs) => told.push(nextMs),
    check: async () => {
      starts.push(clock.now() - began);
      if (failing) throw new Error('unreachable');
    },
  });
  for (let t = 0; t < 24; t++) await advance(clock, 1_000);
  // Checks at 1 s, then after 2, 4, 8 and 8 s.
  assert.deepEqual(starts, [1_000, 3_000, 7_000, 15_000, 23_000]);
  assert.deepEqual(told, [2_000, 4_000, 8_000, 8_000, 8_000], 'each failure says when the next check runs');
  failing = false;
  for (let t = 0; t < 10; t++) await advance(clock, 1_000);
  assert.deepEqual(
    starts.slice(5),
    [31_000, 32_000, 33_000, 34_000],
    'the interval again after the first success',
  );
  await poller.stop();
});

test('A trigger (a webhook) checks at once even while the poller is backing off.', async () => {
  const clock = fakeClock();
  let checks = 0;
  const poller = pollRemote({
    intervalMs: 1_000,
    timer: clock,
    immediately: true,
    onError: () => undefined,
    check: async () => {
      checks++;
      throw new Error('unreachable');
    },
  });
  await advance(clock, 0);
  await advance(clock, 1_000);
  assert.equal(checks, 1, 'the second check waits 2 s');
  poller.trigger();
  await advance(clock, 0);
  assert.equal(checks, 2);
  await poller.stop();
});

test('stop() waits for the check in progress to finish.', async () => {
  const clock = fakeClock();
  const held = heldCheck();
  const poller = pollRemote({
    intervalMs: 1000,
    timer: clock,
    immediately: true,
    onError: unexpected,
    check: held.check,
  });
  await advance(clock, 0);
  let stopped = false;
  const stopping = poller.stop().then(() => (stopped = true));
  await settle();
  assert.equal(stopped, false, 'stop waits while the check runs');
  held.release();
  await stopping;
  assert.equal(stopped, true);
});

test('An interval that is not positive is refused.', () => {
  assert.throws(
    () => pollRemote({ intervalMs: 0, check: async () => undefined, onError: unexpected }),
    RangeError,
  );
});

test('nextCheckDelay doubles per failure from the interval, capped at the larger of the interval and the cap.', () => {
  const rows = [
    { interval: 30_000, failures: 0, cap: 300_000, want: 30_000 },
    { interval: 30_000, failures: 1, cap: 300_000, want: 60_000 },
    { interval: 30_000, failures: 3, cap: 300_000, want: 240_000 },
    { interval: 30_000, failures: 4, cap: 300_000, want: 300_000 },
    { interval: 30_000, failures: 100, cap: 300_000, want: 300_000 },
    { interval: 600_000, failures: 2, cap: 300_000, want: 600_000 },
  ];
  for (const r of rows)
    assert.equal(nextCheckDelay(r.interval, r.failures, r.cap), r.want, JSON.stringify(r));
});

test("A check refused for the host's rate limit is not a failure: onError is not told and the next check waits as long as the host asked.", async () => {
  const clock = fakeClock();
  const starts: number[] = [];
  const told: unknown[] = [];
  const poller = pollRemote({
    intervalMs: 1000,
    timer: clock,
    onError: (error) => told.push(error),
    check: async () => {
      starts.push(clock.now());
      if (starts.length === 1)
        throw new RateLimitedError('https://git.example/fleet.git: rate limited', 0, 429, 90_000);
    },
  });
  await advance(clock, 1000);
  assert.equal(starts.length, 1);
  await advance(clock, 89_999);
  assert.equal(starts.length, 1, 'not before the asked wait');
  await advance(clock, 1);
  assert.equal(starts.length, 2);
  await advance(clock, 1000);
  assert.equal(starts.length, 3, 'then the interval again');
  assert.deepEqual(told, []);
  await poller.stop();
});
