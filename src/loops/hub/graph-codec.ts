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

// A growable run of 32-bit words.
class Words {
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

/** Returns the graph under `root` as bytes, each object and each string written once. */
export function encodeGraph(root: unknown, options: EncodeOptions = {}): Buffer {
  const { omit } = options;
  const objects = new Map<object, number>();
  const stringIds = new Map<string, number>();
  const strings: string[] = [];
  const floats: number[] = [];
  const shapeIds = new Map<string, number>();
  const shapes: number[][] = [];
  const tape = new Words();
  const stringId = (value: string): number => {
    let id = stringIds.get(value);
    if (id === undefined) {
      id = strings.length;
      strings.push(value);
      stringIds.set(value, id);
    }
    return id;
  };
  const shapeId = (keys: readonly string[]): number => {
    const name = keys.join('\0');
    let id = shapeIds.get(name);
    if (id === undefined) {
      id = shapes.length;
      shapes.push(keys.map(stringId));
      shapeIds.set(name, id);
    }
    return id;
  };
  const float = (value: number): void => {
    tape.push(floats.length);
    floats.push(value);
  };
  const encode = (value: unknown): void => {
    switch (typeof value) {
      case 'string':
        tape.push(Tag.String);
        tape.push(stringId(value));
        return;
      case 'number':
        if (Number.isInteger(value) && value >= 0 && value <= 0xffffffff && !Object.is(value, -0)) {
          tape.push(Tag.Uint);
          tape.push(value);
        } else {
          tape.push(Tag.Number);
          float(value);
        }
        return;
      case 'boolean':
        tape.push(value ? Tag.True : Tag.False);
        return;
      case 'undefined':
        tape.push(Tag.Undefined);
        return;
      case 'object':
        if (value === null) tape.push(Tag.Null);
        else encodeObject(value);
        return;
      default:
        throw new GraphCodecError('NotEncodable', `a ${typeof value} cannot be kept`);
    }
  };
  const encodeObject = (value: object): void => {
    const seen = objects.get(value);
    if (seen !== undefined) {
      tape.push(Tag.Ref);
      tape.push(seen);
      return;
    }
    objects.set(value, objects.size);
    if (Array.isArray(value)) {
      tape.push(Tag.Array);
      tape.push(value.length);
      for (let i = 0; i < value.length; i++) encode(value[i]);
    } else if (value instanceof Map || isReadonlyMap(value)) {
      tape.push(Tag.Map);
      tape.push(value.size);
      for (const [k, v] of value.entries()) {
        encode(k);
        encode(v);
      }
    } else if (value instanceof Set) {
      tape.push(Tag.Set);
      tape.push(value.size);
      for (const item of value) encode(item);
    } else if (value instanceof Date) {
      tape.push(Tag.Date);
      float(value.getTime());
    } else {
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) {
        const name = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
        throw new GraphCodecError('NotEncodable', `a ${name} cannot be kept`);
      }
      const record = value as Record<string, unknown>;
      let keys = Object.keys(record);
      if (omit) keys = keys.filter((key) => !omit(value, key));
      tape.push(proto === null ? Tag.NullObject : Tag.Object);
      tape.push(shapeId(keys));
      for (const key of keys) encode(record[key]);
    }
  };
  encode(root);
  return assemble(strings, floats, shapes, tape);
}

// The parts in the order of the layout.
function assemble(strings: string[], floats: number[], shapes: number[][], tape: Words): Buffer {
  const head = new Words();
  head.push(graphMagic);
  head.push(strings.length);
  const texts = strings.map((s) => Buffer.from(s, 'utf8'));
  for (const t of texts) head.push(t.length);
  const textBytes = texts.reduce((n, t) => n + t.length, 0);
  const padding = Buffer.alloc((4 - (textBytes % 4)) % 4);
  const numbers = new Words();
  numbers.push(floats.length);
  const floatWords = Buffer.from(new Float64Array(floats).buffer);
  const shapeWords = new Words();
  shapeWords.push(shapes.length);
  for (const keys of shapes) {
    shapeWords.push(keys.length);
    for (const k of keys) shapeWords.push(k);
  }
  shapeWords.push(tape.length);
  return Buffer.concat([
    head.bytes(),
    ...texts,
    padding,
    numbers.bytes(),
    floatWords,
    shapeWords.bytes(),
    tape.bytes(),
  ]);
}

// A read-only map of a class of its own (core/model/patched-map.ts: a map patched over
// another) is kept as the Map it reads as.
function isReadonlyMap(value: object): value is ReadonlyMap<unknown, unknown> {
  const map = value as Partial<ReadonlyMap<unknown, unknown>>;
  return (
    typeof map.get === 'function' &&
    typeof map.has === 'function' &&
    typeof map.entries === 'function' &&
    typeof map.size === 'number'
  );
}

const notDecodable = (message: string) => new GraphCodecError('NotDecodable', message);

// Reads the words of `bytes` from a byte offset on, in bounds or throwing.
class Reader {
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

/** Returns the graph encodeGraph wrote; throws GraphCodecError for bytes it did not write. */
export function decodeGraph(bytes: Buffer): unknown {
  const read = new Reader(bytes);
  if (read.word() !== graphMagic) throw notDecodable('not an encoded graph');
  const lengths = read.words(read.word());
  const strings = new Array<string>(lengths.length);
  let at = read.offset;
  for (let i = 0; i < lengths.length; i++) {
    const end = at + lengths[i]!;
    if (end > bytes.length) throw notDecodable('cut short');
    strings[i] = bytes.toString('utf8', at, end);
    at = end;
  }
  read.offset = at + ((4 - ((at - read.offset) % 4)) % 4);
  const floats = new Float64Array(read.take(read.word() * 8));
  const shapeCount = read.word();
  const shapes: string[][] = [];
  for (let s = 0; s < shapeCount; s++) {
    const keys = read.words(read.word());
    shapes.push(Array.from(keys, (k) => stringAt(strings, k)));
  }
  const tape = read.words(read.word());
  if (read.offset !== bytes.length) throw notDecodable('bytes after the graph');
  const objects: unknown[] = [];
  let pos = 0;
  const next = (): number => {
    if (pos >= tape.length) throw notDecodable('cut short');
    return tape[pos++]!;
  };
  const floatAt = (i: number): number => {
    if (i >= floats.length) throw notDecodable(`a number out of range: ${i}`);
    return floats[i]!;
  };
  const fill = (out: Record<string, unknown>, keys: readonly string[]): void => {
    for (const key of keys) {
      const value = decode();
      // `out[key] = value` would set the prototype for the key `__proto__` (YAML can hold one).
      if (key === '__proto__')
        Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      else out[key] = value;
    }
  };
  const decode = (): unknown => {
    const tag = next();
    switch (tag) {
      case Tag.Null:
        return null;
      case Tag.False:
        return false;
      case Tag.True:
        return true;
      case Tag.Undefined:
        return undefined;
      case Tag.String:
        return stringAt(strings, next());
      case Tag.Uint:
        return next();
      case Tag.Number:
        return floatAt(next());
      case Tag.Ref: {
        const i = next();
        if (i >= objects.length) throw notDecodable(`a reference out of range: ${i}`);
        return objects[i];
      }
      case Tag.Date: {
        const out = new Date(floatAt(next()));
        objects.push(out);
        return out;
      }
      case Tag.Array: {
        const n = next();
        if (n > tape.length - pos) throw notDecodable('cut short');
        const out = new Array<unknown>(n);
        objects.push(out);
        for (let i = 0; i < n; i++) out[i] = decode();
        return out;
      }
      case Tag.Map: {
        const n = next();
        const out = new Map<unknown, unknown>();
        objects.push(out);
        for (let i = 0; i < n; i++) out.set(decode(), decode());
        return out;
      }
      case Tag.Set: {
        const n = next();
        const out = new Set<unknown>();
        objects.push(out);
        for (let i = 0; i < n; i++) out.add(decode());
        return out;
      }
      case Tag.Object:
      case Tag.NullObject: {
        const s = next();
        if (s >= shapes.length) throw notDecodable(`a shape out of range: ${s}`);
        const out = (tag === Tag.Object ? {} : Object.create(null)) as Record<string, unknown>;
        objects.push(out);
        fill(out, shapes[s]!);
        return out;
      }
      default:
        throw notDecodable(`an unknown tag: ${tag}`);
    }
  };
  const root = decode();
  if (pos !== tape.length) throw notDecodable('words after the root');
  return root;
}

function stringAt(strings: readonly string[], i: number): string {
  if (i >= strings.length) throw notDecodable(`a string out of range: ${i}`);
  return strings[i]!;
}
