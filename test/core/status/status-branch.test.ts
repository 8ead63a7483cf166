import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  appliedCommitTrailer,
  parseStatusBranch,
  statusBranchFiles,
  type AgentReport,
} from '../../../src/core/status/status-branch.js';

const sha = '0123456789abcdef0123456789abcdef01234567';

function aReport(): AgentReport {
  return {
    cluster: 'member1',
    appliedCommit: sha,
    clusterStatus: {
      kubernetesVersion: 'v1.31.2',
      apiEnablements: [{ groupVersion: 'apps/v1', resources: [{ name: 'deployments', kind: 'Deployment' }] }],
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'ClusterReady',
          message: 'cluster is healthy and ready to accept workloads',
        },
      ],
      nodeSummary: { totalNum: 3, readyNum: 2 },
      resourceSummary: {
        allocatable: { cpu: '12', memory: '48Gi' },
        allocated: { cpu: '2500m', memory: '4Gi' },
      },
    },
    objects: [
      {
        ref: { apiVersion: 'v1', kind: 'Namespace', namespace: '', name: 'shop' },
        applied: true,
        health: 'Healthy',
      },
      {
        ref: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' },
        applied: true,
        health: 'Progressing',
        healthMessage: 'Waiting for rollout to finish: 1 out of 3 new replicas have been updated',
        status: { replicas: 3, updatedReplicas: 1, generation: 2, observedGeneration: 2 },
      },
      {
        ref: { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'settings' },
        applied: false,
        message: 'ConfigMap/shop/settings: apply failed: the object exists and is not managed by gitfleet',
        health: 'Unknown',
      },
    ],
    conditions: [
      { type: 'Synced', status: 'False', reason: 'ApplyFailed', message: '1 of 3 objects failed' },
    ],
  };
}

test('a report reads back as the same report, objects in path order', () => {
  const report = aReport();
  const [namespace, deployment, configMap] = report.objects;
  assert.deepEqual(parseStatusBranch(statusBranchFiles(report)), {
    ...report,
    objects: [namespace, configMap, deployment],
  });
});

test('a report with no applied commit, no cluster status and no objects reads back the same', () => {
  const report: AgentReport = { cluster: 'member2', appliedCommit: null, objects: [] };
  assert.deepEqual(parseStatusBranch(statusBranchFiles(report)), report);
});

test('the branch has cluster.yaml and one file per object at the cluster-branch path', () => {
  assert.deepEqual(
    [...statusBranchFiles(aReport()).keys()],
    [
      'cluster.yaml',
      'objects/_cluster/Namespace/shop.yaml',
      'objects/shop/ConfigMap/settings.yaml',
      'objects/shop/Deployment.apps/web.yaml',
    ],
  );
});

test('the same report in another order gives byte-identical files', () => {
  const report = aReport();
  const shuffled = { ...report, objects: [...report.objects].reverse() };
  assert.deepEqual([...statusBranchFiles(shuffled)], [...statusBranchFiles(report)]);
});

test('a changed health changes exactly one file', () => {
  const before = statusBranchFiles(aReport());
  const changed = aReport();
  changed.objects[1] = { ...changed.objects[1]!, health: 'Healthy' };
  const after = statusBranchFiles(changed);
  const differing = [...after.keys()].filter((path) => after.get(path) !== before.get(path));
  assert.deepEqual(differing, ['objects/shop/Deployment.apps/web.yaml']);
});

test('the files hold no timestamps and name the applied commit', () => {
  const text = [...statusBranchFiles(aReport()).values()].join('\n');
  assert.doesNotMatch(text, /Time|timestamp/i);
  assert.match(statusBranchFiles(aReport()).get('cluster.yaml')!, new RegExp(`appliedCommit: ${sha}`));
});

test('bad object files are skipped and the rest is read', () => {
  const files = statusBranchFiles(aReport());
  files.set('objects/shop/ConfigMap/settings.yaml', ':::\n  - [not yaml');
  files.set('objects/shop/Secret/x.yaml', 'kind: ObjectStatus\napplied: maybe\n');
  files.set('README.md', '# not status');
  const got = parseStatusBranch(files);
  assert.deepEqual(
    got?.objects.map((o) => o.ref.name),
    ['shop', 'web'],
  );
});

test('an unknown health word reads as Unknown', () => {
  const files = statusBranchFiles(aReport());
  const path = 'objects/_cluster/Namespace/shop.yaml';
  files.set(path, files.get(path)!.replace('health: Healthy', 'health: Great'));
  assert.equal(parseStatusBranch(files)?.objects[0]?.health, 'Unknown');
});

test('a branch without a readable cluster.yaml is no report', () => {
  const files = statusBranchFiles(aReport());
  files.delete('cluster.yaml');
  assert.equal(parseStatusBranch(files), undefined);
  assert.equal(parseStatusBranch(new Map([['cluster.yaml', '{{{']])), undefined);
});

test('malformed cluster status fields are dropped, the rest kept', () => {
  const files = new Map([
    [
      'cluster.yaml',
      'metadata:\n  name: m1\nappliedCommit: null\nclusterStatus:\n  kubernetesVersion: 1.3\n  nodeSummary:\n    totalNum: 2\n    readyNum: 1\n',
    ],
  ]);
  assert.deepEqual(parseStatusBranch(files), {
    cluster: 'm1',
    appliedCommit: null,
    clusterStatus: { nodeSummary: { totalNum: 2, readyNum: 1 } },
    objects: [],
  });
});

// The name is the one docs/architecture.md#trailers gives (the test's name predates that page).
test('the applied-commit trailer has the name docs/architecture.md gives it', () => {
  assert.equal(appliedCommitTrailer, 'Gitfleet-Applied-Commit');
});
