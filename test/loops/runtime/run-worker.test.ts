import { GitfleetError } from '../../../src/core/model/gitfleet-error.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultBackoff } from '../../../src/loops/runtime/backoff.js';
import type { Logger } from '../../../src/loops/runtime/logger.js';
import { runWorker } from '../../../src/loops/runtime/run-worker.js';
import { createWorkQueue } from '../../../src/loops/runtime/work-queue.js';
import { fakeClock } from './fake-clock.js';

function capture(): Logger & { errors: string[] } {
  const errors: string[] = [];
  return { errors, info: () => undefined, warn: () => undefined, error: (m) => errors.push(m) };
}

/** A fake clock, a work queue on it without jitter, and a logger that keeps the errors. */
function setup() {
  const clock = fakeClock();
  return {
    clock,
    queue: createWorkQueue<string>({ clock, backoff: defaultBackoff(() => 0) }),
    log: capture(),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('a failing key is logged once per failure and retried after the backoff, until it succeeds', async () => {
  const { clock, queue, log } = setup();
  let calls = 0;
  const worker = runWorker({
    queue,
    log,
    handle: async () => {
      calls++;
      if (calls < 3) throw new Error(`boom ${calls}`);
    },
  });
  queue.add('k');
  await tick();
  assert.equal(calls, 1);
  assert.deepEqual(log.errors, ['k: boom 1 (failure 1; retrying in 1.0 s)']);
  clock.advance(1000);
  await tick();
  assert.equal(calls, 2);
  assert.match(log.errors[1] ?? '', /boom 2 \(failure 2; retrying in 2.0 s\)/);
  clock.advance(2000);
  await tick();
  assert.equal(calls, 3);
  assert.equal(log.errors.length, 2, 'a success logs nothing');
  assert.equal(queue.failures('k'), 0);
  queue.shutDown();
  await worker;
});

test('a terminal error is not retried, and the same one is not logged again', async () => {
  const { clock, queue, log } = setup();
  const worker = runWorker({
    queue,
    log,
    handle: () =>
      Promise.reject(new GitfleetError('no such branch', { code: 'RefNotFound', terminal: true })),
  });
  queue.add('k');
  await tick();
  queue.add('k');
  await tick();
  assert.deepEqual(log.errors, ['k: no such branch']);
  assert.deepEqual(clock.pending(), [], 'no retry scheduled');
  queue.shutDown();
  await worker;
});

test('an error that names its key already is not named twice', async () => {
  const { clock, queue, log } = setup();
  let calls = 0;
  const worker = runWorker({
    queue,
    log,
    describe: (k) => `agent ${k}`,
    handle: () => Promise.reject(new Error(calls++ === 0 ? 'agent member1: lost its Lease' : 'boom')),
  });
  queue.add('member1');
  await tick();
  assert.deepEqual(log.errors, ['agent member1: lost its Lease (failure 1; retrying in 1.0 s)']);
  clock.advance(1000);
  await tick();
  assert.deepEqual(log.errors.slice(1), ['agent member1: boom (failure 2; retrying in 2.0 s)']);
  queue.shutDown();
  await worker;
});

test('shutting down lets the item in hand finish', async () => {
  const clock = fakeClock();
  const queue = createWorkQueue<string>({ clock, backoff: defaultBackoff(() => 0) });
  let release!: () => void;
  let finished = false;
  const worker = runWorker({
    queue,
    log: capture(),
    handle: async () => {
      await new Promise<void>((resolve) => (release = resolve));
      finished = true;
    },
  });
  queue.add('k');
  await tick();
  queue.shutDown();
  let stopped = false;
  void worker.then(() => (stopped = true));
  await tick();
  assert.equal(stopped, false);
  release();
  await worker;
  assert.equal(finished, true);
});

test('a failing key is not run again by triggers before its backoff delay has passed', async () => {
  const { clock, queue, log } = setup();
  const runs: number[] = [];
  const start = clock.now();
  const worker = runWorker({
    queue,
    log,
    handle: async () => {
      runs.push(clock.now() - start);
      // A trigger fires while the pass is failing, as a watch event does (bounded, so a
      // queue that ignored the backoff fails the assertion instead of spinning forever).
      if (runs.length < 50) queue.add('k');
      throw new Error('git unreachable');
    },
  });
  queue.add('k');
  // A periodic trigger every 100 ms for 15 s: the key runs only when its backoff says so.
  for (let t = 0; t < 15_000; t += 100) {
    await tick();
    clock.advance(100);
    queue.add('k');
  }
  await tick();
  assert.deepEqual(runs, [0, 1000, 3000, 7000, 15_000]);
  assert.deepEqual(
    log.errors.map((m) => /retrying in ([\d.]+ s)/.exec(m)?.[1]),
    ['1.0 s', '2.0 s', '4.0 s', '8.0 s', '16.0 s'],
  );
  queue.shutDown();
  await worker;
});

test('after a success, a trigger runs the key at once again', async () => {
  const clock = fakeClock();
  const queue = createWorkQueue<string>({ clock, backoff: defaultBackoff(() => 0) });
  let calls = 0;
  const worker = runWorker({
    queue,
    log: capture(),
    handle: async () => {
      calls++;
      if (calls === 1) throw new Error('once');
    },
  });
  queue.add('k');
  await tick();
  clock.advance(1000);
  await tick();
  assert.equal(calls, 2);
  queue.add('k');
  await tick();
  assert.equal(calls, 3, 'no backoff left after the success');
  queue.shutDown();
  await worker;
});

test("a Git host's rate limit is no failure: nothing logged, no failure counted, the key waits exactly as long as the host asked", async () => {
  const { clock, queue, log } = setup();
  let calls = 0;
  const limited = Object.assign(
    new GitfleetError('https://git.example/fleet.git: rate limited by the server (429); next request at …', {
      code: 'RateLimited',
    }),
    { waitMs: 60_000 },
  );
  const worker = runWorker({
    queue,
    log,
    handle: async () => {
      calls++;
      if (calls === 1) throw limited;
    },
  });
  queue.add('k');
  await tick();
  assert.equal(calls, 1);
  assert.deepEqual(log.errors, [], 'the remote adapter logs the limit, not the worker');
  assert.equal(queue.failures('k'), 0);
  queue.add('k'); // an event during the wait does not cut it short
  clock.advance(59_999);
  await tick();
  assert.equal(calls, 1);
  clock.advance(1);
  await tick();
  assert.equal(calls, 2);
  queue.shutDown();
  await worker;
});
