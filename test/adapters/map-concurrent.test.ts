import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mapConcurrent } from '../../src/adapters/map-concurrent.js';

/** A promise with its resolve and reject outside. */
function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: Error) => void } {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

test('mapConcurrent returns results in item order with at most limit in flight', async () => {
  let inFlight = 0;
  let most = 0;
  const results = await mapConcurrent([5, 1, 4, 2, 3], 2, async (n) => {
    most = Math.max(most, ++inFlight);
    await new Promise((resolve) => setImmediate(resolve));
    inFlight--;
    return n * 10;
  });
  assert.deepEqual(results, [50, 10, 40, 20, 30]);
  assert.equal(most, 2);
});

test('After a failure mapConcurrent starts no further item and settles only when the items in flight have', async () => {
  const gates = [deferred(), deferred(), deferred(), deferred()];
  const started: number[] = [];
  const finished: number[] = [];
  const run = mapConcurrent([0, 1, 2, 3], 2, async (i) => {
    started.push(i);
    await gates[i]!.promise;
    finished.push(i);
  });
  let settled = false;
  const outcome = run.then(
    () => 'resolved',
    (error: Error) => error.message,
  );
  void outcome.then(() => (settled = true));
  gates[0]!.reject(new Error('item 0 failed'));
  await new Promise((resolve) => setImmediate(resolve));
  // Item 1 is still running: the call must not have settled, and item 2 must not have started.
  assert.equal(settled, false);
  assert.deepEqual(started, [0, 1]);
  gates[1]!.resolve();
  assert.equal(await outcome, 'item 0 failed');
  assert.deepEqual(started, [0, 1]);
  assert.deepEqual(finished, [1]);
});
