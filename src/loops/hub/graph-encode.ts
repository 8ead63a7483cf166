// Writing an object graph in the layout graph-codec.ts describes: each object and each string once.
import { GraphCodecError, graphMagic, Tag, Words, type EncodeOptions } from './graph-codec.js';

/** Returns the graph under `root` as bytes, each object and each string written once. */
export function encodeGraph(root: unknown, options: EncodeOptions = {}): Buffer {
  const encoder = new GraphEncoder(options.omit);
  encoder.encode(root);
  return encoder.bytes();
}

// The tables and the tape of one encoding, filled as the graph is walked.
class GraphEncoder {
  private readonly objects = new Map<object, number>();
  private readonly stringIds = new Map<string, number>();
  private readonly strings: string[] = [];
  private readonly floats: number[] = [];
  private readonly shapeIds = new Map<string, number>();
  private readonly shapes: number[][] = [];
  private readonly tape = new Words();

  constructor(private readonly omit: EncodeOptions['omit']) {}

  encode(value: unknown): void {
    switch (typeof value) {
      case 'string':
        this.tape.push(Tag.String);
        this.tape.push(this.stringId(value));
        return;
      case 'number':
        if (Number.isInteger(value) && value >= 0 && value <= 0xffffffff && !Object.is(value, -0)) {
          this.tape.push(Tag.Uint);
          this.tape.push(value);
        } else {
          this.tape.push(Tag.Number);
          this.float(value);
        }
        return;
      case 'boolean':
        this.tape.push(value ? Tag.True : Tag.False);
        return;
      case 'undefined':
        this.tape.push(Tag.Undefined);
        return;
      case 'object':
        if (value === null) this.tape.push(Tag.Null);
        else this.encodeObject(value);
        return;
      default:
        throw new GraphCodecError('NotEncodable', `a ${typeof value} cannot be kept`);
    }
  }

  /** The parts in the order of the layout. */
  bytes(): Buffer {
    const head = new Words();
    head.push(graphMagic);
    head.push(this.strings.length);
    const texts = this.strings.map((s) => Buffer.from(s, 'utf8'));
    for (const t of texts) head.push(t.length);
    const textBytes = texts.reduce((n, t) => n + t.length, 0);
    const padding = Buffer.alloc((4 - (textBytes % 4)) % 4);
    const numbers = new Words();
    numbers.push(this.floats.length);
    const floatWords = Buffer.from(new Float64Array(this.floats).buffer);
    const shapeWords = new Words();
    shapeWords.push(this.shapes.length);
    for (const keys of this.shapes) {
      shapeWords.push(keys.length);
      for (const k of keys) shapeWords.push(k);
    }
    shapeWords.push(this.tape.length);
    const parts = [head.bytes(), ...texts, padding, numbers.bytes(), floatWords, shapeWords.bytes()];
    return Buffer.concat([...parts, this.tape.bytes()]);
  }

  private encodeObject(value: object): void {
    const seen = this.objects.get(value);
    if (seen !== undefined) {
      this.tape.push(Tag.Ref);
      this.tape.push(seen);
      return;
    }
    this.objects.set(value, this.objects.size);
    if (Array.isArray(value)) this.encodeItems(Tag.Array, value.length, value);
    else if (value instanceof Map || isReadonlyMap(value)) {
      this.tape.push(Tag.Map);
      this.tape.push(value.size);
      for (const [k, v] of value.entries()) {
        this.encode(k);
        this.encode(v);
      }
    } else if (value instanceof Set) this.encodeItems(Tag.Set, value.size, value);
    else if (value instanceof Date) {
      this.tape.push(Tag.Date);
      this.float(value.getTime());
    } else this.encodeRecord(value);
  }

  private encodeItems(tag: number, count: number, items: Iterable<unknown>): void {
    this.tape.push(tag);
    this.tape.push(count);
    for (const item of items) this.encode(item);
  }

  // A plain object (or one without a prototype), written as its shape and then its values.
  private encodeRecord(value: object): void {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      const name = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
      throw new GraphCodecError('NotEncodable', `a ${name} cannot be kept`);
    }
    const record = value as Record<string, unknown>;
    let keys = Object.keys(record);
    const omit = this.omit;
    if (omit) keys = keys.filter((key) => !omit(value, key));
    this.tape.push(proto === null ? Tag.NullObject : Tag.Object);
    this.tape.push(this.shapeId(keys));
    for (const key of keys) this.encode(record[key]);
  }

  private stringId(value: string): number {
    let id = this.stringIds.get(value);
    if (id === undefined) {
      id = this.strings.length;
      this.strings.push(value);
      this.stringIds.set(value, id);
    }
    return id;
  }

  private shapeId(keys: readonly string[]): number {
    const name = keys.join('\0');
    let id = this.shapeIds.get(name);
    if (id === undefined) {
      id = this.shapes.length;
      this.shapes.push(keys.map((key) => this.stringId(key)));
      this.shapeIds.set(name, id);
    }
    return id;
  }

  private float(value: number): void {
    this.tape.push(this.floats.length);
    this.floats.push(value);
  }
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
