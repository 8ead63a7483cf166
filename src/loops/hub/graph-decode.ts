// Reading back a graph encodeGraph wrote (the layout is in graph-codec.ts), in bounds or throwing.
import { graphMagic, notDecodable, Reader, Tag } from './graph-codec.js';

/** Returns the graph encodeGraph wrote; throws GraphCodecError for bytes it did not write. */
export function decodeGraph(bytes: Buffer): unknown {
  const decoder = new GraphDecoder(readTables(bytes));
  const root = decoder.decode();
  decoder.end();
  return root;
}

interface Tables {
  strings: string[];
  floats: Float64Array;
  shapes: string[][];
  tape: Uint32Array;
}

// The strings, numbers and shapes before the tape, and the tape itself.
function readTables(bytes: Buffer): Tables {
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
  return { strings, floats, shapes, tape };
}

// Walks the tape from its start, numbering objects in the order it makes them.
class GraphDecoder {
  private readonly objects: unknown[] = [];
  private pos = 0;

  constructor(private readonly tables: Tables) {}

  decode(): unknown {
    const tag = this.next();
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
        return stringAt(this.tables.strings, this.next());
      case Tag.Uint:
        return this.next();
      case Tag.Number:
        return this.floatAt(this.next());
      case Tag.Ref: {
        const i = this.next();
        if (i >= this.objects.length) throw notDecodable(`a reference out of range: ${i}`);
        return this.objects[i];
      }
      case Tag.Date:
        return this.made(new Date(this.floatAt(this.next())));
      default:
        return this.decodeContainer(tag);
    }
  }

  /** Throws unless the whole tape was read. */
  end(): void {
    if (this.pos !== this.tables.tape.length) throw notDecodable('words after the root');
  }

  private decodeContainer(tag: number): unknown {
    switch (tag) {
      case Tag.Array: {
        const n = this.next();
        if (n > this.tables.tape.length - this.pos) throw notDecodable('cut short');
        const out = this.made(new Array<unknown>(n));
        for (let i = 0; i < n; i++) out[i] = this.decode();
        return out;
      }
      case Tag.Map: {
        const n = this.next();
        const out = this.made(new Map<unknown, unknown>());
        for (let i = 0; i < n; i++) out.set(this.decode(), this.decode());
        return out;
      }
      case Tag.Set: {
        const n = this.next();
        const out = this.made(new Set<unknown>());
        for (let i = 0; i < n; i++) out.add(this.decode());
        return out;
      }
      case Tag.Object:
      case Tag.NullObject:
        return this.decodeRecord(tag);
      default:
        throw notDecodable(`an unknown tag: ${tag}`);
    }
  }

  private decodeRecord(tag: number): Record<string, unknown> {
    const s = this.next();
    const shapes = this.tables.shapes;
    if (s >= shapes.length) throw notDecodable(`a shape out of range: ${s}`);
    const out = this.made((tag === Tag.Object ? {} : Object.create(null)) as Record<string, unknown>);
    for (const key of shapes[s]!) {
      const value = this.decode();
      // `out[key] = value` would set the prototype for the key `__proto__` (YAML can hold one).
      if (key === '__proto__')
        Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      else out[key] = value;
    }
    return out;
  }

  private made<T>(object: T): T {
    this.objects.push(object);
    return object;
  }

  private next(): number {
    const tape = this.tables.tape;
    if (this.pos >= tape.length) throw notDecodable('cut short');
    return tape[this.pos++]!;
  }

  private floatAt(i: number): number {
    const floats = this.tables.floats;
    if (i >= floats.length) throw notDecodable(`a number out of range: ${i}`);
    return floats[i]!;
  }
}

function stringAt(strings: readonly string[], i: number): string {
  if (i >= strings.length) throw notDecodable(`a string out of range: ${i}`);
  return strings[i]!;
}
