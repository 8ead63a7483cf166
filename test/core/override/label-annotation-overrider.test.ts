import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deepCopy, type KubeObject } from '../../../src/core/model/kube-object.js';
import type { LabelAnnotationOverrider } from '../../../src/core/model/override-policy.js';
import { applyLabelAnnotationOverrider } from '../../../src/core/override/label-annotation-overrider.js';

function anObject(meta: {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default', ...meta } };
}

const cases: {
  name: string;
  given: { labels?: Record<string, string>; overrider: LabelAnnotationOverrider };
  want: Record<string, string> | undefined;
}[] = [
  {
    name: 'Add adds new keys.',
    given: { labels: { a: '1' }, overrider: { operator: 'add', value: { b: '2' } } },
    want: { a: '1', b: '2' },
  },
  {
    name: 'Add overwrites an existing key.',
    given: { labels: { a: '1' }, overrider: { operator: 'add', value: { a: '9' } } },
    want: { a: '9' },
  },
  {
    name: 'Add creates the map when the object has none.',
    given: { overrider: { operator: 'add', value: { 'example.com/team': 'x' } } },
    want: { 'example.com/team': 'x' },
  },
  {
    name: 'Add with no values does not create the map.',
    given: { overrider: { operator: 'add', value: {} } },
    want: undefined,
  },
  {
    name: 'Replace changes existing keys and silently skips missing ones.',
    given: {
      labels: { a: '1', 'x/y': '2' },
      overrider: { operator: 'replace', value: { 'x/y': '3', b: '4' } },
    },
    want: { a: '1', 'x/y': '3' },
  },
  {
    name: 'Replace on an object without the map does nothing.',
    given: { overrider: { operator: 'replace', value: { a: '1' } } },
    want: undefined,
  },
  {
    name: 'Remove deletes existing keys and silently skips missing ones.',
    given: { labels: { a: '1', 'x/y': '2' }, overrider: { operator: 'remove', value: { 'x/y': '', b: '' } } },
    want: { a: '1' },
  },
];

for (const field of ['labels', 'annotations'] as const) {
  for (const { name, given, want } of cases) {
    test(`${field}: ${name}`, () => {
      const object = anObject(given.labels ? { [field]: given.labels } : {});
      const before = deepCopy(object);
      const got = applyLabelAnnotationOverrider(object, given.overrider, field);
      assert.ok(got.ok, got.ok ? '' : got.error);
      assert.deepEqual(got.object.metadata[field], want);
      const other = field === 'labels' ? 'annotations' : 'labels';
      assert.equal(got.object.metadata[other], undefined, `${other} are not touched`);
      assert.deepEqual(object, before, 'the template is not changed');
    });
  }
}
