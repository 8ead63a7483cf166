// Reads a version 2 pack index (gitformat-pack(5)) to find objects inside its pack without
// going through isomorphic-git, so a push can copy entries straight out of the mirror's packs:
//
//   magic \377tOc, version 2 | fanout: 256 x uint32 | N ids (20 bytes, sorted) | N CRC-32s
//   | N offsets (uint32; high bit set: index into the 64-bit offsets that follow) | trailers
//
// An entry's length is not stored: it runs to the next entry's offset, or to the pack's
// trailing checksum for the last one.
import { readFile } from 'node:fs/promises';
import { ProtocolError } from './protocol-error.js';

/** Where an object sits in its pack. */
export interface PackLocation {
  offset: number;
  /** Offset of the byte after the entry. */
  end: number;
  crc32: number;
}

/** A parsed index: object lookups by id. */
export interface PackIndex {
  /** Returns where the object (its 20-byte id) is in the pack, or null when this pack does not hold it. */
  find(id: Uint8Array): PackLocation | null;
}

const magic = Buffer.from([0xff, 0x74, 0x4f, 0x63]);

/** Reads the index of a pack of `packSize` bytes and returns its lookup, or throws on a malformed index. */
export async function readPackIndex(idxPath: string, packSize: number): Promise<PackIndex> {
  const idx = await readFile(idxPath);
  if (idx.length < 8 + 1024 || !idx.subarray(0, 4).equals(magic) || idx.readUInt32BE(4) !== 2) {
    throw new ProtocolError('DamagedPack', `${idxPath}: not a version 2 pack index`);
  }
  const count = idx.readUInt32BE(8 + 255 * 4);
  const names = 8 + 1024;
  const crcs = names + count * 20;
  const offsets = crcs + count * 4;
  const large = offsets + count * 4;
  const offsetAt = (i: number): number => {
    const small = idx.readUInt32BE(offsets + i * 4);
    if ((small & 0x80000000) === 0) return small;
    const at = large + (small & 0x7fffffff) * 8;
    return idx.readUInt32BE(at) * 2 ** 32 + idx.readUInt32BE(at + 4);
  };
  let ends: Float64Array | undefined;
  const endOf = (offset: number): number => {
    ends ??= sortedOffsets(count, offsetAt);
    const next = ends[upperBound(ends, offset)];
    return next ?? packSize - 20;
  };
  return {
    find: (id) => {
      const i = search(idx, names, id);
      if (i < 0) return null;
      const offset = offsetAt(i);
      return { offset, end: endOf(offset), crc32: idx.readUInt32BE(crcs + i * 4) };
    },
  };
}

/** Binary search of the sorted ids within the fanout bucket of the first byte. */
function search(idx: Buffer, names: number, id: Uint8Array): number {
  const first = id[0]!;
  let lo = first === 0 ? 0 : idx.readUInt32BE(8 + (first - 1) * 4);
  let hi = idx.readUInt32BE(8 + first * 4);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const cmp = compareId(idx, names + mid * 20, id);
    if (cmp === 0) return mid;
    if (cmp > 0) hi = mid;
    else lo = mid + 1;
  }
  return -1;
}

/** Compares the stored id at `at` with `id`, byte by byte (a lookup does millions of these). */
function compareId(idx: Buffer, at: number, id: Uint8Array): number {
  for (let k = 0; k < 20; k++) {
    const d = idx[at + k]! - id[k]!;
    if (d !== 0) return d;
  }
  return 0;
}

function sortedOffsets(count: number, offsetAt: (i: number) => number): Float64Array {
  const all = new Float64Array(count);
  for (let i = 0; i < count; i++) all[i] = offsetAt(i);
  return all.sort();
}

/** Index of the first value greater than `value`. */
function upperBound(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
