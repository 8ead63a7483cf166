// The fleet of the chaos scenario (bench/chaos.ts): three clusters with failover on (the settings
// of the failover end-to-end test), a CRD and a custom resource of it, a Service and a ConfigMap
// placed on every cluster with the policies' default tolerations, and a Divided Deployment that
// tolerates an unreachable or not-ready cluster for 20 s only, so that real evictions happen.
// Beside it, one Widget per cluster that the fleet does not own: it lives as long as its CRD.
import { clusterDoc, noExecuteTaintPolicyDoc } from '../test/support/fleet-docs.js';
import { deployment } from '../test/e2e/failover-fleet.js';

export const chaosNamespace = 'chaos';
export const chaosClusters = ['member1', 'member2', 'member3'];

/** An object the scenario watches on every cluster: its API path and whether the fleet keeps it placed everywhere. */
export interface TrackedObject {
  name: string;
  path: string;
  /** 'always': placed on every cluster for the whole run; 'workload': may be evicted; 'foreign': not the fleet's. */
  kind: 'always' | 'workload' | 'foreign';
}

const ns = chaosNamespace;
export const trackedObjects: readonly TrackedObject[] = [
  { name: 'Namespace/chaos', path: `/api/v1/namespaces/${ns}`, kind: 'always' },
  {
    name: 'CustomResourceDefinition/widgets.chaos.example.com',
    path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.chaos.example.com',
    kind: 'always',
  },
  { name: 'Widget/chaos/w1', path: `/apis/chaos.example.com/v1/namespaces/${ns}/widgets/w1`, kind: 'always' },
  { name: 'Service/chaos/web', path: `/api/v1/namespaces/${ns}/services/web`, kind: 'always' },
  {
    name: 'ConfigMap/chaos/web-config',
    path: `/api/v1/namespaces/${ns}/configmaps/web-config`,
    kind: 'always',
  },
  { name: 'Deployment/chaos/web', path: `/apis/apps/v1/namespaces/${ns}/deployments/web`, kind: 'workload' },
  {
    name: 'Widget/chaos/foreign',
    path: `/apis/chaos.example.com/v1/namespaces/${ns}/widgets/foreign`,
    kind: 'foreign',
  },
];

/** The foreign Widget each cluster gets from the scenario itself (not from the fleet). */
export const foreignWidget = {
  apiVersion: 'chaos.example.com/v1',
  kind: 'Widget',
  metadata: { name: 'foreign', namespace: ns },
  spec: { owner: 'someone else' },
};

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.chaos.example.com}
spec:
  group: chaos.example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
    - name: v1
      served: true
      storage: true
      schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
`;

const everywhere = '{clusterAffinity: {clusterNames: [member1, member2, member3]}}';

/** The fleet repository's files. */
export function chaosFleet(): Record<string, string> {
  return {
    'fleet.yaml': `apiVersion: gitfleet.io/v1alpha1
kind: FleetConfig
metadata: {name: fleet}
spec: {allowNoExecuteTaintPolicy: true}
`,
    'clusters.yaml': chaosClusters.map(clusterDoc).join('---\n'),
    'taint-policy.yaml': [
      noExecuteTaintPolicyDoc(),
      noExecuteTaintPolicyDoc('not-ready-no-execute', 'cluster.karmada.io/not-ready', 'False'),
    ].join('---\n'),
    'crds/widgets.yaml': crd,
    'crds/policy.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: widgets-crd}
spec:
  resourceSelectors:
    - {apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, name: widgets.chaos.example.com}
  placement: ${everywhere}
`,
    'apps/namespace.yaml': `apiVersion: v1\nkind: Namespace\nmetadata: {name: ${ns}}\n`,
    'apps/w1.yaml': `apiVersion: chaos.example.com/v1
kind: Widget
metadata: {name: w1, namespace: ${ns}}
spec: {size: 3}
`,
    'apps/service.yaml': `apiVersion: v1
kind: Service
metadata: {name: web, namespace: ${ns}}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 8080}]
`,
    'apps/config.yaml': `apiVersion: v1
kind: ConfigMap
metadata: {name: web-config, namespace: ${ns}}
data: {greeting: hello}
`,
    'apps/always-policy.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: always, namespace: ${ns}}
spec:
  resourceSelectors:
    - {apiVersion: chaos.example.com/v1, kind: Widget, name: w1}
    - {apiVersion: v1, kind: Service, name: web}
    - {apiVersion: v1, kind: ConfigMap, name: web-config}
  placement: ${everywhere}
`,
    'apps/web.yaml': deployment(ns, 'web', 6),
    'apps/web-policy.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: ${ns}}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2, member3]}
    clusterTolerations:
      - {key: cluster.karmada.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 20}
      - {key: cluster.karmada.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 20}
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
          - {targetCluster: {clusterNames: [member1]}, weight: 1}
          - {targetCluster: {clusterNames: [member2]}, weight: 1}
          - {targetCluster: {clusterNames: [member3]}, weight: 1}
`,
  };
}
