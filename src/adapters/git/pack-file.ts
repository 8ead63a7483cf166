// One pack (gitformat-pack(5)) read in place: its index in memory, its entries read at their
// offsets with positioned reads, never the whole file. An entry is a header (type in bits 4-6 of
// the first byte, the inflated size in base-128 from its low 4 bits on), for a delta the base
// (OFS_DELTA: a negative offset in git's "add one per continuation byte" encoding; REF_DELTA:
// the base's 20-byte id), then a zlib stream that runs to the next entry.
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { GitWriteError } from './git-write-error.js';
import { PackIndex } from './pack-index.js';
import { inflateChunk } from './zlib-chunk.js';
import { packHandle, readAt } from './pack-file-handles.js';

/** Pack entry type numbers of whole objects. */
const wholeTypes: Record<number, string> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };
const ofsDelta = 6;
const refDelta = 7;
/** The longest header: 10 size bytes, then up to 10 offset bytes or a 20-byte id. */
const headerMax = 32;

/** An entry as stored: a whole object, or a delta with its base. */
export type PackEntry =
  | { kind: 'whole'; type: string; data: Buffer }
  | { kind: 'ofs'; baseOffset: number; data: Buffer }
  | { kind: 'ref'; baseOid: string; data: Buffer };

/** A pack and its index. */
export class PackFile {
  private constructor(
    /** The pack's path (`…/pack-<checksum>.pack`). */
    readonly path: string,
    readonly index: PackIndex,
    private readonly size: number,
  ) {}

  /**
   * Opens the pack at `path` with its index at `idxPath`, checking that they belong together
   * (object count, the checksum both record), which also finds a pack cut short. Throws the
   * file system's error (ENOENT: removed meanwhile) or CorruptObject naming the file.
   */
  static open(path: string, idxPath: string): PackFile {
    const index = PackIndex.parse(readFileSync(idxPath), idxPath);
    const { fd, size } = packHandle(path);
    const damaged = (why: string) => new GitWriteError('CorruptObject', `${path}: damaged pack: ${why}`);
    if (size < 32) throw damaged(`${size} bytes, shorter than any pack`);
    const head = readAt(fd, 12, 0);
    const version = head.readUInt32BE(4);
    if (head.toString('latin1', 0, 4) !== 'PACK' || (version !== 2 && version !== 3)) {
      throw damaged('no version 2 or 3 pack header');
    }
    if (head.readUInt32BE(8) !== index.count) {
      throw damaged(`it holds ${head.readUInt32BE(8)} objects, its index ${idxPath} lists ${index.count}`);
    }
    if (!readAt(fd, 20, size - 20).equals(index.packChecksum)) {
      throw damaged(`its trailing checksum is not the one ${idxPath} records (truncated or overwritten)`);
    }
    return new PackFile(path, index, size);
  }

  /** Returns the offset of the object in this pack, or -1. */
  find(oid: string): number {
    return this.index.find(oid);
  }

  /** Returns the entry at `offset`, inflated and checked against its declared size. */
  readEntry(offset: number): PackEntry {
    const damaged = (why: string) =>
      new GitWriteError('CorruptObject', `${this.path}: damaged pack: entry at offset ${offset}: ${why}`);
    const { fd } = packHandle(this.path);
    const end = this.index.entryEnd(offset, this.size);
    if (offset < 12 || end > this.size - 20 || end <= offset) throw damaged(`no entry fits before ${end}`);
    const head = readAt(fd, Math.min(headerMax, end - offset), offset);
    let at = 0;
    const byte = (): number => {
      const b = head[at++];
      if (b === undefined) throw damaged('its header runs past the entry');
      return b;
    };
    let b = byte();
    const type = (b >> 4) & 7;
    let size = b & 15;
    let shift = 4;
    while (b & 0x80) {
      b = byte();
      size += (b & 0x7f) * 2 ** shift;
      shift += 7;
    }
    let base: { baseOffset: number } | { baseOid: string } | undefined;
    if (type === ofsDelta) {
      b = byte();
      let back = b & 0x7f;
      while (b & 0x80) {
        b = byte();
        back = (back + 1) * 128 + (b & 0x7f);
      }
      if (back <= 0 || back >= offset) throw damaged(`its base offset -${back} is outside the pack`);
      base = { baseOffset: offset - back };
    } else if (type === refDelta) {
      if (at + 20 > head.length) throw damaged('its base id runs past the entry');
      base = { baseOid: head.toString('hex', at, at + 20) };
      at += 20;
    } else if (wholeTypes[type] === undefined) {
      throw damaged(`unknown entry type ${type}`);
    }
    const data = this.inflate(fd, offset + at, end, size, damaged);
    if (base === undefined) return { kind: 'whole', type: wholeTypes[type]!, data };
    return 'baseOffset' in base ? { kind: 'ofs', ...base, data } : { kind: 'ref', ...base, data };
  }

  private inflate(
    fd: number,
    from: number,
    end: number,
    size: number,
    damaged: (why: string) => GitWriteError,
  ): Buffer {
    const compressed = readAt(fd, end - from, from);
    if (compressed.length !== end - from) throw damaged('the pack ends inside it');
    let data: Buffer;
    try {
      // One byte more than declared is allowed, so a stream that is longer is seen as such; the
      // output buffer is sized to the object (zlib-chunk.ts).
      data = inflateSync(compressed, { maxOutputLength: size + 1, chunkSize: inflateChunk(size) });
    } catch (e) {
      throw damaged(`its data does not inflate: ${(e as Error).message}`);
    }
    if (data.length !== size) throw damaged(`it inflates to ${data.length} bytes, its header says ${size}`);
    return data;
  }
}
