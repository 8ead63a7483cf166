// The changed-path Bloom filters of git's commit-graph (gitformat-commit-graph(5), BDAT): per
// commit, a bit array over every path its diff against the first parent touched, each file and
// each of its leading directories. A path is tested with `hashes` bit positions derived from two
// 32-bit murmur3 hashes of its bytes (seeds 0x293ae76f and 0x7e646e2c): position i is
// (h1 + i * h2) mod (bytes * 8), bit (position mod 8) of byte (position / 8). All bits set: the
// path may have changed; any bit clear: it did not. An empty filter says nothing (git's own
// reading), as does a filter of version 1 for a path with bytes above 0x7f: version 1 hashed those
// bytes as signed chars.

/** The BDAT header: hash version (1 or 2), number of hashes, bits per entry. */
export interface FilterSettings {
  version: number;
  hashes: number;
  bitsPerEntry: number;
}

/** Returns true when the filter proves `path` unchanged; false when it may have changed. */
export function filterExcludes(filter: Buffer, path: string, settings: FilterSettings): boolean {
  const bits = filter.length * 8;
  if (bits === 0) return false;
  const key = Buffer.from(path, 'utf8');
  if (settings.version === 1 && key.some((b) => b > 0x7f)) return false;
  const h1 = murmur3(0x293ae76f, key);
  const h2 = murmur3(0x7e646e2c, key);
  for (let i = 0; i < settings.hashes; i++) {
    const position = ((h1 + Math.imul(i, h2)) >>> 0) % bits;
    if ((filter[position >>> 3]! & (1 << (position & 7))) === 0) return true;
  }
  return false;
}

/** Returns the 32-bit murmur3 hash (x86) of the bytes with the seed. */
export function murmur3(seed: number, data: Uint8Array): number {
  let h = seed >>> 0;
  const blocks = data.length >>> 2;
  for (let i = 0; i < blocks; i++) {
    const at = i * 4;
    const k = data[at]! | (data[at + 1]! << 8) | (data[at + 2]! << 16) | (data[at + 3]! << 24);
    h ^= mix(k);
    h = (Math.imul(rotl(h, 13), 5) + 0xe6546b64) >>> 0;
  }
  const tail = blocks * 4;
  const rest = data.length & 3;
  if (rest > 0) {
    let k = data[tail]!;
    if (rest > 1) k |= data[tail + 1]! << 8;
    if (rest > 2) k |= data[tail + 2]! << 16;
    h ^= mix(k);
  }
  h ^= data.length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function mix(k: number): number {
  return Math.imul(rotl(Math.imul(k, 0xcc9e2d51), 15), 0x1b873593);
}

function rotl(x: number, r: number): number {
  return (x << r) | (x >>> (32 - r));
}
