// A small fleet for the FederatedResourceQuota tests: three clusters, a namespace `shop`, and
// helpers to write quotas and workloads as YAML.
import assert from 'node:assert/strict';
import { loadFleet, type SourceFile } from '../../../src/core/load/load-fleet.js';
import { freshSnapshot, type Snapshot } from '../../../src/core/model/snapshot.js';
import { renderFleet, type RenderResult } from '../../../src/core/render/render-fleet.js';

export const clustersYaml = ['m1', 'm2', 'm3']
  .map((n) => `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: ${n}}\n`)
  .join('---\n');

/** A FederatedResourceQuota of `shop` with its overall and static assignments (cluster → hard). */
export function quotaYaml(opts: {
  name?: string;
  namespace?: string;
  overall: Record<string, string>;
  assignments?: [string, Record<string, string>][];
}): string {
  const list = (r: Record<string, string>) =>
    `{${Object.entries(r)
      .map(([k, v]) => `${k}: "${v}"`)
      .join(', ')}}`;
  const assignments = (opts.assignments ?? [])
    .map(([cluster, hard]) => `    - {clusterName: ${JSON.stringify(cluster)}, hard: ${list(hard)}}\n`)
    .join('');
  return `apiVersion: policy.karmada.io/v1alpha1
kind: FederatedResourceQuota
metadata: {name: ${opts.name ?? 'team-quota'}, namespace: ${opts.namespace ?? 'shop'}}
spec:
  overall: ${list(opts.overall)}
${assignments ? `  staticAssignments:\n${assignments}` : ''}`;
}

/** A Deployment of `shop` with `replicas` pods requesting `requests` each. */
export function deploymentYaml(name: string, replicas: number, requests: Record<string, string>): string {
  const list = Object.entries(requests)
    .map(([k, v]) => `${k}: "${v}"`)
    .join(', ');
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: shop}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers: [{name: main, image: nginx, resources: {requests: {${list}}}}]
`;
}

/** A PropagationPolicy placing the named Deployment of `shop` on clusters, Duplicated or Divided by weights. */
export function placementYaml(name: string, clusters: string[], divided?: number[]): string {
  const scheduling = divided
    ? `    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList: [${clusters.map((c, i) => `{targetCluster: {clusterNames: [${c}]}, weight: ${divided[i]}}`).join(', ')}]
`
    : '';
  return `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: ${name}, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: ${name}}]
  placement:
    clusterAffinity: {clusterNames: [${clusters.join(', ')}]}
${scheduling}`;
}

export function filesOf(fleet: ReadonlyMap<string, string>): SourceFile[] {
  return [...fleet].map(([path, content]) => ({ path, content }));
}

/** Loads (asserting it loads) and renders a fleet, from a fresh snapshot or one made from it. */
export function renderQuotaFleet(
  fleet: ReadonlyMap<string, string>,
  snapshotOf: (fresh: Snapshot) => Snapshot = (s) => s,
): RenderResult {
  const loaded = loadFleet(filesOf(fleet));
  assert.ok(loaded.ok, loaded.ok ? '' : JSON.stringify(loaded.errors, null, 1));
  return renderFleet(snapshotOf(freshSnapshot(loaded.fleet)));
}

/** The load errors of a fleet, as messages. */
export function loadErrors(fleet: ReadonlyMap<string, string>): string[] {
  const loaded = loadFleet(filesOf(fleet));
  return loaded.ok ? [] : loaded.errors.map((e) => `${e.code} ${e.message}`);
}
