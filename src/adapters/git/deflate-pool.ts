// Deflates many objects on several cores. Measured on 1-2 KB manifests: deflateSync takes
// ~38 µs per object, ~20 µs of it fixed cost per call (a 1-byte input takes as long), and
// zlib's async form, which runs on libuv's thread pool, was 4-5x slower still because of its
// per-call round trip. So objects go to worker threads in batches of ~512 KB, each worker runs
// deflateSync back to back, and the results come back in input order.
import { availableParallelism } from 'node:os';
import { InternalError } from '../../core/model/gitfleet-error.js';
import { Worker } from 'node:worker_threads';
import { deflateTask, splitByLengths, toDeflateTask, type DeflateResult } from './deflate-batch.js';
import type { GitObjectType } from './git-object.js';

/** One deflated object and the id computed from its content. */
export interface DeflatedObject {
  deflated: Uint8Array;
  oid: string;
}

/** Below this many objects, starting workers (~30 ms each) costs more than it saves. */
const minObjectsForWorkers = 2000;
const batchBytes = 512 * 1024;

/** Returns the number of deflate workers worth starting on this machine. */
export function defaultDeflateThreads(): number {
  return Math.min(4, availableParallelism());
}

/**
 * Yields the objects deflated and hashed, in input order, batch by batch; `threads` 0 deflates
 * on the calling thread.
 */
export async function* deflateObjects(
  objects: readonly { type: GitObjectType; content: Uint8Array }[],
  threads: number,
): AsyncGenerator<DeflatedObject[]> {
  const batches = cutBatches(objects);
  if (threads === 0 || objects.length < minObjectsForWorkers) {
    for (const batch of batches) yield toObjects(deflateTask(toDeflateTask(batch)));
    return;
  }
  const pending = startWorkers(batches, Math.min(threads, batches.length));
  try {
    for (const result of pending.results) yield toObjects(await result);
  } finally {
    await pending.stop();
  }
}

function cutBatches<T extends { content: Uint8Array }>(objects: readonly T[]): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const o of objects) {
    current.push(o);
    bytes += o.content.length;
    if (bytes >= batchBytes) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

function toObjects(result: DeflateResult): DeflatedObject[] {
  return splitByLengths(result.data, result.lengths).map((deflated, i) => ({
    deflated,
    oid: result.oids[i]!,
  }));
}

interface Deferred {
  promise: Promise<DeflateResult>;
  resolve: (r: DeflateResult) => void;
  reject: (e: unknown) => void;
}

function deferred(): Deferred {
  let resolve!: (r: DeflateResult) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<DeflateResult>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A batch that fails after the consumer stopped listening must not crash the process.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/** Starts `count` workers that take the next batch as soon as they finish one. */
function startWorkers(
  batches: readonly { type: GitObjectType; content: Uint8Array }[][],
  count: number,
): { results: Promise<DeflateResult>[]; stop: () => Promise<void> } {
  const slots = batches.map(() => deferred());
  let next = 0;
  const workers = Array.from({ length: count }, () => {
    const worker = new Worker(new URL('./deflate-worker.js', import.meta.url));
    let current = -1;
    const feed = (): void => {
      if (next >= batches.length) return;
      current = next++;
      const task = toDeflateTask(batches[current]!);
      worker.postMessage(task, [task.data.buffer as ArrayBuffer]);
    };
    worker.on('message', (result: DeflateResult) => {
      slots[current]!.resolve(result);
      feed();
    });
    worker.on('error', (error) => slots[current]?.reject(error));
    worker.on('exit', (code) =>
      slots[current]?.reject(new InternalError(`deflate worker: exited with code ${code}`)),
    );
    feed();
    return worker;
  });
  const stop = async (): Promise<void> => {
    await Promise.all(workers.map((w) => w.terminate()));
  };
  return { results: slots.map((s) => s.promise), stop };
}
