// An object graph as JSON, for the hub's persisted memo (hub-memo.ts). What the memo keeps is
// only worth keeping with its identities: the render memo reuses by `===` (a kept unit's
// binding is the object the kept schedule made, a kept detection's template the object the
// load memo returns for an unchanged file), so an object reached twice is written once and
// read back as one object. Long strings are written once too: a text fifty clusters render is
// one string in the file, not fifty. Maps (and read-only maps of other classes, as Maps), Sets, Dates, undefined and the numbers JSON has no
// word for (NaN, ±Infinity, -0) keep their kind; anything else that is not plain data (a class
// instance, a function, a symbol, a bigint) is refused, so nothing is kept that would not come
// back the same.
//
// Every array of the encoding starts with a tag, so a value's kind is never guessed:
//   ['s', i] string i of the table      ['r', i] object i (in the order first met)
//   ['a', ...items]  ['m', k, v, ...]   ['S', ...items]  ['d', time]  ['n', {…}] null-prototype object
//   ['u'] undefined  ['f', 'NaN' | 'Infinity' | '-Infinity' | '-0']
// and a JSON object is a plain object.

import { GitfleetError } from '../../core/model/gitfleet-error.js';

export type Encoded = null | boolean | number | string | Encoded[] | { [key: string]: Encoded };

/** A graph as JSON data: the shared strings, and the root value. */
export interface EncodedGraph {
  strings: string[];
  root: Encoded;
}

/** Thrown for a value the encoding cannot keep, or a graph that does not decode. */
export class GraphCodecError extends GitfleetError<'NotEncodable' | 'NotDecodable'> {
  constructor(code: 'NotEncodable' | 'NotDecodable', message: string) {
    super(`hub memo: ${message}`, { code, subject: 'hub memo' });
  }
}

/** Strings at least this long go to the table (a reference costs about ten characters). */
const sharedLength = 16;

export interface EncodeOptions {
  /** Leaves a property out (e.g. a link to an older state the reader never needs). */
  omit?: (owner: object, key: string) => boolean;
}

/** Returns the graph under `root` as JSON data, each object and each long string written once. */
export function encodeGraph(root: unknown, options: EncodeOptions = {}): EncodedGraph {
  const objects = new Map<object, number>();
  const stringIds = new Map<string, number>();
  const strings: string[] = [];
  const { omit } = options;
  const encodeString = (value: string): Encoded => {
    if (value.length < sharedLength) return value;
    let id = stringIds.get(value);
    if (id === undefined) {
      id = strings.length;
      strings.push(value);
      stringIds.set(value, id);
    }
    return ['s', id];
  };
  const encode = (value: unknown): Encoded => {
    if (typeof value === 'string') return encodeString(value);
    if (typeof value === 'number') return encodeNumber(value);
    if (typeof value === 'boolean' || value === null) return value;
    if (value === undefined) return ['u'];
    if (typeof value !== 'object')
      throw new GraphCodecError('NotEncodable', `a ${typeof value} cannot be kept`);
    const seen = objects.get(value);
    if (seen !== undefined) return ['r', seen];
    objects.set(value, objects.size);
    if (Array.isArray(value)) {
      const out: Encoded[] = ['a'];
      for (let i = 0; i < value.length; i++) out.push(encode(value[i]));
      return out;
    }
    if (value instanceof Map || isReadonlyMap(value)) {
      const out: Encoded[] = ['m'];
      for (const [k, v] of value.entries()) out.push(encode(k), encode(v));
      return out;
    }
    if (value instanceof Set) {
      const out: Encoded[] = ['S'];
      for (const item of value) out.push(encode(item));
      return out;
    }
    if (value instanceof Date) return ['d', encodeNumber(value.getTime())];
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      const name = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
      throw new GraphCodecError('NotEncodable', `a ${name} cannot be kept`);
    }
    const out: { [key: string]: Encoded } = {};
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (omit?.(value, key)) continue;
      setOwn(out, key, encode(record[key]));
    }
    return proto === null ? ['n', out] : out;
  };
  const encodedRoot = encode(root);
  return { strings, root: encodedRoot };
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

function encodeNumber(value: number): Encoded {
  if (Object.is(value, -0)) return ['f', '-0'];
  return Number.isFinite(value) ? value : ['f', String(value)];
}

/**
 * Returns the graph encodeGraph wrote, made in place of the parsed JSON (which it consumes);
 * throws GraphCodecError for one it did not write.
 */
export function decodeGraph(graph: EncodedGraph): unknown {
  const objects: unknown[] = [];
  const { strings } = graph;
  const indexAt = (e: Encoded[], limit: number): number => {
    const i = e[1];
    if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= limit)
      throw new GraphCodecError('NotDecodable', `a reference out of range: ${JSON.stringify(e)}`);
    return i;
  };
  const fill = (out: Record<string, unknown>, fields: Encoded): void => {
    if (fields === null || typeof fields !== 'object' || Array.isArray(fields))
      throw new GraphCodecError('NotDecodable', 'an object without fields');
    for (const key of Object.keys(fields)) setOwn(out, key, decode(fields[key]!));
  };
  const decode = (e: Encoded): unknown => {
    if (e === null || typeof e !== 'object') return e;
    if (!Array.isArray(e)) {
      // Decoded in place: the parsed object becomes the object (half the allocation).
      const out = e as Record<string, unknown>;
      objects.push(out);
      for (const key of Object.keys(out)) setOwn(out, key, decode(out[key] as Encoded));
      return out;
    }
    switch (e[0]) {
      case 's':
        return strings[indexAt(e, strings.length)];
      case 'r':
        return objects[indexAt(e, objects.length)];
      case 'u':
        return undefined;
      case 'f':
        return decodeNumber(e[1]);
      case 'a': {
        // In place too: each item moves one place left, over the tag.
        const out = e as unknown[];
        objects.push(out);
        for (let i = 1; i < e.length; i++) out[i - 1] = decode(e[i]!);
        out.length = e.length - 1;
        return out;
      }
      case 'm': {
        const out = new Map<unknown, unknown>();
        objects.push(out);
        for (let i = 1; i + 1 < e.length; i += 2) out.set(decode(e[i]!), decode(e[i + 1]!));
        return out;
      }
      case 'S': {
        const out = new Set<unknown>();
        objects.push(out);
        for (let i = 1; i < e.length; i++) out.add(decode(e[i]!));
        return out;
      }
      case 'd': {
        const out = new Date(0);
        objects.push(out);
        out.setTime(Number(decode(e[1] ?? null)));
        return out;
      }
      case 'n': {
        const out = Object.create(null) as Record<string, unknown>;
        objects.push(out);
        fill(out, e[1] ?? null);
        return out;
      }
      default:
        throw new GraphCodecError('NotDecodable', `an unknown tag: ${JSON.stringify(e[0])}`);
    }
  };
  return decode(graph.root);
}

function decodeNumber(word: Encoded | undefined): number {
  if (word === '-0') return -0;
  if (word === 'NaN') return NaN;
  if (word === 'Infinity') return Infinity;
  if (word === '-Infinity') return -Infinity;
  throw new GraphCodecError('NotDecodable', `an unknown number: ${JSON.stringify(word)}`);
}

// `out[key] = value` would set the prototype for the key `__proto__` (YAML can hold one).
function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}
