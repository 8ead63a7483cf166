// A cluster commit that changes imported or dispatched endpoints names the exporting cluster and
// Service that caused it (Gitfleet-Endpoints-From), read from the slices it touches: the
// provision-cluster annotation (Karmada's, pkg/util/constants.go EndpointSliceProvisionClusterAnnotation)
// and the service-name label (derived-<name> for an import, names.GenerateDerivedServiceName).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emitYaml } from '../../../src/core/format/emit-yaml.js';
import { renderCommitMessage } from '../../../src/core/publish/commit-message.js';
import { parseTrailers } from '../../../src/core/publish/commit-trailers.js';
import { endpointsFromOf } from '../../../src/core/publish/endpoints-from.js';

function aSlice(name: string, cluster: string, service: string, managedBy: string): string {
  return emitYaml({
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name,
      namespace: 'shop',
      labels: { 'kubernetes.io/service-name': service, 'endpointslice.kubernetes.io/managed-by': managedBy },
      annotations: { 'endpointslice.karmada.io/provision-cluster': cluster },
    },
    addressType: 'IPv4',
    endpoints: [],
  });
}

const rows: { name: string; given: string[]; want: string[] }[] = [
  {
    name: 'an imported slice names its cluster and the imported Service, not the derived one',
    given: [
      aSlice('imported-member1-web-a', 'member1', 'derived-web', 'endpointslice-controller.karmada.io'),
    ],
    want: ['member1 shop/web'],
  },
  {
    name: 'a dispatched slice names its provider and the Service',
    given: [aSlice('member3-web-b', 'member3', 'web', 'endpointslice-dispatch-controller.karmada.io')],
    want: ['member3 shop/web'],
  },
  {
    name: 'two slices of one cluster and Service are one trailer; several are sorted',
    given: [
      aSlice('member3-web-b', 'member3', 'web', 'endpointslice-dispatch-controller.karmada.io'),
      aSlice('imported-member1-web-a', 'member1', 'derived-web', 'endpointslice-controller.karmada.io'),
      aSlice('imported-member1-web-c', 'member1', 'derived-web', 'endpointslice-controller.karmada.io'),
    ],
    want: ['member1 shop/web', 'member3 shop/web'],
  },
  {
    name: 'a slice the member manages itself, or any other object, names nothing',
    given: [
      aSlice('web-x', 'member1', 'web', 'endpointslice-controller.k8s.io'),
      emitYaml({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'shop' } }),
      'not: [yaml',
    ],
    want: [],
  },
];

for (const row of rows) {
  test(`endpoints from: ${row.name}`, () => assert.deepEqual(endpointsFromOf(row.given), row.want));
}

test('a render commit carries one Gitfleet-Endpoints-From trailer per exporting cluster and Service', () => {
  const message = renderCommitMessage({
    sourceCommit: '1a2b3c4d5e6f',
    sourceRef: 'refs/heads/main',
    sourceSubject: 'scale web',
    changes: [{ path: 'shop/EndpointSlice.discovery.k8s.io/imported-member1-web-a.yaml', change: 'changed' }],
    endpointsFrom: ['member1 shop/web', 'member3 shop/web'],
  });
  assert.deepEqual(parseTrailers(message).get('Gitfleet-Endpoints-From'), [
    'member1 shop/web',
    'member3 shop/web',
  ]);
  assert.deepEqual(parseTrailers(message).get('Gitfleet-Source-Commit'), ['1a2b3c4d5e6f']);
});
