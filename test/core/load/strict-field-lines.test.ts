// locateFieldLines: the line of a field's key, found again in the file's text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PathStep } from '../../../src/core/load/schema/find-unknown-fields.js';
import { locateFieldLines } from '../../../src/core/load/schema/locate-field-lines.js';

const text = [
  '# a comment before the first document', // 1
  'apiVersion: v1', // 2
  'kind: ConfigMap', // 3
  'metadata:', // 4
  '  name: a', // 5
  '  labels: {app: web, "example.com/tier": gold}', // 6
  'data:', // 7
  '  list:', // 8
  '  - name: one', // 9
  '    value: 1', // 10
  '  - name: two', // 11
  '    nested:', // 12
  '      deep: true', // 13
  '  flow: [1, {k: v, j: w}]', // 14
  '  empty:', // 15
  '  text: |', // 16
  '    several', // 17
  '    lines', // 18
  '  after: 3', // 19
  '---', // 20
  '---', // 21
  'base: &base {shared: 1}', // 22
  'merged:', // 23
  '  <<: *base', // 24
  '  own: 2', // 25
].join('\n');

const f = (field: string): PathStep => ({ field });
const i = (index: number): PathStep => ({ index });
const k = (key: string): PathStep => ({ key });

const rows: { name: string; given: { index: number; steps: PathStep[] }; want: number | undefined }[] = [
  { name: 'A top-level field after a comment.', given: { index: 0, steps: [f('kind')] }, want: 3 },
  {
    name: 'A quoted key of a flow mapping.',
    given: { index: 0, steps: [f('metadata'), f('labels'), k('example.com/tier')] },
    want: 6,
  },
  {
    name: 'A field of a list item in a block sequence.',
    given: { index: 0, steps: [f('data'), f('list'), i(0), f('value')] },
    want: 10,
  },
  {
    name: 'A field nested below the second list item.',
    given: { index: 0, steps: [f('data'), f('list'), i(1), f('nested'), f('deep')] },
    want: 13,
  },
  {
    name: 'A key of a mapping inside a flow sequence.',
    given: { index: 0, steps: [f('data'), f('flow'), i(1), f('j')] },
    want: 14,
  },
  { name: 'A field with an empty value.', given: { index: 0, steps: [f('data'), f('empty')] }, want: 15 },
  { name: 'A field after a block scalar.', given: { index: 0, steps: [f('data'), f('after')] }, want: 19 },
  {
    name: 'A field of the third document, after an empty one.',
    given: { index: 2, steps: [f('merged'), f('own')] },
    want: 25,
  },
  {
    name: 'A field merged in through an alias is placed at the nearest key found (the mapping that merges it).',
    given: { index: 2, steps: [f('merged'), f('shared')] },
    want: 23,
  },
  {
    name: 'A document the text does not have has no line.',
    given: { index: 7, steps: [f('kind')] },
    want: undefined,
  },
];

for (const row of rows) {
  test(row.name, () => assert.deepEqual(locateFieldLines(text, [row.given]), [row.want]));
}

test('Text that does not parse gives no lines, so the caller falls back to the document line.', () => {
  assert.deepEqual(locateFieldLines('a: [unclosed', [{ index: 0, steps: [f('a')] }]), [undefined]);
});
