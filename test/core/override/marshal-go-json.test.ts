import assert from 'node:assert/strict';
import { test } from 'node:test';
import { marshalGoJson } from '../../../src/core/override/marshal-go-json.js';

const cases: { name: string; given: unknown; want: string }[] = [
  {
    name: 'JSON is compact and keeps the key order.',
    given: { b: 2, a: { x: [1, true, null] } },
    want: '{"b":2,"a":{"x":[1,true,null]}}',
  },
  {
    name: 'HTML characters are escaped as Go does.',
    given: { a: '<&>' },
    want: '{"a":"\\u003c\\u0026\\u003e"}',
  },
  {
    name: 'Line and paragraph separators are escaped as Go does.',
    given: ['\u2028\u2029'],
    want: '["\\u2028\\u2029"]',
  },
  {
    name: 'Other characters are written as they are.',
    given: { é: 'ü "q" \\ \n' },
    want: '{"é":"ü \\"q\\" \\\\ \\n"}',
  },
];

for (const { name, given, want } of cases) {
  test(name, () => {
    assert.equal(marshalGoJson(given), want);
  });
}
