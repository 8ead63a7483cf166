// An object graph in a compact binary form, for the hub's persisted memo (hub-memo.ts). What the
// memo keeps is only worth keeping with its identities: the render memo reuses by `===` (a kept
// unit's binding is the object the kept schedule made, a kept detection's template the object the
// load memo returns for an unchanged file), so an object reached twice is written once and read
// back as one object. Each distinct string is written once too: a text fifty clusters render is
// one string in the file, not fifty. Maps (and read-only maps of other classes, as Maps), Sets,
// Dates, undefined and every number (NaN, ±Infinity, -0) keep their kind; anything else that is
// not plain data (a class instance, a function, a symbol, a bigint) is refused, so nothing is kept
// that would not come back the same.
//
// Why binary: JSON text of the same graph (the first form of this file) cost a restarted hub most
// of its pass to parse, one small array for every reference. Here the graph is a tape of 32-bit
// words read with typed arrays, and objects are written by shape (their keys once for all the
// objects that have those keys). The layout, all words little-endian:
//
//   'GFG2'                           magic
//   S, S byte lengths, the bytes     the strings, UTF-8, padded with zeros to a whole word
//   F, F float64s                    the numbers that are not 32-bit unsigned integers
//   K, K shapes                      a shape: its key count n, then n string indexes
//   T, T words                       the tape: one value, the root
//
// and a value on the tape is a tag and what follows it:
//   NULL | FALSE | TRUE | UNDEFINED    STRING i | UINT n | NUMBER f | DATE f | REF o
//   ARRAY n items | MAP n (key value)… | SET n items | OBJECT k values | NULL_OBJECT k values
// where i is a string, f a float, k a shape and o an object (numbered in the order first met,
// arrays, maps, sets, dates and objects alike).

import { GitfleetError } from '../../core/model/gitfleet-error.js';

/** Thrown for a value the encoding cannot keep, or bytes that do not decode. */
export class GraphCodecError extends GitfleetError<'NotEncodable' | 'NotDecodable'> {
  constructor(code: 'NotEncodable' | 'NotDecodable', message: string) {
    super(`hub memo: ${message}`, { code, subject: 'hub memo' });
  }
}

export interface EncodeOptions {
  /** Leaves a property out (e.g. a link to an older state the reader never needs). */
  omit?: (owner: object, key: string) => boolean;
}

/** The first word of an encoded graph ('GFG2' in ASCII, little-endian). */
export const graphMagic = 0x32474647;

/** The tags of the tape (exported for the codec's own tests). */
export const Tag = {
  Null: 0,
  False: 1,
  True: 2,
  Undefined: 3,
  String: 4,
  Uint: 5,
  Number: 6,
  Date: 7,
  Ref: 8,
  Array: 9,
  Map: 10,
  Set: 11,
  Object: 12,
  NullObject: 13,
} as const;

/** A growable run of 32-bit words. */
export class Words {
  words = new Uint32Array(1 << 16);
  length = 0;

  push(word: number): void {
    if (this.length === this.words.length) {
      const grown = new Uint32Array(this.words.length * 2);
      grown.set(this.words);
      this.words = grown;
    }
    this.words[this.length++] = word;
  }

  bytes(): Buffer {
    return Buffer.from(this.words.buffer, 0, this.length * 4);
  }
}

/** The error for bytes that are not a graph encodeGraph wrote. */
export const notDecodable = (message: string) => new GraphCodecError('NotDecodable', message);

/** Reads the words of `bytes` from a byte offset on, in bounds or throwing. */
export class Reader {
  offset = 0;
  constructor(readonly bytes: Buffer) {}

  word(): number {
    if (this.offset + 4 > this.bytes.length) throw notDecodable('cut short');
    const w = this.bytes.readUInt32LE(this.offset);
    this.offset += 4;
    return w;
  }

  /** The next `count` words as an aligned array of their own. */
  words(count: number): Uint32Array {
    return new Uint32Array(this.take(count * 4));
  }

  take(length: number): ArrayBuffer {
    if (this.offset + length > this.bytes.length) throw notDecodable('cut short');
    const start = this.bytes.byteOffset + this.offset;
    this.offset += length;
    return this.bytes.buffer.slice(start, start + length) as ArrayBuffer;
  }
}
