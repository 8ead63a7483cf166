import assert from 'node:assert/strict';
import { test } from 'node:test';
import yaml from 'js-yaml';
import { compareGoYamlKeys, marshalGoYaml } from '../../../src/core/override/marshal-go-yaml.js';

// The wanted texts are what sigs.k8s.io/yaml JSONToYAML (go-yaml v2, as Karmada uses it) prints for
// the same values, except where a comment says otherwise.
const cases: { name: string; given: unknown; want: string }[] = [
  {
    name: 'Maps are sorted, nested by two spaces, and list items sit at their key.',
    given: { key: { list: ['a', 'b'], empty: {}, emptyl: [], nested: [{ x: 1, y: [1, 2] }] } },
    want: 'key:\n  empty: {}\n  emptyl: []\n  list:\n  - a\n  - b\n  nested:\n  - x: 1\n    "y":\n    - 1\n    - 2\n',
  },
  {
    name: 'Keys sort as go-yaml sorts them: digit runs by value, non-letters before letters.',
    given: { b10: 1, b9: 2, B: 3, a: 4, _x: 5, '1': 6, '10': 7, '2': 8, 'x-1': 9, x_1: 10, xA: 11, xa: 12 },
    want: '_x: 5\n"1": 6\n"2": 8\n"10": 7\nB: 3\na: 4\nb9: 2\nb10: 1\nx-1: 9\nx_1: 10\nxA: 11\nxa: 12\n',
  },
  {
    name: 'Strings another YAML reader would read as something else are double-quoted.',
    given: [
      'true',
      'null',
      '~',
      '',
      '1',
      '1.5',
      'yes',
      'NO',
      'y',
      '0o17',
      '0x1F',
      '1_000',
      '+1',
      '.5',
      '1e3',
      '1:20',
      '2024-01-01',
    ],
    want: '- "true"\n- "null"\n- "~"\n- ""\n- "1"\n- "1.5"\n- "yes"\n- "NO"\n- "y"\n- "0o17"\n- "0x1F"\n- "1_000"\n- "+1"\n- ".5"\n- "1e3"\n- "1:20"\n- "2024-01-01"\n',
  },
  {
    name: 'Plain strings stay plain.',
    given: ["x'y", 'é', 'a,b', '<<', 'http://example.com/a?b=c'],
    want: "- x'y\n- é\n- a,b\n- <<\n- http://example.com/a?b=c\n",
  },
  {
    // go-yaml single-quotes these (' lead', 'a: b'); the meaning is the same.
    name: 'Strings that need quotes for their syntax are double-quoted.',
    given: [' lead', 'a: b', '#c', '- x'],
    want: '- " lead"\n- "a: b"\n- "#c"\n- "- x"\n',
  },
  {
    name: 'Multi-line strings are literal blocks.',
    given: { a: 'multi\nline\n', b: 'trailing\n\n', c: '  leading\nx', d: 'line1\nline2' },
    want: 'a: |\n  multi\n  line\nb: |+\n  trailing\n\nc: |2-\n    leading\n  x\nd: |-\n  line1\n  line2\n',
  },
  {
    name: 'Floats are spelled as Go spells them.',
    given: { a: 1234567.5, b: 0.0001, c: 123456.7, d: 1e21, f: 0.00001, g: 100000.5, h: 1000000, i: 1.5e-10 },
    want: 'a: 1.2345675e+06\nb: 0.0001\nc: 123456.7\nd: 1e+21\nf: 1e-05\ng: 100000.5\nh: 1000000\ni: 1.5e-10\n',
  },
  {
    name: 'A list of lists nests with dashes.',
    given: [['a', 'b'], [], { k: 'v' }],
    want: '- - a\n  - b\n- []\n- k: v\n',
  },
  {
    // go-yaml folds long plain strings at 80 columns; not folding reads back the same.
    name: 'Long strings are not folded.',
    given: { long: `${'word '.repeat(30)}end` },
    want: `long: ${'word '.repeat(30)}end\n`,
  },
];

for (const { name, given, want } of cases) {
  test(name, () => {
    const got = marshalGoYaml(given);
    assert.equal(got, want);
    assert.deepEqual(yaml.load(got), given, 'reads back as the same value');
  });
}

test('The same map object twice is written out twice, without anchors.', () => {
  const shared = { a: 1 };
  assert.equal(marshalGoYaml({ x: shared, y: shared }), 'x:\n  a: 1\n"y":\n  a: 1\n');
});

const keyOrder: { name: string; given: [string, string]; want: 'before' | 'after' }[] = [
  { name: 'b9 sorts before b10.', given: ['b9', 'b10'], want: 'before' },
  { name: 'A capital sorts before a small letter.', given: ['B', 'a'], want: 'before' },
  { name: 'An underscore sorts before a letter.', given: ['x_1', 'xA'], want: 'before' },
  { name: 'A dash sorts before an underscore.', given: ['x-1', 'x_1'], want: 'before' },
  { name: 'A shorter prefix sorts first.', given: ['ab', 'a'], want: 'after' },
  { name: '"a01" sorts after "a1" (same value, longer run).', given: ['a01', 'a1'], want: 'after' },
];

for (const { name, given, want } of keyOrder) {
  test(name, () => {
    const got = compareGoYamlKeys(given[0], given[1]);
    assert.equal(got < 0 ? 'before' : 'after', want);
    assert.equal(Math.sign(compareGoYamlKeys(given[1], given[0])), -Math.sign(got));
  });
}
