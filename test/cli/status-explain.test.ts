// `gitfleet status` says why, on a repository whose cluster and bindings branches were written by
// real hub passes and whose status branches were written as the agents write them: a
// ServiceImport on clusters without the MCS CRDs, a ConfigMap kept off a tainted cluster, a
// Deployment Progressing with its health check's reason, an apply that failed.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TemplateSummary } from '../../src/core/status/fleet-summary.js';
import {
  commitChange,
  fleetRepoWith,
  hubPass,
  rendered,
  removeFleetRepos,
} from '../loops/hub/hub-fixture.js';
import { commitReport, head, recordsOf, statusAt } from './status-fixture.js';

after(removeFleetRepos);

const reportedAt = 1_700_000_300;
const now = new Date((reportedAt + 60) * 1000);

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
async function buildFixture() {
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
  commitChange(repo, 'import web', (work) => writeFileSync(join(work, 'apps/import.yaml'), serviceImport));
  rendered(await hubPass(repo));
  return repo;
}

const repo = await buildFixture();
const mcsDocs = 'docs/multi-cluster-services.md#the-crds-on-the-member-clusters';

test('status names why a ServiceImport on clusters without the MCS CRDs is placed nowhere, where it used to say nothing', async () => {
  const { code, stdout, stderr } = await statusAt({ repo: repo.path }, now);
  assert.equal(code, 0, stderr);
  const line = stdout.split('\n').find((l) => l.startsWith('ServiceImport/shop/web '));
  assert.ok(line, stdout);
  assert.match(
    line,
    / NotPlaced +0\/0 +0\/3 clusters are available: m1 lacks the CRD multicluster\.x-k8s\.io ServiceImport: propagate the MCS CRDs to it \(docs\/multi-cluster-services\.md#the-crds-on-the-member-clusters\); m2: the same; m3 has taint dedicated=gpu:NoSchedule, which PropagationPolicy\/shop\/web-import does not tolerate/,
  );
});

test('status --template explains a template cluster by cluster', async () => {
  const { code, stdout, stderr } = await statusAt(
    { repo: repo.path, templates: ['serviceimport/shop/web'] },
    now,
  );
  assert.equal(code, 0, stderr);
  const why = stdout.slice(stdout.indexOf('\nWhy\n') + 1).split('\n');
  assert.match(why[1]!, /^ServiceImport\/shop\/web {2}NoClusterFit {2}0\/3 clusters are available: /);
  assert.match(why[2]!, /^ {2}CLUSTER +PLACED +REASON +MESSAGE$/);
  assert.match(
    why[3]!,
    new RegExp(
      `^  m1 +no +ApiNotServed +m1 lacks the CRD multicluster\\.x-k8s\\.io ServiceImport: propagate the MCS CRDs to it \\(${mcsDocs}\\)$`,
    ),
  );
  assert.match(why[4]!, /^ {2}m2 +no +ApiNotServed +m2 lacks the CRD /);
  assert.match(
    why[5]!,
    /^ {2}m3 +no +TaintNotTolerated +m3 has taint dedicated=gpu:NoSchedule, which PropagationPolicy\/shop\/web-import does not tolerate: add a matching toleration/,
  );
});

test('status --template says why a cluster was left out of a template placed elsewhere, and how it fares where it is', async () => {
  const { stdout } = await statusAt(
    { repo: repo.path, templates: ['Deployment/shop/web'], output: 'json' },
    now,
  );
  const web = (JSON.parse(stdout) as { templates: TemplateSummary[] }).templates[0]!;
  assert.equal(web.reason, 'ApplyFailed');
  assert.equal(
    web.message,
    'm2: apply failed: admission webhook "images" denied the request: web:1 is not signed (and 1 more)',
  );
  assert.deepEqual(
    web.explanation?.map((c) => [c.cluster, c.placed, c.reason, c.message]),
    [
      [
        'm1',
        true,
        'Progressing',
        'm1: Progressing: Waiting for rollout: 0 of 1 updated replicas are available',
      ],
      [
        'm2',
        true,
        'ApplyFailed',
        'm2: apply failed: admission webhook "images" denied the request: web:1 is not signed',
      ],
      [
        'm3',
        false,
        'TaintNotTolerated',
        'm3 has taint dedicated=gpu:NoSchedule, which PropagationPolicy/shop/shop does not tolerate: add a matching toleration to its placement.clusterTolerations, or remove the taint',
      ],
    ],
  );
});

test('status -o json carries each template\'s reason and the clusters that say more than "fine"', async () => {
  const { stdout } = await statusAt({ repo: repo.path, output: 'json' }, now);
  const templates = (JSON.parse(stdout) as { templates: TemplateSummary[] }).templates;
  const settings = templates.find((t) => t.template === 'ConfigMap/shop/settings')!;
  assert.equal(settings.reason, 'Healthy');
  assert.equal(settings.message, undefined);
  assert.deepEqual(
    settings.explanation?.map((c) => [c.cluster, c.reason, c.filter]),
    [['m3', 'TaintNotTolerated', 'TaintToleration']],
  );
  const imported = templates.find((t) => t.template === 'ServiceImport/shop/web')!;
  assert.equal(imported.reason, 'NoClusterFit');
  assert.deepEqual(
    imported.explanation?.map((c) => [c.cluster, c.reason]),
    [
      ['m1', 'ApiNotServed'],
      ['m2', 'ApiNotServed'],
      ['m3', 'TaintNotTolerated'],
    ],
  );
});

test('the refusals recorded once stay recorded: a pass with nothing new writes nothing', async () => {
  const before = head(repo, 'gitfleet/bindings');
  const again = await hubPass(repo);
  assert.notEqual(again.type, 'rendered', JSON.stringify(again));
  assert.equal(head(repo, 'gitfleet/bindings'), before);
});
