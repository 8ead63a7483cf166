// The size of zlib's output buffer for one small object. A sync call returns a view of that
// buffer when the output fits in one, so the whole buffer lives as long as the result: with
// zlib's default 16 KiB, each small object kept 16 KiB of memory outside V8's heap (10,000
// manifests read: 160 MiB; 10,000 status files deflated: the same again). Sized to the
// output instead, the result holds what it needs; anything larger than the guess is put
// together from more chunks of the same size, so a wrong guess costs a copy, never a result.

/** zlib's smallest chunk, and the largest this sizes one to (larger outputs take several). */
const minChunk = 64;
const maxChunk = 1 << 20;

/** Returns the chunk for inflating to `size` bytes (one byte more, so a longer stream shows). */
export function inflateChunk(size: number): number {
  return Math.min(Math.max(minChunk, size + 1), maxChunk);
}

/**
 * Returns the chunk for deflating `length` bytes: zlib's bound on a stream of stored blocks
 * (deflateBound's formula for any window and memory level, zlib header and checksum included),
 * which the output never exceeds.
 */
export function deflateChunk(length: number): number {
  const bound = length + ((length + 7) >> 3) + ((length + 63) >> 6) + 5 + 6;
  return Math.min(Math.max(minChunk, bound), maxChunk);
}

/** Returns the chunk for inflating a loose object of `stored` bytes whose size is not known yet. */
export function inflateChunkFromStored(stored: number): number {
  return Math.min(Math.max(minChunk, stored * 4), maxChunk);
}
