import { test } from 'node:test';
import assert from 'node:assert/strict';
import { graphMagic, Tag } from '../../../src/loops/hub/graph-codec.js';
import { decodeGraph } from '../../../src/loops/hub/graph-decode.js';
import { encodeGraph } from '../../../src/loops/hub/graph-encode.js';

/** Returns the value after a round trip through the codec, as the memo file makes it. */
function roundTrip(value: unknown, omit?: (owner: object, key: string) => boolean): unknown {
  const bytes = encodeGraph(value, omit ? { omit } : {});
  // As read back from a file: a Buffer at an offset of a larger one, not word-aligned.
  const file = Buffer.concat([Buffer.from('{"header":1}\n'), bytes, Buffer.from('\n')]);
  return decodeGraph(file.subarray(13, 13 + bytes.length));
}

test('an object reached twice comes back as one object, a cycle included', () => {
  const template = { key: 'apps/v1/Deployment/shop/web', object: { spec: { replicas: 3 } } };
  const binding = { template, clusters: ['a', 'b'] };
  const graph: { units: Map<string, unknown>; detections: Map<string, unknown>; self?: unknown } = {
    units: new Map([['web', { binding, template }]]),
    detections: new Map([['web', { template }]]),
  };
  graph.self = graph;
  const back = roundTrip(graph) as typeof graph;
  const unit = back.units.get('web') as { binding: typeof binding; template: typeof template };
  assert.equal(unit.binding.template, unit.template);
  assert.equal((back.detections.get('web') as { template: unknown }).template, unit.template);
  assert.equal(back.self, back);
  assert.deepEqual(unit.template, template);
});

test('a long string used many times is written once', () => {
  const text = `apiVersion: v1\nkind: Service\n${'x'.repeat(1000)}\n`;
  const clusters = new Map(
    Array.from({ length: 50 }, (_, i) => [`member${i}`, new Map([['default/Service/web.yaml', text]])]),
  );
  const encoded = encodeGraph(clusters);
  assert.equal(encoded.toString('latin1').split('x'.repeat(1000)).length, 2);
  assert.ok(encoded.length < 50 * 60 + 1200, `${encoded.length} bytes`);
  const back = roundTrip(clusters) as typeof clusters;
  assert.equal(back.get('member49')!.get('default/Service/web.yaml'), text);
});

test('objects of one shape name their keys once; strings keep every character', () => {
  const targets = Array.from({ length: 200 }, (_, i) => ({ name: `member${i}`, replicas: i }));
  const encoded = encodeGraph(targets);
  assert.equal(encoded.toString('latin1').split('replicas').length, 2);
  const odd = { ключ: 'значение ✓', tab: '\t\u0000"\\', emoji: '🚀'.repeat(3) };
  assert.deepEqual(roundTrip({ targets, odd }), { targets, odd });
});

test('what JSON has no word for keeps its kind: Map, Set, Date, undefined, NaN, infinities, -0', () => {
  const value = {
    map: new Map<unknown, unknown>([
      [1, 'one'],
      ['k', { a: undefined }],
    ]),
    set: new Set(['a', 'b']),
    date: new Date(1_700_000_000_000),
    list: [undefined, NaN, Infinity, -Infinity, -0, 0, null, true, 'short'],
    absent: undefined,
  };
  const back = roundTrip(value) as typeof value;
  assert.deepEqual(back, value);
  assert.ok('absent' in back);
  assert.ok(Object.is(back.list[4], -0));
  assert.ok(back.map instanceof Map && back.set instanceof Set && back.date instanceof Date);
});

test('a key named __proto__ (YAML can hold one) stays a key and sets no prototype', () => {
  const value = JSON.parse('{"metadata":{"__proto__":{"polluted":true},"name":"x"}}') as {
    metadata: Record<string, unknown>;
  };
  const back = roundTrip(value) as typeof value;
  assert.equal(Object.getPrototypeOf(back.metadata), Object.prototype);
  assert.deepEqual(Object.keys(back.metadata), ['__proto__', 'name']);
  assert.equal(({} as { polluted?: boolean }).polluted, undefined);
  const nullProto = Object.assign(Object.create(null) as object, { a: 1 });
  assert.equal(Object.getPrototypeOf(roundTrip({ nullProto }) as object), Object.prototype);
  assert.equal(Object.getPrototypeOf((roundTrip({ nullProto }) as { nullProto: object }).nullProto), null);
});

test('a read-only map of another class comes back as a Map; an omitted property is left out', () => {
  const base = new Map([['a', 1]]);
  class View {
    get = (k: string) => base.get(k);
    has = (k: string) => base.has(k);
    entries = () => base.entries();
    size = 1;
  }
  assert.deepEqual(roundTrip({ view: new View() }), { view: new Map([['a', 1]]) });
  const output = { files: new Map(), held: new Map(), derived: { from: 'older' } };
  assert.deepEqual(
    roundTrip(output, (owner, key) => key === 'derived' && 'files' in owner),
    {
      files: new Map(),
      held: new Map(),
    },
  );
});

test('a value that would not come back the same is refused, naming its kind', () => {
  class Session {
    state = 1;
  }
  assert.throws(() => encodeGraph({ s: new Session() }), /hub memo: a Session cannot be kept/);
  assert.throws(() => encodeGraph({ f: () => 1 }), /hub memo: a function cannot be kept/);
  assert.throws(() => encodeGraph({ n: 1n }), /hub memo: a bigint cannot be kept/);
});

/** Bytes laid out as encodeGraph lays them out: no strings, floats or shapes unless given. */
function graphBytes(tape: number[], parts: { strings?: string[]; shapes?: number[][] } = {}): Buffer {
  const strings = (parts.strings ?? []).map((s) => Buffer.from(s));
  const size = strings.reduce((n, b) => n + b.length, 0);
  const words = (w: number[]) => Buffer.from(new Uint32Array(w).buffer);
  return Buffer.concat([
    words([graphMagic, strings.length, ...strings.map((b) => b.length)]),
    ...strings,
    Buffer.alloc((4 - (size % 4)) % 4),
    words([0]),
    words([(parts.shapes ?? []).length, ...(parts.shapes ?? []).flatMap((k) => [k.length, ...k])]),
    words([tape.length, ...tape]),
  ]);
}

test('bytes it did not write do not decode: unknown tags, references out of range, cut short', () => {
  assert.deepEqual(decodeGraph(graphBytes([Tag.Array, 1, Tag.String, 0], { strings: ['a'] })), ['a']);
  assert.throws(() => decodeGraph(graphBytes([99])), /hub memo: an unknown tag: 99/);
  assert.throws(() => decodeGraph(graphBytes([Tag.String, 0])), /a string out of range: 0/);
  assert.throws(() => decodeGraph(graphBytes([Tag.Array, 1, Tag.Ref, 5])), /a reference out of range: 5/);
  assert.throws(() => decodeGraph(graphBytes([Tag.Number, 0])), /a number out of range: 0/);
  assert.throws(() => decodeGraph(graphBytes([Tag.Object, 3])), /a shape out of range: 3/);
  assert.throws(() => decodeGraph(graphBytes([Tag.Array, 2, Tag.Null])), /cut short/);
  assert.throws(() => decodeGraph(graphBytes([Tag.Null, Tag.Null])), /words after the root/);
  assert.throws(
    () => decodeGraph(graphBytes([Tag.Object, 0], { strings: ['k'], shapes: [[0]] })),
    /cut short/,
  );
  const good = encodeGraph({ a: [1, 2, 3], b: 'text' });
  assert.throws(() => decodeGraph(good.subarray(0, good.length - 4)), /cut short/);
  assert.throws(() => decodeGraph(Buffer.concat([good, Buffer.alloc(4)])), /bytes after the graph/);
  assert.throws(() => decodeGraph(Buffer.from('{"strings":[],"root":null}')), /not an encoded graph/);
});
