// A small fleet with two tenants (team-a owns apps/a, team-b owns apps/b) and a platform folder,
// for the tenancy tests: files by path, changed per test.
import assert from 'node:assert/strict';
import { loadFleet, type SourceFile } from '../../../src/core/load/load-fleet.js';
import { freshSnapshot } from '../../../src/core/model/snapshot.js';
import { renderFleet, type RenderResult } from '../../../src/core/render/render-fleet.js';

export const clustersYaml = ['east', 'west', 'lab']
  .map(
    (n) =>
      `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: ${n}, labels: {env: ${n === 'lab' ? 'test' : 'prod'}}}\n`,
  )
  .join('---\n');

export const tenantsYaml = `apiVersion: gitfleet.io/v1alpha1
kind: Tenant
metadata: {name: team-a}
spec:
  paths: [apps/a/]
  namespaces: [shop]
  clusters: {names: [east]}
  impersonate: {serviceAccount: shop/gitfleet-tenant}
---
apiVersion: gitfleet.io/v1alpha1
kind: Tenant
metadata: {name: team-b}
spec:
  paths: ['apps/b/**']
  namespaces: [blog]
  clusters: {selector: {matchLabels: {env: prod}}}
  deniedKinds: [{group: '', kind: Secret}]
`;

/** A PropagationPolicy placing `kinds` of `namespace` on `clusters`. */
export function policyYaml(
  name: string,
  namespace: string,
  clusters: string[],
  kinds = ['ConfigMap'],
): string {
  const selectors = kinds.map(
    (k) => `{apiVersion: ${k.startsWith('Role') ? 'rbac.authorization.k8s.io/v1' : 'v1'}, kind: ${k}}`,
  );
  return `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: ${name}, namespace: ${namespace}}
spec:
  resourceSelectors: [${selectors.join(', ')}]
  placement: {clusterAffinity: {clusterNames: [${clusters.join(', ')}]}}
`;
}

export const configMapYaml = (name: string, namespace: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}, namespace: ${namespace}}\ndata: {k: v}\n`;

/** The base fleet: each tenant places a ConfigMap on its own clusters. */
export function baseFleet(): Map<string, string> {
  return new Map([
    ['platform/clusters.yaml', clustersYaml],
    ['platform/tenants.yaml', tenantsYaml],
    ['apps/a/config.yaml', configMapYaml('a', 'shop')],
    ['apps/a/policy.yaml', policyYaml('a', 'shop', ['east'])],
    ['apps/b/config.yaml', configMapYaml('b', 'blog')],
    ['apps/b/policy.yaml', policyYaml('b', 'blog', ['east', 'west'])],
  ]);
}

export function filesOf(fleet: ReadonlyMap<string, string>): SourceFile[] {
  return [...fleet].map(([path, content]) => ({ path, content }));
}

/** Loads (asserting it loads) and renders a fleet. */
export function renderTenantFleet(fleet: ReadonlyMap<string, string>): RenderResult {
  const loaded = loadFleet(filesOf(fleet));
  assert.ok(loaded.ok, loaded.ok ? '' : JSON.stringify(loaded.errors, null, 1));
  return renderFleet(freshSnapshot(loaded.fleet));
}

/** The error diagnostics as `code subject @cluster: message` lines. */
export function errorLines(result: RenderResult): string[] {
  return result.diagnostics
    .filter((d) => d.severity === 'error')
    .map((d) => `${d.code} ${d.subject} @${d.cluster ?? ''}: ${d.message}`);
}
