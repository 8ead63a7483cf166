import { test } from 'node:test';
import assert from 'node:assert/strict';
import yaml from 'js-yaml';
import { emitYaml } from '../../../src/core/format/emit-yaml.js';

const tricky = [
  '',
  ' ',
  'yes',
  'No',
  'on',
  'OFF',
  'y',
  'n',
  'null',
  '~',
  'true',
  'False',
  '0',
  '007',
  '0x1F',
  '0o17',
  '1e3',
  '1_000',
  '1:20',
  '.5',
  '-1',
  '+1',
  '.inf',
  '-.inf',
  '.nan',
  '2024-01-01',
  '2024-01-01T00:00:00Z',
  '- a',
  '? a',
  ': a',
  'a: b',
  'a #b',
  '#a',
  '&a',
  '*a',
  '!tag',
  '|',
  '>',
  '%x',
  '@x',
  '`x',
  '"x"',
  "'x'",
  '{a}',
  '[a]',
  'a,b',
  'trailing ',
  ' leading',
  'tab\there',
  'multi\nline',
  'multi\nline\n',
  'multi\nline\n\n',
  '\nleading newline',
  '  indented\nblock',
  'line with trailing space \nnext',
  'cr\r\nlf',
  '\u0000nul',
  'é unicode ✓',
  '\ufeffbom',
  'a:b',
  'http://x.y/z?q=1',
  'app.kubernetes.io/name',
  'nginx:1.27',
  '<<',
  '=',
  'key=value',
  '\n',
  '\n\n',
  'x\n\n\ny',
];

test('every tricky string survives a round trip as a value and as a key', () => {
  for (const s of tricky) {
    const doc = { value: s, list: [s], nested: { [s]: s } };
    const text = emitYaml(doc);
    assert.deepEqual(
      yaml.load(text, { schema: yaml.CORE_SCHEMA }),
      doc,
      `round trip of ${JSON.stringify(s)}:\n${text}`,
    );
    // YAML 1.1 readers (go-yaml v2) also read these as strings: js-yaml's default schema
    // resolves timestamps, which is the closest check available here.
    assert.deepEqual(yaml.load(text), doc, `default-schema round trip of ${JSON.stringify(s)}`);
  }
});

test('values of every JSON type round trip', () => {
  const doc = {
    int: 3,
    neg: -7,
    float: 1.5,
    big: 1e21,
    zero: 0,
    t: true,
    f: false,
    nil: null,
    empty: {},
    none: [],
    nested: [{ a: 1, b: [1, 2, [3, []]] }, [], {}, 'x', null],
  };
  assert.deepEqual(yaml.load(emitYaml(doc), { schema: yaml.CORE_SCHEMA }), doc);
});

test('keys are sorted, lists sit at their parent indentation, and multi-line strings are literal blocks', () => {
  const text = emitYaml({
    metadata: { name: 'web', labels: { b: '2', a: '1' } },
    apiVersion: 'v1',
    data: { 'config.yaml': 'level: debug\nport: 80\n' },
    items: [{ name: 'x', image: 'nginx' }, 'plain'],
  });
  assert.equal(
    text,
    [
      'apiVersion: v1',
      'data:',
      '  config.yaml: |',
      '    level: debug',
      '    port: 80',
      'items:',
      '- image: nginx',
      '  name: x',
      '- plain',
      'metadata:',
      '  labels:',
      '    a: "1"',
      '    b: "2"',
      '  name: web',
      '',
    ].join('\n'),
  );
});

test('emitting is deterministic whatever the key insertion order', () => {
  const a = emitYaml({ x: 1, y: { b: 2, a: 1 } });
  const b = emitYaml({ y: { a: 1, b: 2 }, x: 1 });
  assert.equal(a, b);
});

test('random strings round trip', () => {
  let seed = 42;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const alphabet = 'ab :#-\n\t"\'{}[],&*!|>%@`?~=.0123456789yesnotrue\\é\r';
  for (let i = 0; i < 3000; i++) {
    let s = '';
    const len = Math.floor(rand() * 12);
    for (let j = 0; j < len; j++) s += alphabet[Math.floor(rand() * alphabet.length)];
    const doc = { k: s, [s || 'empty']: [s] };
    assert.deepEqual(yaml.load(emitYaml(doc), { schema: yaml.CORE_SCHEMA }), doc, JSON.stringify(s));
  }
});

test('quantities and versions that start with a digit stay plain, numbers and dates are quoted', () => {
  const text = emitYaml({
    a: '100m',
    b: '256Mi',
    c: '1.27-alpine',
    d: '1.27',
    e: '1e3',
    f: '2024-01-01',
    g: '0x10',
    h: '.5',
  });
  assert.equal(
    text,
    'a: 100m\nb: 256Mi\nc: 1.27-alpine\nd: "1.27"\ne: "1e3"\nf: "2024-01-01"\ng: "0x10"\nh: ".5"\n',
  );
});
