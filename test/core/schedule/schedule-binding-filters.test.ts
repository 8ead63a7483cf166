import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClusterDiagnosis, PreviousBinding } from '../../../src/core/model/binding.js';
import type { Cluster, ClusterStatus, Taint, Toleration } from '../../../src/core/model/cluster.js';
import { scheduleBinding } from '../../../src/core/schedule/schedule-binding.js';
import { aCluster, aPlacement } from '../builders.js';
import { anInput } from './schedule-fixtures.js';

function previousOn(...clusters: string[]): PreviousBinding {
  return {
    key: 'apps/Deployment/default/nginx',
    policy: { kind: 'PropagationPolicy', namespace: 'default', name: 'nginx' },
    clusters: clusters.map((name) => ({ name, replicas: 1 })),
  };
}

/** Returns the diagnosis of member1 alone (member2 is a plain cluster that always fits). */
function verdictOnMember1(options: {
  member1?: Partial<Cluster>;
  status?: ClusterStatus;
  tolerations?: Toleration[];
  previous?: PreviousBinding;
}): string {
  const clusters = [aCluster('member1', options.member1), aCluster('member2')];
  const result = scheduleBinding(
    anInput({
      clusters,
      placement: aPlacement({ clusterTolerations: options.tolerations ?? [] }),
      clusterStatus: new Map(options.status ? [['member1', options.status]] : []),
      ...(options.previous ? { previous: options.previous } : {}),
    }),
  );
  if (result.type === 'NoFit') return `NoFit: ${result.message}`;
  return result.clusters.some((c) => c.name === 'member1') ? 'fits' : 'left out';
}

function diagnosisOf(options: Parameters<typeof verdictOnMember1>[0]): ClusterDiagnosis[] {
  const result = scheduleBinding(
    anInput({
      clusters: [aCluster('member1', options.member1)],
      placement: aPlacement({ clusterTolerations: options.tolerations ?? [] }),
      clusterStatus: new Map(options.status ? [['member1', options.status]] : []),
    }),
  );
  return result.type === 'NoFit' ? result.diagnosis : [];
}

const gpu: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };
const notReady: ClusterStatus = { conditions: [{ type: 'Ready', status: 'False' }] };

const taints: { name: string; given: Parameters<typeof verdictOnMember1>[0]; want: string }[] = [
  {
    name: 'An untolerated NoSchedule taint keeps a cluster out.',
    given: { member1: { taints: [gpu] } },
    want: 'left out',
  },
  {
    name: 'An untolerated NoExecute taint keeps a cluster out.',
    given: { member1: { taints: [{ ...gpu, effect: 'NoExecute' }] } },
    want: 'left out',
  },
  {
    name: 'A PreferNoSchedule taint is ignored.',
    given: { member1: { taints: [{ ...gpu, effect: 'PreferNoSchedule' }] } },
    want: 'fits',
  },
  {
    name: 'A toleration with the same key and value lets the cluster in.',
    given: {
      member1: { taints: [gpu] },
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu' }],
    },
    want: 'fits',
  },
  {
    name: 'A toleration with another value does not.',
    given: { member1: { taints: [gpu] }, tolerations: [{ key: 'dedicated', value: 'cpu' }] },
    want: 'left out',
  },
  {
    name: 'An Exists toleration without key tolerates everything.',
    given: { member1: { taints: [gpu] }, tolerations: [{ operator: 'Exists' }] },
    want: 'fits',
  },
  {
    name: 'A toleration for another effect does not tolerate.',
    given: {
      member1: { taints: [gpu] },
      tolerations: [{ key: 'dedicated', operator: 'Exists', effect: 'NoExecute' }],
    },
    want: 'left out',
  },
  {
    name: 'A cluster reported not ready is tainted and kept out.',
    given: { status: notReady },
    want: 'left out',
  },
  {
    name: 'Tolerating the not-ready taint lets a not-ready cluster in.',
    given: {
      status: notReady,
      tolerations: [{ key: 'cluster.karmada.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }],
    },
    want: 'fits',
  },
  {
    name: 'A cluster of the previous result stays despite a new taint.',
    given: { member1: { taints: [gpu] }, status: notReady, previous: previousOn('member1') },
    want: 'fits',
  },
];

for (const { name, given, want } of taints) {
  test(name, () => {
    assert.equal(verdictOnMember1(given), want);
  });
}

const deploymentApi = { groupVersion: 'apps/v1', resources: [{ name: 'deployments', kind: 'Deployment' }] };
const statefulSetApi = {
  groupVersion: 'apps/v1',
  resources: [{ name: 'statefulsets', kind: 'StatefulSet' }],
};
const complete = { type: 'CompleteAPIEnablements', status: 'True' as const };

const apis: { name: string; given: Parameters<typeof verdictOnMember1>[0]; want: string }[] = [
  {
    name: 'A cluster that serves the API fits.',
    given: { status: { apiEnablements: [statefulSetApi, deploymentApi] } },
    want: 'fits',
  },
  {
    name: 'A cluster that does not list the API is left out.',
    given: { status: { apiEnablements: [statefulSetApi], conditions: [complete] } },
    want: 'left out',
  },
  {
    name: 'A cluster listing the group version under another version is left out.',
    given: { status: { apiEnablements: [{ ...deploymentApi, groupVersion: 'apps/v1beta1' }] } },
    want: 'left out',
  },
  { name: 'A cluster without status is assumed to serve the API.', given: {}, want: 'fits' },
  {
    name: 'A status without an API list is assumed to serve the API.',
    given: { status: { kubernetesVersion: 'v1.31.0' } },
    want: 'fits',
  },
  {
    name: 'A cluster of the previous result stays although it lost the API.',
    given: { status: { apiEnablements: [] }, previous: previousOn('member1') },
    want: 'fits',
  },
];

for (const { name, given, want } of apis) {
  test(name, () => {
    assert.equal(verdictOnMember1(given), want);
  });
}

const diagnoses: {
  name: string;
  given: Parameters<typeof verdictOnMember1>[0];
  want: Omit<ClusterDiagnosis, 'cluster'>;
}[] = [
  {
    name: 'An untolerated spec taint is named with its value, and kept as data.',
    given: { member1: { taints: [gpu] } },
    want: { filter: 'TaintToleration', reason: 'taint dedicated=gpu:NoSchedule not tolerated', taint: gpu },
  },
  {
    name: 'A not-ready cluster names the taint Karmada adds.',
    given: { status: notReady },
    want: {
      filter: 'TaintToleration',
      reason: 'taint cluster.karmada.io/not-ready:NoSchedule not tolerated',
      taint: { key: 'cluster.karmada.io/not-ready', effect: 'NoSchedule' },
    },
  },
  {
    name: 'An unreachable cluster names the unreachable taint.',
    given: { status: { conditions: [{ type: 'Ready', status: 'Unknown' }] } },
    want: {
      filter: 'TaintToleration',
      reason: 'taint cluster.karmada.io/unreachable:NoSchedule not tolerated',
      taint: { key: 'cluster.karmada.io/unreachable', effect: 'NoSchedule' },
    },
  },
  {
    name: 'A missing API is named, from a complete list.',
    given: { status: { apiEnablements: [statefulSetApi], conditions: [complete] } },
    want: { filter: 'APIEnablement', reason: 'API apps/v1 Deployment not enabled' },
  },
  {
    name: "A missing API from a list without the condition is named plainly: the agent's list is whole.",
    given: { status: { apiEnablements: [statefulSetApi] } },
    want: { filter: 'APIEnablement', reason: 'API apps/v1 Deployment not enabled' },
  },
  {
    name: 'A missing API from a list its condition calls partial says what that means.',
    given: {
      status: {
        apiEnablements: [statefulSetApi],
        conditions: [{ type: 'CompleteAPIEnablements', status: 'False' }],
      },
    },
    want: {
      filter: 'APIEnablement',
      reason:
        'API apps/v1 Deployment not enabled (its API list is partial, CompleteAPIEnablements=False: if the cluster serves the API, it is placed once its list is complete)',
    },
  },
];

for (const { name, given, want } of diagnoses) {
  test(name, () => {
    assert.deepEqual(diagnosisOf(given), [{ cluster: 'member1', ...want }]);
  });
}

test('A cluster without the property a spread constraint needs is filtered with a reason.', () => {
  const result = scheduleBinding(
    anInput({
      clusters: [aCluster('member1', { region: 'eu' }), aCluster('member2')],
      placement: aPlacement({
        spreadConstraints: [
          { spreadByField: 'region', minGroups: 2, maxGroups: 2 },
          { spreadByField: 'cluster', minGroups: 1, maxGroups: 2 },
        ],
      }),
    }),
  );
  assert.ok(result.type === 'NoFit');
  assert.equal(
    result.message,
    'spreadConstraints: 1 feasible region(s) are fewer than minGroups 2 of the region constraint',
  );
  assert.equal(result.keepPrevious, true);
});

test('The spread filter names the missing property.', () => {
  const result = scheduleBinding(
    anInput({
      clusters: [aCluster('member1')],
      placement: aPlacement({ spreadConstraints: [{ spreadByField: 'provider', minGroups: 1 }] }),
    }),
  );
  assert.ok(result.type === 'NoFit');
  assert.deepEqual(result.diagnosis, [
    {
      cluster: 'member1',
      filter: 'SpreadConstraint',
      reason: 'no provider set, but spreadConstraints spread by provider',
    },
  ]);
});

test('With no cluster registered the message says so.', () => {
  const result = scheduleBinding(anInput({ clusters: [] }));
  assert.deepEqual(result, {
    type: 'NoFit',
    diagnosis: [],
    message: '0/0 clusters are available: no cluster exists',
  });
});
