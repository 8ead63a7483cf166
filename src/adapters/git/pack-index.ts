// A version 2 pack index (gitformat-pack(5)), read once and looked up in place:
//
//   magic \377tOc, version 2 | fan-out: 256 x uint32 (objects whose first byte is <= i)
//   | N ids (20 bytes, sorted) | N CRC-32s | N offsets (uint32; high bit set: the low 31 bits
//   index the 64-bit offsets that follow) | 64-bit offsets | pack checksum | index checksum
//
// The index's bytes are kept as read (about 28 bytes an object; git maps the same file) and
// searched there, without making one JS object per entry. An entry's compressed length is not
// stored: it runs to the next entry's offset in offset order, or to the pack's trailing checksum,
// so the sorted offsets are built once, on the first read that needs an entry's end.
import { GitWriteError } from './git-write-error.js';

const magic = 0xff744f63;
const headerBytes = 8 + 256 * 4;

/** A parsed index: where each of its objects sits in the pack. */
export class PackIndex {
  /** How many objects the pack holds. */
  readonly count: number;
  /** The pack's SHA-1 checksum as the index records it (the pack's last 20 bytes). */
  readonly packChecksum: Buffer;
  private readonly offsetsAt: number;
  private readonly largeAt: number;
  private sorted: Float64Array | undefined;

  private constructor(
    private readonly bytes: Buffer,
    private readonly path: string,
  ) {
    this.count = bytes.readUInt32BE(headerBytes - 4);
    this.offsetsAt = headerBytes + this.count * 24;
    this.largeAt = this.offsetsAt + this.count * 4;
    this.packChecksum = bytes.subarray(bytes.length - 40, bytes.length - 20);
  }

  /** Returns the index held in `bytes` (the `.idx` file at `path`), or throws CorruptObject naming it. */
  static parse(bytes: Buffer, path: string): PackIndex {
    const damaged = (why: string) =>
      new GitWriteError('CorruptObject', `${path}: damaged pack index: ${why}`);
    if (bytes.length < headerBytes + 40) throw damaged(`${bytes.length} bytes, shorter than any index`);
    if (bytes.readUInt32BE(0) !== magic || bytes.readUInt32BE(4) !== 2)
      throw damaged('not a version 2 index');
    let previous = 0;
    for (let i = 0; i < 256; i++) {
      const n = bytes.readUInt32BE(8 + i * 4);
      if (n < previous) throw damaged(`fan-out entry ${i} decreases`);
      previous = n;
    }
    const count = previous;
    const fixed = headerBytes + count * 28 + 40;
    if (bytes.length < fixed) throw damaged(`${bytes.length} bytes for ${count} objects (at least ${fixed})`);
    const index = new PackIndex(bytes, path);
    const large = index.largeOffsetCount();
    if (bytes.length !== fixed + large * 8) {
      throw damaged(`${bytes.length} bytes for ${count} objects and ${large} large offsets`);
    }
    return index;
  }

  /** Returns the offset in the pack of the object with the given id (40 hex digits), or -1. */
  find(oid: string): number {
    const i = this.position(Buffer.from(oid, 'hex'));
    return i < 0 ? -1 : this.offsetOf(i);
  }

  /** Returns the offset of the byte after the entry at `offset`: the next entry, or the pack's checksum. */
  entryEnd(offset: number, packSize: number): number {
    this.sorted ??= this.sortOffsets();
    const s = this.sorted;
    let lo = 0;
    let hi = s.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (s[mid]! <= offset) lo = mid + 1;
      else hi = mid;
    }
    return lo < s.length ? s[lo]! : packSize - 20;
  }

  /** Returns the id of the i-th object in id order. */
  oidAt(i: number): string {
    return this.bytes.toString('hex', headerBytes + i * 20, headerBytes + i * 20 + 20);
  }

  /** Bytes this index keeps in memory. */
  get byteLength(): number {
    return this.bytes.length + (this.sorted?.byteLength ?? 0);
  }

  private position(id: Buffer): number {
    const first = id[0]!;
    let lo = first === 0 ? 0 : this.bytes.readUInt32BE(8 + (first - 1) * 4);
    let hi = this.bytes.readUInt32BE(8 + first * 4);
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const at = headerBytes + mid * 20;
      const c = this.bytes.compare(id, 0, 20, at, at + 20);
      if (c === 0) return mid;
      if (c < 0)
        lo = mid + 1; // the stored id is smaller than the one looked for
      else hi = mid;
    }
    return -1;
  }

  private offsetOf(i: number): number {
    const small = this.bytes.readUInt32BE(this.offsetsAt + i * 4);
    if ((small & 0x80000000) === 0) return small;
    const at = this.largeAt + (small & 0x7fffffff) * 8;
    if (at + 8 > this.bytes.length - 40) {
      throw new GitWriteError(
        'CorruptObject',
        `${this.path}: damaged pack index: large offset ${small & 0x7fffffff} out of range`,
      );
    }
    return this.bytes.readUInt32BE(at) * 2 ** 32 + this.bytes.readUInt32BE(at + 4);
  }

  private largeOffsetCount(): number {
    let n = 0;
    for (let i = 0; i < this.count; i++) {
      if (this.bytes.readUInt32BE(this.offsetsAt + i * 4) & 0x80000000) n++;
    }
    return n;
  }

  private sortOffsets(): Float64Array {
    const s = new Float64Array(this.count);
    for (let i = 0; i < this.count; i++) s[i] = this.offsetOf(i);
    return s.sort();
  }
}
