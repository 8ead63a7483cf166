import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeGraph, encodeGraph, type EncodedGraph } from '../../../src/loops/hub/graph-codec.js';

/** Returns the value after a round trip through the codec and JSON text, as the memo file makes it. */
function roundTrip(value: unknown, omit?: (owner: object, key: string) => boolean): unknown {
  const text = JSON.stringify(encodeGraph(value, omit ? { omit } : {}));
  return decodeGraph(JSON.parse(text) as EncodedGraph);
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
  assert.equal(encoded.strings.filter((s) => s === text).length, 1);
  assert.ok(JSON.stringify(encoded).length < 50 * 100 + 2000);
  const back = decodeGraph(JSON.parse(JSON.stringify(encoded)) as EncodedGraph) as typeof clusters;
  assert.equal(back.get('member49')!.get('default/Service/web.yaml'), text);
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

test('a graph it did not write does not decode: unknown tags, references out of range', () => {
  assert.throws(() => decodeGraph({ strings: [], root: ['x'] }), /an unknown tag: "x"/);
  assert.throws(() => decodeGraph({ strings: [], root: ['s', 0] }), /a reference out of range/);
  assert.throws(() => decodeGraph({ strings: [], root: ['a', ['r', 5]] }), /a reference out of range/);
  assert.throws(() => decodeGraph({ strings: [], root: ['f', 'many'] }), /an unknown number/);
});
