// Which Services the hub asks each cluster's agent to export for CrossCluster
// MultiClusterServices: the providerClusters, or every registered cluster when the list is
// empty (Karmada's pkg/util/helper/mcs.go GetProviderClusters), and the exports file that
// carries them in a cluster branch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  branchExportsText,
  parseBranchExports,
  providedServices,
} from '../../../src/core/mcs/provider-exports.js';
import { clusterDoc, fileOf, mustLoad } from '../load/documents.js';

const mcs = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'networking.karmada.io/v1alpha1',
  kind: 'MultiClusterService',
  metadata: { name, namespace: 'shop' },
  spec,
});

const fleetOf = (...objects: unknown[]) =>
  mustLoad([
    fileOf('clusters.yaml', clusterDoc('m1'), clusterDoc('m2'), clusterDoc('m3')),
    fileOf('mcs.yaml', ...objects),
  ]);

const cases: { name: string; objects: unknown[]; want: Record<string, string[]> }[] = [
  {
    name: 'named providers export the Service; unregistered names are dropped',
    objects: [mcs('web', { types: ['CrossCluster'], providerClusters: [{ name: 'm1' }, { name: 'gone' }] })],
    want: { m1: ['shop/web'] },
  },
  {
    name: 'no providerClusters means every registered cluster provides',
    objects: [mcs('web', { types: ['CrossCluster'] })],
    want: { m1: ['shop/web'], m2: ['shop/web'], m3: ['shop/web'] },
  },
  {
    name: 'a MultiClusterService without CrossCluster asks for nothing',
    objects: [mcs('web', { types: ['LoadBalancer'], providerClusters: [{ name: 'm1' }] })],
    want: {},
  },
  {
    name: 'several Services on one cluster are sorted',
    objects: [
      mcs('web', { types: ['CrossCluster'], providerClusters: [{ name: 'm2' }] }),
      mcs('api', { types: ['CrossCluster'], providerClusters: [{ name: 'm2' }] }),
    ],
    want: { m2: ['shop/api', 'shop/web'] },
  },
];

for (const c of cases) {
  test(`providedServices: ${c.name}`, () => {
    const got = providedServices(fleetOf(...c.objects));
    assert.deepEqual(
      Object.fromEntries(
        [...got].map(([cluster, list]) => [cluster, list.map((s) => `${s.namespace}/${s.name}`)]),
      ),
      c.want,
    );
  });
}

test('The exports file round-trips, is written empty once a cluster stops providing, and not at all before', () => {
  const text = branchExportsText([{ namespace: 'shop', name: 'web' }], false)!;
  assert.deepEqual(parseBranchExports(text), { services: [{ namespace: 'shop', name: 'web' }] });
  assert.equal(branchExportsText([], false), undefined);
  assert.deepEqual(parseBranchExports(branchExportsText([], true)!), { services: [] });
});

test('An exports file that is not an ExportList is refused with the reason, naming the file', () => {
  for (const text of ['kind: Other\n', 'kind: ExportList\nservices: [{name: 3}]\n', 'kind: [\n']) {
    const got = parseBranchExports(text);
    assert.ok('error' in got, text);
    assert.match(got.error, /^\.gitfleet\/exports\.yaml: /);
  }
});
