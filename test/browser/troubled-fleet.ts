// A fleet in which things go wrong for every reason the dashboard explains, written as users and
// agents write it: the bundled example rendered, then a commit that adds a ClusterTaintPolicy tainting a
// NotReady cluster NoExecute, a two-step RolloutStrategy for Deployment shop/api and a
// Deployment shop/batch whose policy asks for clusters labelled tier=edge (there are none), each
// pass a real `gitfleet hub --once --enable-no-execute-taint-eviction`, and each cluster's
// status branch written as its agent writes it, dated now:
//
//   aws-eu-prod     Ready; Deployment shop/web Degraded ("1 of 5 replicas available"); the
//                   rollout's step 1: shop/api moved to 2.4.0
//   aws-us-prod     Ready; Deployment shop/api's apply failed (an admission webhook); held by the rollout
//   gcp-eu-prod     NotReady: tainted not-ready:NoSchedule (its condition) and example.com/down:NoExecute
//                   (the policy), so what was placed there is evicted (TaintUntolerated); applied nothing
//   gcp-eu-staging  Ready; every object Progressing; held by the rollout
//   onprem-gpu      Ready; its spec taint dedicated=gpu:NoSchedule keeps everything but the GPU job off;
//                   the job finished (its status reflects the Complete condition)
//   shop/batch      placed on no cluster: no cluster has tier=edge
//   ServiceImport shop/api  placed on no cluster: no agent lists the MCS API among the APIs its
//                   cluster serves (the CRDs are not on the members)
//
// Every agent reports the APIs of every object of the example as served, so the scheduler's
// API filter has a list to read before the ServiceImport arrives.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { refLabel } from '../../src/core/model/object-ref.js';
import { commitChange, exampleFleetRepo, type FleetRepo } from '../loops/hub/hub-fixture.js';
import { noExecuteTaintPolicyDoc } from '../support/fleet-docs.js';
import type { ApiEnablement } from '../../src/core/model/cluster.js';
import { clusterObjects, hubOnce, writeReport } from './dashboard-fixture.js';

/** The hub's flags in every pass of this fleet. */
export const troubledHubFlags = ['--enable-no-execute-taint-eviction'];

/** The taint the ClusterTaintPolicy puts on a NotReady cluster. */
export const downTaint = 'example.com/down:NoExecute';

/** What the apply of shop/api on aws-us-prod fails with. */
export const webhookError = 'admission webhook "policy.example.com" denied the request: image not signed';

/** The health message of shop/web on aws-eu-prod. */
export const webDegraded = 'Deployment shop/web: 1 of 5 replicas available (ProgressDeadlineExceeded)';

/** What onprem-gpu's agent reflects of the finished training Job (a Job's status keeps its conditions). */
export const trainingDone = {
  succeeded: 1,
  conditions: [
    { type: 'SuccessCriteriaMet', status: 'True', reason: 'CompletionsReached' },
    {
      type: 'Complete',
      status: 'True',
      reason: 'CompletionsReached',
      message: 'Reached expected number of succeeded pods',
    },
  ],
};

const rollout = `apiVersion: gitfleet.io/v1alpha1
kind: RolloutStrategy
metadata: {name: api, namespace: shop}
spec:
  resourceSelectors:
    - {apiVersion: apps/v1, kind: Deployment, name: api}
  steps:
    - clusters: {clusterNames: [aws-eu-prod]}
      soakSeconds: 3600
    - {}
`;

const batch = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: batch
  namespace: shop
  labels: {app.kubernetes.io/name: batch, app.kubernetes.io/part-of: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app.kubernetes.io/name: batch}}
  template:
    metadata: {labels: {app.kubernetes.io/name: batch}}
    spec:
      containers: [{name: batch, image: registry.example.com/shop/batch:1.0.0}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: batch, namespace: shop}
spec:
  resourceSelectors:
    - {apiVersion: apps/v1, kind: Deployment, name: batch}
  placement:
    clusterAffinity:
      labelSelector: {matchLabels: {tier: edge}}
`;

const serviceImport = `apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceImport
metadata: {name: api, namespace: shop}
spec:
  type: ClusterSetIP
  ports: [{port: 80, protocol: TCP}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: api-import, namespace: shop}
spec:
  resourceSelectors:
    - {apiVersion: multicluster.x-k8s.io/v1alpha1, kind: ServiceImport, name: api}
  placement:
    clusterAffinity: {clusterNames: [aws-eu-prod, aws-us-prod]}
`;

/** Returns the troubled fleet described at the top of this file. */
export function troubledFleet(): FleetRepo {
  const repo = exampleFleetRepo({ bare: false });
  hubOnce(repo, troubledHubFlags);
  const apis = servedApis(repo);
  writeReports(repo, apis);
  commitChange(
    repo,
    'taint NotReady clusters, roll the api out in steps, add a batch job for the edge and import the api',
    (work) => {
      // Without the example's check-only admission policy: its two templates would be evicted from
      // gcp-eu-prod first and, the taint manager's evictions being rate-limited, delay web's.
      rmSync(join(work, 'admission'), { recursive: true });
      const fleet = join(work, 'fleet.yaml');
      writeFileSync(
        fleet,
        readFileSync(fleet, 'utf8').replace('spec:\n', 'spec:\n  allowNoExecuteTaintPolicy: true\n'),
      );
      writeFileSync(
        join(work, 'policies/down.yaml'),
        noExecuteTaintPolicyDoc('down-no-execute', 'example.com/down', 'False'),
      );
      mkdirSync(join(work, 'rollouts'), { recursive: true });
      writeFileSync(join(work, 'rollouts/api.yaml'), rollout);
      writeFileSync(join(work, 'apps/shop/batch.yaml'), batch);
      writeFileSync(join(work, 'apps/shop/api-import.yaml'), serviceImport);
    },
  );
  // The hub reads the reports: gcp-eu-prod is NotReady, so it is tainted and evicted from.
  hubOnce(repo, troubledHubFlags);
  commitChange(repo, 'api 2.4.0', (work) => {
    const api = join(work, 'apps/shop/api.yaml');
    writeFileSync(api, readFileSync(api, 'utf8').replace('shop/api:2.3.1', 'shop/api:2.4.0'));
  });
  hubOnce(repo, troubledHubFlags);
  writeReports(repo, apis);
  return repo;
}

/** Returns every API (group/version and kind) of the objects on the cluster branches: what the agents say their clusters serve. */
export function servedApis(repo: FleetRepo): ApiEnablement[] {
  const kinds = new Map<string, Set<string>>();
  for (const cluster of ['aws-eu-prod', 'aws-us-prod', 'gcp-eu-prod', 'gcp-eu-staging', 'onprem-gpu'])
    for (const ref of clusterObjects(repo, cluster))
      kinds.set(ref.apiVersion, (kinds.get(ref.apiVersion) ?? new Set()).add(ref.kind));
  return [...kinds].map(([groupVersion, set]) => ({
    groupVersion,
    resources: [...set].map((kind) => ({ name: `${kind.toLowerCase()}s`, kind })),
  }));
}

/** Writes every cluster's report about its branch head, as described at the top of this file. */
export function writeReports(repo: FleetRepo, apis: ApiEnablement[]): void {
  const time = new Date();
  const isWeb = (ref: { kind: string; namespace: string; name: string }) =>
    ref.kind === 'Deployment' && ref.namespace === 'shop' && ref.name === 'web';
  writeReport(repo, 'aws-eu-prod', {
    ready: 'True',
    version: 'v1.31.2',
    applied: true,
    health: (ref) => (isWeb(ref) ? 'Degraded' : 'Healthy'),
    healthMessage: (ref) => (isWeb(ref) ? webDegraded : undefined),
    status: (ref) => (isWeb(ref) ? { replicas: 5, readyReplicas: 1, availableReplicas: 1 } : undefined),
    time,
    apis,
  });
  writeReport(repo, 'aws-us-prod', {
    ready: 'True',
    version: 'v1.30.6',
    applied: true,
    health: () => 'Healthy',
    failed: (ref) => (refLabel(ref) === 'Deployment/shop/api' ? webhookError : undefined),
    time,
    apis,
  });
  writeReport(repo, 'gcp-eu-prod', {
    ready: 'False',
    readyReason: { reason: 'KubeletNotReady', message: '2 of 3 nodes are NotReady' },
    version: 'v1.31.0',
    applied: false,
    health: () => 'Unknown',
    time,
    apis,
  });
  writeReport(repo, 'gcp-eu-staging', {
    ready: 'True',
    version: 'v1.31.2',
    applied: true,
    health: () => 'Progressing',
    time,
    apis,
  });
  writeReport(repo, 'onprem-gpu', {
    ready: 'True',
    version: 'v1.29.9',
    applied: true,
    health: () => 'Healthy',
    status: (ref) => (ref.kind === 'Job' ? trainingDone : undefined),
    time,
    apis,
  });
}
