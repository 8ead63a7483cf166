// A small fleet with ValidatingAdmissionPolicies, for the admission tests: two clusters, a
// Deployment whose replicas an OverridePolicy raises to 5 on west only, and a policy that denies
// more than 3 replicas, placed on both clusters. Files by path, changed per test.
import assert from 'node:assert/strict';
import { loadFleet, type SourceFile } from '../../../src/core/load/load-fleet.js';
import { freshSnapshot } from '../../../src/core/model/snapshot.js';
import { renderFleet, type RenderOptions, type RenderResult } from '../../../src/core/render/render-fleet.js';

export const clustersYaml = ['east', 'west']
  .map(
    (n) =>
      `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: ${n}, labels: {region: ${n}}}\n`,
  )
  .join('---\n');

export const placementYaml = `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: everything}
spec:
  resourceSelectors:
    - {apiVersion: v1, kind: Namespace}
    - {apiVersion: v1, kind: ConfigMap}
    - {apiVersion: apps/v1, kind: Deployment}
    - {apiVersion: admissionregistration.k8s.io/v1, kind: ValidatingAdmissionPolicy}
    - {apiVersion: admissionregistration.k8s.io/v1, kind: ValidatingAdmissionPolicyBinding}
  placement: {clusterAffinity: {clusterNames: [east, west]}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterOverridePolicy
metadata: {name: west-scale}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  overrideRules:
    - targetCluster: {clusterNames: [west]}
      overriders:
        plaintext: [{path: /spec/replicas, operator: replace, value: 5}]
`;

export const namespaceYaml = `apiVersion: v1
kind: Namespace
metadata: {name: shop, labels: {team: shop}}
`;

/** A Deployment of the shop namespace with its replicas and image. */
export function deploymentYaml(name: string, replicas: number, image = 'nginx:1.27'): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: shop, labels: {app: ${name}}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers: [{name: main, image: '${image}'}]
`;
}

/** A policy on Deployments with one validation, and its binding with the actions. */
export function policyYaml(opts: {
  name: string;
  expression: string;
  message?: string;
  messageExpression?: string;
  actions?: string[];
  extra?: string;
  bindingExtra?: string;
  annotations?: string;
}): string {
  const { name } = opts;
  const validation = [
    `expression: ${JSON.stringify(opts.expression)}`,
    ...(opts.message ? [`message: ${JSON.stringify(opts.message)}`] : []),
    ...(opts.messageExpression ? [`messageExpression: ${JSON.stringify(opts.messageExpression)}`] : []),
  ].join('\n        ');
  return `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: ${name}${opts.annotations ? `, annotations: {${opts.annotations}}` : ''}}
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
      - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
${opts.extra ?? ''}  validations:
      - ${validation}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: ${name}-binding${opts.annotations ? `, annotations: {${opts.annotations}}` : ''}}
spec:
  policyName: ${name}
  validationActions: [${(opts.actions ?? ['Deny']).join(', ')}]
${opts.bindingExtra ?? ''}`;
}

/** A ConfigMap with data (and labels). */
export function configMapYaml(
  name: string,
  namespace: string,
  data: Record<string, string>,
  labels: Record<string, string> = {},
): string {
  return `apiVersion: v1
kind: ConfigMap
metadata: {name: ${name}, namespace: ${namespace}, labels: ${JSON.stringify(labels)}}
data: ${JSON.stringify(data)}
`;
}

/** The base fleet: web (2 replicas, 5 on west), api (1 replica) and the max-replicas policy. */
export function baseFleet(): Map<string, string> {
  return new Map([
    ['clusters.yaml', clustersYaml],
    ['placement.yaml', placementYaml],
    ['shop/namespace.yaml', namespaceYaml],
    ['shop/web.yaml', deploymentYaml('web', 2)],
    ['shop/api.yaml', deploymentYaml('api', 1)],
    [
      'policies/max-replicas.yaml',
      policyYaml({
        name: 'max-replicas',
        expression: 'object.spec.replicas <= 3',
        messageExpression: "'replicas ' + string(object.spec.replicas) + ' is more than 3'",
      }),
    ],
  ]);
}

export function filesOf(fleet: ReadonlyMap<string, string>): SourceFile[] {
  return [...fleet].map(([path, content]) => ({ path, content }));
}

/** Loads (asserting it loads) and renders a fleet. */
export function renderAdmissionFleet(
  fleet: ReadonlyMap<string, string>,
  options: RenderOptions = {},
): RenderResult {
  const loaded = loadFleet(filesOf(fleet));
  assert.ok(loaded.ok, loaded.ok ? '' : JSON.stringify(loaded.errors, null, 1));
  return renderFleet(freshSnapshot(loaded.fleet), options);
}

/** The admission diagnostics as `code subject @cluster: message` lines, sorted. */
export function admissionLines(result: RenderResult): string[] {
  return result.diagnostics
    .filter((d) => d.code.startsWith('Admission'))
    .map((d) => `${d.code} ${d.subject} @${d.cluster ?? ''}: ${d.message}`)
    .sort();
}
