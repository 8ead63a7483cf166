import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refKeyOfPath } from '../../../src/core/apply-plan/branch-path.js';
import { markOwned } from '../../../src/core/apply-plan/mark-owned.js';
import { refKey } from '../../../src/core/model/object-ref.js';
import { objectPath } from '../../../src/core/format/object-path.js';
import { aConfigMap } from '../builders.js';

test('refKeyOfPath reads the identity back from every kind of object path', () => {
  const refs = [
    { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' },
    { apiVersion: 'v1', kind: 'Namespace', namespace: '', name: 'shop' },
    {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      namespace: '',
      name: 'widgets.example.com',
    },
    { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name: 'a.b.c' },
  ];
  for (const ref of refs) assert.equal(refKeyOfPath(objectPath(ref)), refKey(ref), objectPath(ref));
});

test('refKeyOfPath ignores paths that are not object files', () => {
  for (const path of ['.gitfleet/tombstone.yaml', 'README.md', 'a/b/c/d.yaml', 'shop/ConfigMap/x.yml']) {
    assert.equal(refKeyOfPath(path), undefined, path);
  }
});

test('markOwned adds the ownership marker, cluster and fleet, to a copy', () => {
  const cm = aConfigMap('x');
  const marked = markOwned(cm, { cluster: 'member1', fleet: 'f1' });
  assert.equal(marked.metadata.labels?.['gitfleet.io/cluster'], 'member1');
  assert.equal(marked.metadata.labels?.['gitfleet.io/fleet'], 'f1');
  assert.equal(cm.metadata.labels, undefined, 'the original is untouched');
});
