// A fleet for the explanation's command tests (status-explain, diff-why), on a repository whose
// cluster and bindings branches are written by real hub passes and whose status branches are
// written as the agents write them: m3 has a taint no policy tolerates, no agent reports the MCS
// CRDs, web is Progressing on m1 and its apply fails on m2.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commitChange, fleetRepoWith, hubPass, rendered, type FleetRepo } from '../loops/hub/hub-fixture.js';
import { commitReport, head, recordsOf } from './status-fixture.js';

export const reportedAt = 1_700_000_300;

const cluster = (name: string, spec = '{}') =>
  `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: ${name}}\nspec: ${spec}\n`;

const fleet = {
  'clusters/all.yaml': [
    cluster('m1'),
    cluster('m2'),
    cluster('m3', '{taints: [{key: dedicated, value: gpu, effect: NoSchedule}]}'),
  ].join('---\n'),
  'apps/shop.yaml': `apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: shop}
data: {mode: fast}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 1
  template:
    spec:
      containers: [{name: web, image: web:1}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: shop, namespace: shop}
spec:
  resourceSelectors:
    - {apiVersion: v1, kind: ConfigMap}
    - {apiVersion: apps/v1, kind: Deployment}
  placement:
    replicaScheduling: {replicaSchedulingType: Duplicated}
`,
};

const serviceImport = `apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceImport
metadata: {name: web, namespace: shop}
spec:
  type: ClusterSetIP
  ports: [{port: 80, protocol: TCP}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web-import, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: multicluster.x-k8s.io/v1alpha1, kind: ServiceImport, name: web}]
  placement: {}
`;

// The APIs every agent reports: the built-in ones the fleet uses, no MCS CRDs.
const clusterStatus = {
  conditions: [{ type: 'Ready', status: 'True' as const }],
  apiEnablements: [
    { groupVersion: 'apps/v1', resources: [{ name: 'deployments', kind: 'Deployment' }] },
    {
      groupVersion: 'v1',
      resources: [
        { name: 'configmaps', kind: 'ConfigMap' },
        { name: 'namespaces', kind: 'Namespace' },
      ],
    },
  ],
};

// A first pass places the ConfigMap and the Deployment on m1 and m2 (m3's taint is not
// tolerated); the agents report their APIs and objects (web Progressing on m1 with its reason,
// failing on m2); then the ServiceImport is pushed and a pass schedules it.
/**
 * Builds the fleet and pushes a ServiceImport of shop/web placed on every cluster, then (unless
 * `renderImport` is false) lets a hub pass schedule it.
 */
export async function explainFixture(
  opts: { renderImport?: boolean } = {},
): Promise<{ repo: FleetRepo; base: string }> {
  const repo = fleetRepoWith(fleet, { bare: false });
  rendered(await hubPass(repo));
  for (const name of ['m1', 'm2']) {
    const applied = head(repo, `gitfleet/clusters/${name}`);
    const objects = recordsOf(repo, applied).map((r) =>
      r.ref.kind !== 'Deployment'
        ? r
        : name === 'm1'
          ? {
              ...r,
              health: 'Progressing' as const,
              healthMessage: 'Waiting for rollout: 0 of 1 updated replicas are available',
            }
          : {
              ...r,
              applied: false,
              health: 'Unknown' as const,
              message: 'admission webhook "images" denied the request: web:1 is not signed',
            },
    );
    await commitReport(repo, { cluster: name, appliedCommit: applied, clusterStatus, objects }, reportedAt);
  }
  await commitReport(
    repo,
    { cluster: 'm3', appliedCommit: head(repo, 'gitfleet/clusters/m3'), clusterStatus, objects: [] },
    reportedAt,
  );
  const base = head(repo, 'main');
  commitChange(repo, 'import web', (work) => writeFileSync(join(work, 'apps/import.yaml'), serviceImport));
  if (opts.renderImport !== false) rendered(await hubPass(repo));
  return { repo, base };
}
