// A seeded generator of synthetic fleets for benchmarks: templates (Deployments, Services and
// ConfigMaps that the Deployments reference), clusters with labels and regions, and policies
// with static weights, image overrides per region and plaintext overrides per tier.
import type { SourceFile } from '../src/core/load/load-fleet.js';

export interface FleetShape {
  templates: number;
  clusters: number;
  /** Number of apps; each app gets its own PropagationPolicy and OverridePolicy. */
  apps?: number;
  seed?: number;
}

const regions = ['eu-west-1', 'us-east-1', 'ap-south-1', 'us-west-2', 'eu-central-1'];
const providers = ['aws', 'gcp', 'azure'];

/** Returns the files of a synthetic fleet repo of the given shape; the same shape gives the same files. */
export function generateFleet(shape: FleetShape): SourceFile[] {
  const random = seeded(shape.seed ?? 1);
  const apps = shape.apps ?? 10;
  const files: SourceFile[] = [];
  files.push({
    path: 'fleet.yaml',
    content: 'apiVersion: gitfleet.io/v1alpha1\nkind: FleetConfig\nmetadata:\n  name: fleet\n',
  });
  files.push({ path: 'clusters/clusters.yaml', content: clusterDocs(shape.clusters).join('---\n') });
  for (let a = 0; a < apps; a++) files.push(...appFiles(a, apps, shape, random));
  return files;
}

function clusterDocs(count: number): string[] {
  const docs: string[] = [];
  for (let i = 1; i <= count; i++) {
    const region = regions[i % regions.length]!;
    docs.push(`apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: member${i}
  labels:
    tier: ${i % 3 === 0 ? 'edge' : 'core'}
    env: ${i % 2 === 0 ? 'prod' : 'staging'}
spec:
  provider: ${providers[i % providers.length]}
  region: ${region}
  zones: [${region}a]
  syncMode: Pull
`);
  }
  return docs;
}

function appFiles(a: number, apps: number, shape: FleetShape, random: () => number): SourceFile[] {
  const ns = `app${a}`;
  const perApp = Math.floor(shape.templates / apps) + (a < shape.templates % apps ? 1 : 0);
  const docs: string[] = [`apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${ns}\n`];
  // Each unit is a Deployment, its Service and its ConfigMap; leftovers are ConfigMaps.
  for (let i = 0; i < perApp - 1; i++) {
    const unit = Math.floor(i / 3);
    const name = `svc${unit}`;
    if (i % 3 === 0) docs.push(deployment(ns, name, 150 + Math.floor(random() * 150)));
    else if (i % 3 === 1) docs.push(service(ns, name));
    else docs.push(configMap(ns, name, random));
  }
  return [
    { path: `apps/${ns}/templates.yaml`, content: docs.join('---\n') },
    { path: `apps/${ns}/policy.yaml`, content: policies(ns, shape.clusters) },
  ];
}

function deployment(ns: string, name: string, replicas: number): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: ${ns}
  labels:
    app: ${name}
spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      app: ${name}
  template:
    metadata:
      labels:
        app: ${name}
    spec:
      containers:
      - name: main
        image: registry.example.com/${ns}/${name}:1.0.0
        envFrom:
        - configMapRef:
            name: ${name}
        ports:
        - containerPort: 8080
        resources:
          requests:
            cpu: 100m
            memory: 128Mi
`;
}

function service(ns: string, name: string): string {
  return `apiVersion: v1
kind: Service
metadata:
  name: ${name}
  namespace: ${ns}
spec:
  selector:
    app: ${name}
  ports:
  - port: 80
    targetPort: 8080
`;
}

function configMap(ns: string, name: string, random: () => number): string {
  return `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
  namespace: ${ns}
data:
  LOG_LEVEL: info
  FEATURE_SEED: "${Math.floor(random() * 1e6)}"
`;
}

function policies(ns: string, clusters: number): string {
  const weights = Array.from({ length: Math.min(clusters, 5) }, (_, i) => {
    const region = regions[i % regions.length]!;
    return `        - targetCluster:
            fieldSelector:
              matchExpressions:
              - key: region
                operator: In
                values: [${region}]
          weight: ${i + 1}`;
  }).join('\n');
  const imageRules = regions
    .map(
      (region) => `  - targetCluster:
      fieldSelector:
        matchExpressions:
        - key: region
          operator: In
          values: [${region}]
    overriders:
      imageOverrider:
      - component: Registry
        operator: replace
        value: ${region}.registry.example.com`,
    )
    .join('\n');
  return `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: deployments
  namespace: ${ns}
spec:
  resourceSelectors:
  - apiVersion: apps/v1
    kind: Deployment
  propagateDeps: true
  placement:
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
${weights}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: services
  namespace: ${ns}
spec:
  resourceSelectors:
  - apiVersion: v1
    kind: Service
  - apiVersion: v1
    kind: ConfigMap
  placement: {}
---
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata:
  name: regional
  namespace: ${ns}
spec:
  resourceSelectors:
  - apiVersion: apps/v1
    kind: Deployment
  overrideRules:
${imageRules}
  - targetCluster:
      labelSelector:
        matchLabels:
          tier: edge
    overriders:
      plaintext:
      - path: /spec/template/spec/containers/0/resources/requests/cpu
        operator: replace
        value: 50m
`;
}

function seeded(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}
