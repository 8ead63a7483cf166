import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet } from '../../../src/core/load/load-fleet.js';
import { freshSnapshot } from '../../../src/core/model/snapshot.js';
import { renderFleet } from '../../../src/core/render/render-fleet.js';
import { formatDiagnostic } from '../../../src/core/model/diagnostic.js';

const clusters = ['c1', 'c2']
  .map(
    (c) =>
      `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: ${c}}\nspec: {syncMode: Pull}\n`,
  )
  .join('---\n');
const configMap =
  'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web, namespace: default}\ndata: {k: v}\n';
const policy = (placement: string) =>
  `apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: web, namespace: default}\n` +
  `spec:\n  resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]\n  placement: ${placement}\n`;
const override = (clusterNames: string) =>
  `apiVersion: policy.karmada.io/v1alpha1\nkind: OverridePolicy\nmetadata: {name: tweak, namespace: default}\n` +
  `spec:\n  overrideRules:\n  - targetCluster: {clusterNames: ${clusterNames}}\n` +
  `    overriders: {labelsOverrider: [{operator: add, value: {a: b}}]}\n`;

/** Renders a fleet of c1, c2, one ConfigMap and the policies; returns its diagnostics as text. */
function diagnosticsOf(...policies: string[]): string[] {
  const loaded = loadFleet([
    { path: 'clusters.yaml', content: clusters },
    { path: 'apps.yaml', content: [configMap, ...policies].join('---\n') },
  ]);
  assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.errors));
  return renderFleet(freshSnapshot(loaded.fleet)).diagnostics.map(formatDiagnostic);
}

const rows: { name: string; given: string[]; want: string[] }[] = [
  {
    name: 'A policy naming only registered clusters gives no warning.',
    given: [policy('{clusterAffinity: {clusterNames: [c1, c2]}}')],
    want: [],
  },
  {
    name: 'A policy naming a registered and an unregistered cluster warns, naming the policy, its file and the cluster.',
    given: [policy('{clusterAffinity: {clusterNames: [c1, ghost]}}')],
    want: [
      'warning: PropagationPolicy/default/web: spec.placement.clusterAffinity.clusterNames: "ghost" is not a registered cluster (no Cluster of that name in the fleet), at apps.yaml#1 (line 6)',
    ],
  },
  {
    name: 'A policy naming only an unregistered cluster warns, and the no-fit error says the cluster is not registered.',
    given: [policy('{clusterAffinity: {clusterNames: [ghost]}}')],
    want: [
      'warning: PropagationPolicy/default/web: spec.placement.clusterAffinity.clusterNames: "ghost" is not a registered cluster (no Cluster of that name in the fleet), at apps.yaml#1 (line 6)',
      'error: ConfigMap/default/web: 0/2 clusters are available: c1: not in clusterAffinity.clusterNames; c2: not in clusterAffinity.clusterNames; ghost: not a registered cluster',
    ],
  },
  {
    name: 'An unregistered cluster in a clusterAffinities term is named with the term.',
    given: [
      policy(
        '{clusterAffinities: [{affinityName: main, clusterNames: [c1]}, {affinityName: backup, clusterNames: [dr]}]}',
      ),
    ],
    want: [
      'warning: PropagationPolicy/default/web: spec.placement.clusterAffinities[1] (backup).clusterNames: "dr" is not a registered cluster (no Cluster of that name in the fleet), at apps.yaml#1 (line 6)',
    ],
  },
  {
    name: "An unregistered cluster in an override rule's targetCluster warns too.",
    given: [policy('{clusterAffinity: {clusterNames: [c1]}}'), override('[c1, gone]')],
    want: [
      'warning: OverridePolicy/default/tweak: spec.overrideRules[0].targetCluster.clusterNames: "gone" is not a registered cluster (no Cluster of that name in the fleet), at apps.yaml#2 (line 13)',
    ],
  },
];

for (const row of rows) {
  test(row.name, () => {
    assert.deepEqual(diagnosticsOf(...row.given), row.want);
  });
}
