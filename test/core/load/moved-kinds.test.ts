import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet } from '../../../src/core/load/load-fleet.js';
import { fileOf } from './documents.js';

const anObject = (apiVersion: string, kind: string, namespace?: string) => ({
  apiVersion,
  kind,
  metadata: namespace === undefined ? { name: 'x' } : { name: 'x', namespace },
});

// Each row: two apiVersions under which the API server keeps one and the same object.
const sameObject: { name: string; kind: string; first: string; second: string; namespaced: boolean }[] = [
  {
    name: 'apps/v1 and extensions/v1beta1 Deployment',
    kind: 'Deployment',
    first: 'apps/v1',
    second: 'extensions/v1beta1',
    namespaced: true,
  },
  {
    name: 'apps/v1 and apps/v1beta1 Deployment',
    kind: 'Deployment',
    first: 'apps/v1',
    second: 'apps/v1beta1',
    namespaced: true,
  },
  {
    name: 'extensions/v1beta1 and apps/v1beta2 DaemonSet',
    kind: 'DaemonSet',
    first: 'extensions/v1beta1',
    second: 'apps/v1beta2',
    namespaced: true,
  },
  {
    name: 'apps/v1 and extensions/v1beta1 ReplicaSet',
    kind: 'ReplicaSet',
    first: 'apps/v1',
    second: 'extensions/v1beta1',
    namespaced: true,
  },
  {
    name: 'networking.k8s.io/v1 and extensions/v1beta1 Ingress',
    kind: 'Ingress',
    first: 'networking.k8s.io/v1',
    second: 'extensions/v1beta1',
    namespaced: true,
  },
  {
    name: 'networking.k8s.io/v1 and extensions/v1beta1 NetworkPolicy',
    kind: 'NetworkPolicy',
    first: 'networking.k8s.io/v1',
    second: 'extensions/v1beta1',
    namespaced: true,
  },
  {
    name: 'policy/v1beta1 and extensions/v1beta1 PodSecurityPolicy',
    kind: 'PodSecurityPolicy',
    first: 'policy/v1beta1',
    second: 'extensions/v1beta1',
    namespaced: false,
  },
  {
    name: 'v1 and events.k8s.io/v1 Event',
    kind: 'Event',
    first: 'v1',
    second: 'events.k8s.io/v1',
    namespaced: true,
  },
];

for (const row of sameObject) {
  test(`${row.name} are one object: the second is a duplicate naming both places and both versions.`, () => {
    const ns = row.namespaced ? 'default' : undefined;
    const result = loadFleet([
      fileOf('a.yaml', anObject(row.first, row.kind, ns)),
      fileOf('b.yaml', anObject(row.second, row.kind, ns)),
    ]);
    assert.ok(!result.ok, 'the fleet must not load');
    const label = row.namespaced ? `${row.kind}/default/x` : `${row.kind}/x`;
    assert.deepEqual(
      result.errors.map((e) => [e.code, e.file, e.message]),
      [
        [
          'DuplicateIdentity',
          'b.yaml',
          `${label}: defined twice, at a.yaml#0 (line 1) as ${row.first} and at b.yaml#0 (line 1) as ${row.second}: the API server keeps both versions as one object`,
        ],
      ],
    );
  });
}

test('A kind of the same name in an unrelated group is another object.', () => {
  const result = loadFleet([
    fileOf('a.yaml', anObject('apps/v1', 'Deployment', 'default')),
    fileOf('b.yaml', anObject('example.com/v1', 'Deployment', 'default')),
    fileOf('c.yaml', anObject('extensions/v1beta1', 'Widget', 'default')),
    fileOf('d.yaml', anObject('example.com/v1', 'Widget', 'default')),
  ]);
  assert.ok(result.ok, JSON.stringify(!result.ok && result.errors));
  assert.equal(result.fleet.templates.length, 4);
});
