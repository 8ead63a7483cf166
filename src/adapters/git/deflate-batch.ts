// The unit of work of the deflate pool: a run of objects packed into one buffer (so it crosses
// to a worker thread as a single transfer), deflated one by one and hashed on the way, so the
// ids callers give are checked at no cost to the main thread.
import { deflateSync, type ZlibOptions } from 'node:zlib';
import type { GitObjectType } from './git-object.js';
import { hashObject } from './hash-object.js';
import { deflateChunk } from './zlib-chunk.js';

/** Objects to deflate: their contents back to back in `data`, split by `lengths`. */
export interface DeflateTask {
  types: GitObjectType[];
  lengths: number[];
  data: Uint8Array;
}

/** The deflated contents back to back in `data`, split by `lengths`, and each object's id. */
export interface DeflateResult {
  lengths: number[];
  data: Uint8Array;
  oids: string[];
}

/** Returns a task holding the given objects; `data` is a fresh buffer that may be transferred. */
export function toDeflateTask(objects: readonly { type: GitObjectType; content: Uint8Array }[]): DeflateTask {
  const lengths = objects.map((o) => o.content.length);
  const data = new Uint8Array(lengths.reduce((sum, n) => sum + n, 0));
  let at = 0;
  for (const o of objects) {
    data.set(o.content, at);
    at += o.content.length;
  }
  return { types: objects.map((o) => o.type), lengths, data };
}

/** Returns every object of the task zlib-deflated (git's default level) and its object id. */
export function deflateTask(task: DeflateTask): DeflateResult {
  const parts: Buffer[] = [];
  const oids: string[] = [];
  let at = 0;
  task.lengths.forEach((length, i) => {
    const content = task.data.subarray(at, at + length);
    at += length;
    parts.push(deflateSync(content, zlibOptionsFor(task.types[i]!, length)));
    oids.push(hashObject(task.types[i]!, content));
  });
  // A fresh buffer, never a slice of Node's shared pool, so it can be transferred.
  const data = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let out = 0;
  for (const p of parts) {
    data.set(p, out);
    out += p.length;
  }
  return { lengths: parts.map((p) => p.length), data, oids };
}

// zlib sets up its window and hash table (256 KiB at the defaults) on every call, whatever the
// input's size: for the small objects of a pass (trees, commits, manifests) that set-up costs
// more than the compression. A window no larger than the input (plus zlib's lookahead) and a
// hash table to match give the same output, in a fraction of the time; any inflater reads it.
// Trees are mostly object ids, which do not compress: the fastest level gives them the same
// size (within 1% on the hub's trees) in two thirds of the time. The output buffer is sized to
// the object (zlib-chunk.ts).
function zlibOptionsFor(type: GitObjectType, length: number): ZlibOptions {
  let windowBits = 9;
  while (windowBits < 15 && 1 << windowBits < length + 262) windowBits++;
  const level = type === 'tree' ? 1 : -1;
  const chunkSize = deflateChunk(length);
  return windowBits === 15
    ? { level, chunkSize }
    : { level, windowBits, memLevel: Math.max(1, windowBits - 7), chunkSize };
}

/** Returns the pieces of a buffer cut by consecutive lengths (views, not copies). */
export function splitByLengths(data: Uint8Array, lengths: readonly number[]): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  let at = 0;
  for (const length of lengths) {
    pieces.push(data.subarray(at, at + length));
    at += length;
  }
  return pieces;
}
