// Fleet-repo documents the end-to-end tests and the cluster benchmarks share.

/** A Cluster registration in Pull mode (an agent applies its branch, or nobody does). */
export function clusterDoc(name: string): string {
  return `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: ${name}}\nspec: {syncMode: Pull}\n`;
}

/**
 * The MCS API's ServiceExport and ServiceImport as CRDs the fleet propagates (a structural
 * schema that keeps every field: the clusters only store them).
 */
export function mcsCrds(): string {
  const crd = (plural: string, kind: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${plural}.multicluster.x-k8s.io
spec:
  group: multicluster.x-k8s.io
  scope: Namespaced
  names: {plural: ${plural}, singular: ${kind.toLowerCase()}, kind: ${kind}, listKind: ${kind}List}
  versions:
    - name: v1alpha1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          x-kubernetes-preserve-unknown-fields: true
`;
  return `${crd('serviceexports', 'ServiceExport')}---\n${crd('serviceimports', 'ServiceImport')}`;
}

/**
 * A ClusterTaintPolicy that taints a cluster NoExecute with `key` while its Ready condition is
 * `status` (Unknown: unreachable; False: not ready) and removes the taint once it is True again.
 */
export function noExecuteTaintPolicyDoc(
  name = 'unreachable-no-execute',
  key = 'cluster.karmada.io/unreachable',
  status = 'Unknown',
): string {
  return `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterTaintPolicy
metadata: {name: ${name}}
spec:
  addOnConditions: [{conditionType: Ready, operator: In, statusValues: ["${status}"]}]
  removeOnConditions: [{conditionType: Ready, operator: In, statusValues: ["True"]}]
  taints: [{key: ${key}, effect: NoExecute}]
`;
}
