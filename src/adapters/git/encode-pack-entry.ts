// The framing of a version 2 packfile (gitformat-pack(5)): a 12-byte header, then per object a
// variable-length type-and-size header followed by the zlib stream of its content, then the
// SHA-1 of everything before it. Objects are stored whole: no OFS_DELTA or REF_DELTA entries.
import type { GitObjectType } from './git-object.js';

/** Pack type numbers of the object types written here (gitformat-pack: OBJ_COMMIT=1, OBJ_TREE=2, OBJ_BLOB=3). */
const packTypeNumber: Record<GitObjectType, number> = { commit: 1, tree: 2, blob: 3 };

/** Returns the 12-byte pack header: `PACK`, version 2, object count. */
export function encodePackHeader(count: number): Buffer {
  const header = Buffer.alloc(12);
  header.write('PACK', 0, 'latin1');
  header.writeUInt32BE(2, 4);
  header.writeUInt32BE(count, 8);
  return header;
}

/**
 * Returns an entry's header: the first byte holds a continuation bit, the 3-bit type and the low
 * 4 bits of the uncompressed size; each following byte a continuation bit and 7 more size bits.
 */
export function encodePackEntryHeader(type: GitObjectType, size: number): Buffer {
  const bytes: number[] = [];
  let rest = Math.floor(size / 16);
  let byte = (packTypeNumber[type] << 4) | (size & 0x0f);
  while (rest > 0) {
    bytes.push(byte | 0x80);
    byte = rest & 0x7f;
    rest = Math.floor(rest / 128);
  }
  bytes.push(byte);
  return Buffer.from(bytes);
}
