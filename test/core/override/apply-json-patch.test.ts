import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deepCopy } from '../../../src/core/model/kube-object.js';
import { applyJsonPatch, type JsonPatchOperation } from '../../../src/core/override/apply-json-patch.js';

// Each case was also run through github.com/evanphx/json-patch/v5 (the library Karmada patches
// with), which gave the same result or failed too.
const cases: {
  name: string;
  given: { doc: unknown; patch: JsonPatchOperation[] };
  want: { value: unknown } | { index: number; error: string };
}[] = [
  {
    name: 'Replace changes an existing key.',
    given: { doc: { a: 1 }, patch: [{ op: 'replace', path: '/a', value: 2 }] },
    want: { value: { a: 2 } },
  },
  {
    name: 'Replace of a missing key fails.',
    given: { doc: { a: 1 }, patch: [{ op: 'replace', path: '/missing', value: 2 }] },
    want: { index: 0, error: 'replace /missing: path not found' },
  },
  {
    name: 'Remove of a missing key fails.',
    given: { doc: { a: 1 }, patch: [{ op: 'remove', path: '/missing' }] },
    want: { index: 0, error: 'remove /missing: path not found' },
  },
  {
    name: 'Add does not create missing parents.',
    given: { doc: { a: 1 }, patch: [{ op: 'add', path: '/x/y', value: 2 }] },
    want: { index: 0, error: 'add /x/y: path not found' },
  },
  {
    name: 'Add overwrites an existing key.',
    given: { doc: { a: 1 }, patch: [{ op: 'add', path: '/a', value: 'x' }] },
    want: { value: { a: 'x' } },
  },
  {
    name: 'Add at a list index inserts before it.',
    given: { doc: { a: [1, 2] }, patch: [{ op: 'add', path: '/a/1', value: 9 }] },
    want: { value: { a: [1, 9, 2] } },
  },
  {
    name: 'Add at the list length appends.',
    given: { doc: { a: [1, 2] }, patch: [{ op: 'add', path: '/a/2', value: 3 }] },
    want: { value: { a: [1, 2, 3] } },
  },
  {
    name: 'Add past the list length fails.',
    given: { doc: { a: [1, 2] }, patch: [{ op: 'add', path: '/a/3', value: 3 }] },
    want: { index: 0, error: 'add /a/3: index 3 is out of range (the list has 2 items)' },
  },
  {
    name: 'Add at "-" appends.',
    given: { doc: { a: [1, 2] }, patch: [{ op: 'add', path: '/a/-', value: 3 }] },
    want: { value: { a: [1, 2, 3] } },
  },
  {
    name: 'Add at -1 appends, as evanphx/json-patch counts negative indexes from the end.',
    given: { doc: { a: [1, 2] }, patch: [{ op: 'add', path: '/a/-1', value: 3 }] },
    want: { value: { a: [1, 2, 3] } },
  },
  {
    name: 'Replace at -1 changes the last item.',
    given: { doc: { a: [1, 2] }, patch: [{ op: 'replace', path: '/a/-1', value: 3 }] },
    want: { value: { a: [1, 3] } },
  },
  {
    name: 'Replace past the end of a list fails.',
    given: { doc: { a: [1, 2] }, patch: [{ op: 'replace', path: '/a/2', value: 3 }] },
    want: { index: 0, error: 'replace /a/2: index 2 is out of range (the list has 2 items)' },
  },
  {
    name: 'Remove past the end of a list fails.',
    given: { doc: { a: [1, 2] }, patch: [{ op: 'remove', path: '/a/5' }] },
    want: { index: 0, error: 'remove /a/5: index 5 is out of range (the list has 2 items)' },
  },
  {
    name: 'A list index must be a number.',
    given: { doc: { a: [1, 2] }, patch: [{ op: 'add', path: '/a/x', value: 3 }] },
    want: { index: 0, error: 'add /a/x: "x" is not a list index' },
  },
  {
    name: 'A key under a scalar is not found.',
    given: { doc: { a: 5 }, patch: [{ op: 'add', path: '/a/b', value: 3 }] },
    want: { index: 0, error: 'add /a/b: path not found' },
  },
  {
    name: 'A path must start with a slash.',
    given: { doc: { a: 5 }, patch: [{ op: 'add', path: 'a', value: 3 }] },
    want: { index: 0, error: 'add a: invalid path: a JSON pointer starts with "/"' },
  },
  {
    name: 'Add at the empty path replaces the whole document.',
    given: { doc: { a: 5 }, patch: [{ op: 'add', path: '', value: { z: 1 } }] },
    want: { value: { z: 1 } },
  },
  {
    name: 'An add without a value adds null, as Karmada sends one.',
    given: { doc: { a: 5 }, patch: [{ op: 'add', path: '/b' }] },
    want: { value: { a: 5, b: null } },
  },
  {
    name: 'Escaped keys name keys with "/" and "~".',
    given: {
      doc: { 'a/b': 5, 'c~d': 1 },
      patch: [
        { op: 'replace', path: '/a~1b', value: 6 },
        { op: 'remove', path: '/c~0d' },
      ],
    },
    want: { value: { 'a/b': 6 } },
  },
  {
    name: 'Operations apply in order and a failure names its index.',
    given: {
      doc: { a: 1 },
      patch: [
        { op: 'add', path: '/b', value: 2 },
        { op: 'remove', path: '/a' },
        { op: 'replace', path: '/a', value: 3 },
      ],
    },
    want: { index: 2, error: 'replace /a: path not found' },
  },
  {
    name: 'A "__proto__" key is plain data.',
    given: { doc: {}, patch: [{ op: 'add', path: '/__proto__', value: { polluted: true } }] },
    want: { value: JSON.parse('{"__proto__":{"polluted":true}}') as unknown },
  },
];

for (const { name, given, want } of cases) {
  test(name, () => {
    const before = deepCopy(given.doc);
    const got = applyJsonPatch(given.doc, given.patch);
    if ('value' in want) {
      assert.ok(got.ok, got.ok ? '' : got.error);
      assert.deepEqual(got.value, want.value);
    } else {
      assert.deepEqual(got, { ok: false, ...want });
    }
    assert.deepEqual(given.doc, before, 'the input is not changed');
  });
}

test('The patched document shares no values with the patch.', () => {
  const value = { list: [1] };
  const got = applyJsonPatch({}, [{ op: 'add', path: '/v', value }]);
  assert.ok(got.ok);
  value.list.push(2);
  assert.deepEqual(got.value, { v: { list: [1] } });
});
