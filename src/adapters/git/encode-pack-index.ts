// The version 2 pack index (gitformat-pack(5)) that lets readers find an object in a pack
// without scanning it:
//
//   magic \377tOc, version 2
//   fanout: 256 counts, entry i = number of ids whose first byte is <= i
//   the ids, sorted (20 bytes each)
//   the CRC32 of each packed entry (header + compressed data), in id order
//   the offset of each entry: 31 bits, or with the top bit set an index into
//   the table of 64-bit offsets that follows (entries at 2 GiB and beyond)
//   the pack's trailing checksum, then the SHA-1 of everything above
import { createHash } from 'node:crypto';

/** Where one object sits in the pack. */
export interface PackIndexEntry {
  oid: string;
  crc32: number;
  offset: number;
}

const largeOffset = 0x80000000;

/** Returns the bytes of the v2 index of a pack holding the given entries, in any order. */
export function encodePackIndex(entries: readonly PackIndexEntry[], packChecksum: Buffer): Buffer {
  const sorted = [...entries].sort((a, b) => (a.oid < b.oid ? -1 : a.oid > b.oid ? 1 : 0));
  const large = sorted.filter((e) => e.offset >= largeOffset);
  const n = sorted.length;
  const out = Buffer.alloc(8 + 256 * 4 + n * 28 + large.length * 8 + 40);
  out.writeUInt32BE(0xff744f63, 0);
  out.writeUInt32BE(2, 4);
  writeFanout(out, 8, sorted);
  const idsAt = 8 + 1024;
  const crcAt = idsAt + n * 20;
  const offsetsAt = crcAt + n * 4;
  const largeAt = offsetsAt + n * 4;
  let nextLarge = 0;
  sorted.forEach((entry, i) => {
    out.write(entry.oid, idsAt + i * 20, 'hex');
    out.writeUInt32BE(entry.crc32 >>> 0, crcAt + i * 4);
    if (entry.offset < largeOffset) {
      out.writeUInt32BE(entry.offset, offsetsAt + i * 4);
    } else {
      out.writeUInt32BE((largeOffset | nextLarge) >>> 0, offsetsAt + i * 4);
      out.writeBigUInt64BE(BigInt(entry.offset), largeAt + nextLarge * 8);
      nextLarge++;
    }
  });
  const checksumAt = largeAt + large.length * 8;
  packChecksum.copy(out, checksumAt);
  createHash('sha1')
    .update(out.subarray(0, checksumAt + 20))
    .digest()
    .copy(out, checksumAt + 20);
  return out;
}

function writeFanout(out: Buffer, at: number, sorted: readonly PackIndexEntry[]): void {
  let i = 0;
  for (let byte = 0; byte < 256; byte++) {
    while (i < sorted.length && parseInt(sorted[i]!.oid.slice(0, 2), 16) <= byte) i++;
    out.writeUInt32BE(i, at + byte * 4);
  }
}
