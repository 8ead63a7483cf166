import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deepCopy, type KubeObject } from '../../../src/core/model/kube-object.js';
import type { FieldOverrider } from '../../../src/core/model/override-policy.js';
import { applyFieldOverrider } from '../../../src/core/override/field-overrider.js';
import { aConfigMap } from '../builders.js';

const cases: {
  name: string;
  given: { data: Record<string, string>; overrider: FieldOverrider };
  want: string;
}[] = [
  {
    // Karmada's own test (overridemanager_test.go Test_overrideManagerImpl_ApplyJSONOverridePolicies_JSON).
    name: 'A JSON field is patched and written back compact.',
    given: {
      data: { 'test.json': '{"key":{"key1":"value"}}' },
      overrider: {
        fieldPath: '/data/test.json',
        json: [{ subPath: '/key/key1', operator: 'replace', value: 'updated_value' }],
      },
    },
    want: '{"key":{"key1":"updated_value"}}',
  },
  {
    name: 'A pretty-printed JSON field comes back compact, keys in document order.',
    given: {
      data: { 'c.json': '{\n  "b": [1, 2],\n  "a": {"c": true}\n}\n' },
      overrider: {
        fieldPath: '/data/c.json',
        json: [{ subPath: '/d', operator: 'add', value: { z: 1, a: [] } }],
      },
    },
    want: '{"b":[1,2],"a":{"c":true},"d":{"z":1,"a":[]}}',
  },
  {
    // Karmada's own test (Test_overrideManagerImpl_ApplyFieldOverriderPolicies_YAML).
    name: 'A YAML field is patched and written back as YAML.',
    given: {
      data: { 'test.yaml': '\nkey: \n  key1: value\n' },
      overrider: {
        fieldPath: '/data/test.yaml',
        yaml: [{ subPath: '/key/key1', operator: 'replace', value: 'updated_value' }],
      },
    },
    want: 'key:\n  key1: updated_value\n',
  },
  {
    name: 'Several YAML operations apply in order, and keys come back sorted.',
    given: {
      data: { 'db.yaml': 'port: 5432\nhost: db\nreplicas:\n  - a\n' },
      overrider: {
        fieldPath: '/data/db.yaml',
        yaml: [
          { subPath: '/host', operator: 'replace', value: 'db.eu' },
          { subPath: '/replicas/-', operator: 'add', value: 'b' },
          { subPath: '/port', operator: 'remove' },
        ],
      },
    },
    want: 'host: db.eu\nreplicas:\n- a\n- b\n',
  },
  {
    name: 'A YAML list document can be patched.',
    given: {
      data: { 'l.yaml': '- a\n- b\n' },
      overrider: { fieldPath: '/data/l.yaml', yaml: [{ subPath: '/0', operator: 'remove' }] },
    },
    want: '- b\n',
  },
  {
    name: 'An escaped fieldPath names a key with a slash.',
    given: {
      data: { 'a/b.json': '{"x":1}' },
      overrider: { fieldPath: '/data/a~1b.json', json: [{ subPath: '/x', operator: 'replace', value: 2 }] },
    },
    want: '{"x":2}',
  },
  {
    name: 'An empty JSON field is left empty, as evanphx/json-patch returns an empty document as it is.',
    given: {
      data: { 'e.json': '' },
      overrider: { fieldPath: '/data/e.json', json: [{ subPath: '/x', operator: 'add', value: 1 }] },
    },
    want: '',
  },
];

for (const { name, given, want } of cases) {
  test(name, () => {
    const object = aConfigMap('settings', given.data);
    const before = deepCopy(object);
    const got = applyFieldOverrider(object, given.overrider);
    assert.ok(got.ok, got.ok ? '' : got.error);
    const data = got.object.data as Record<string, string>;
    assert.equal(data[Object.keys(given.data)[0] ?? ''], want);
    assert.deepEqual(object, before, 'the template is not changed');
  });
}

const failures: { name: string; given: { object: KubeObject; overrider: FieldOverrider }; want: string }[] = [
  {
    name: 'A fieldPath whose value is not a string fails.',
    given: {
      object: { ...aConfigMap('c'), spec: { replicas: 2 } },
      overrider: { fieldPath: '/spec/replicas', json: [{ subPath: '/a', operator: 'add', value: 1 }] },
    },
    want: 'fieldPath /spec/replicas: the value is a number, not a string',
  },
  {
    name: 'A fieldPath that is not there fails.',
    given: {
      object: aConfigMap('c', { a: '{}' }),
      overrider: { fieldPath: '/data/b', json: [{ subPath: '/a', operator: 'add', value: 1 }] },
    },
    want: 'fieldPath /data/b: path not found',
  },
  {
    name: 'A fieldPath without a leading slash fails.',
    given: {
      object: aConfigMap('c', { a: '{}' }),
      overrider: { fieldPath: 'data/a', json: [{ subPath: '/a', operator: 'add', value: 1 }] },
    },
    want: 'fieldPath "data/a" must start with "/"',
  },
  {
    name: 'Invalid JSON fails.',
    given: {
      object: aConfigMap('c', { a: '{nope' }),
      overrider: { fieldPath: '/data/a', json: [{ subPath: '/a', operator: 'add', value: 1 }] },
    },
    want: 'fieldPath /data/a: invalid JSON: ',
  },
  {
    name: 'Invalid YAML fails.',
    given: {
      object: aConfigMap('c', { a: 'a: [' }),
      overrider: { fieldPath: '/data/a', yaml: [{ subPath: '/a', operator: 'add', value: 1 }] },
    },
    want: 'fieldPath /data/a: invalid YAML: ',
  },
  {
    name: 'A YAML scalar document cannot be patched.',
    given: {
      object: aConfigMap('c', { a: 'just a string' }),
      overrider: { fieldPath: '/data/a', yaml: [{ subPath: '/a', operator: 'add', value: 1 }] },
    },
    want: 'fieldPath /data/a: the YAML document is a string, not a map or a list',
  },
  {
    name: 'An empty YAML document cannot be patched.',
    given: {
      object: aConfigMap('c', { a: '' }),
      overrider: { fieldPath: '/data/a', yaml: [{ subPath: '/a', operator: 'add', value: 1 }] },
    },
    want: 'fieldPath /data/a: the YAML document is empty, not a map or a list',
  },
  {
    name: 'A failing sub-operation names its index and path.',
    given: {
      object: aConfigMap('c', { a: 'x: 1\n' }),
      overrider: {
        fieldPath: '/data/a',
        yaml: [
          { subPath: '/x', operator: 'replace', value: 2 },
          { subPath: '/y', operator: 'replace', value: 3 },
        ],
      },
    },
    want: 'fieldPath /data/a: yaml[1]: replace /y: path not found',
  },
  {
    name: 'Both json and yaml operations fail.',
    given: {
      object: aConfigMap('c', { a: '{}' }),
      overrider: {
        fieldPath: '/data/a',
        json: [{ subPath: '/a', operator: 'add', value: 1 }],
        yaml: [{ subPath: '/a', operator: 'add', value: 1 }],
      },
    },
    want: 'fieldPath /data/a: set either json or yaml operations, not both',
  },
  {
    name: 'Neither json nor yaml operations fail.',
    given: { object: aConfigMap('c', { a: '{}' }), overrider: { fieldPath: '/data/a' } },
    want: 'fieldPath /data/a: set json or yaml operations',
  },
];

for (const { name, given, want } of failures) {
  test(name, () => {
    const got = applyFieldOverrider(given.object, given.overrider);
    assert.equal(got.ok, false);
    if (got.ok) return;
    if (want.endsWith(': ')) assert.ok(got.error.startsWith(want), got.error);
    else assert.equal(got.error, want);
  });
}
