import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ScheduleResult } from '../../../src/core/model/binding.js';
import type { Cluster } from '../../../src/core/model/cluster.js';
import type { ClusterAffinityTerm } from '../../../src/core/model/propagation-policy.js';
import type { ClusterAffinity } from '../../../src/core/model/selectors.js';
import { scheduleBinding } from '../../../src/core/schedule/schedule-binding.js';
import { aCluster, aPlacement } from '../builders.js';
import { anInput, placementOf } from './schedule-fixtures.js';

const clusters: Cluster[] = [
  aCluster('member1', {
    labels: { env: 'prod', tier: 'gold' },
    provider: 'aws',
    region: 'us-east',
    zones: ['us-east-1a'],
  }),
  aCluster('member2', {
    labels: { env: 'prod' },
    provider: 'gcp',
    region: 'eu-west',
    zones: ['eu-west-1b', 'eu-west-1c'],
  }),
  aCluster('member3', { labels: { env: 'dev' }, provider: 'aws', region: 'eu-west' }),
];

function namesOf(result: ScheduleResult): string {
  return result.type === 'Scheduled' ? result.clusters.map((c) => c.name).join(' ') : 'NoFit';
}

const forms: { name: string; given: ClusterAffinity | undefined; want: string }[] = [
  {
    name: 'Without an affinity every cluster is a candidate.',
    given: undefined,
    want: 'member1 member2 member3',
  },
  {
    name: 'clusterNames keeps the named clusters.',
    given: { clusterNames: ['member1', 'member3'] },
    want: 'member1 member3',
  },
  { name: 'exclude drops the named clusters.', given: { exclude: ['member2'] }, want: 'member1 member3' },
  {
    name: 'exclude wins over clusterNames.',
    given: { clusterNames: ['member1', 'member2'], exclude: ['member2'] },
    want: 'member1',
  },
  {
    name: 'labelSelector matchLabels keeps matching clusters.',
    given: { labelSelector: { matchLabels: { env: 'prod' } } },
    want: 'member1 member2',
  },
  {
    name: 'labelSelector In keeps clusters whose label is listed.',
    given: { labelSelector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['dev'] }] } },
    want: 'member3',
  },
  {
    name: 'labelSelector NotIn keeps clusters whose label is not listed.',
    given: { labelSelector: { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['dev'] }] } },
    want: 'member1 member2',
  },
  {
    name: 'labelSelector Exists keeps clusters having the label.',
    given: { labelSelector: { matchExpressions: [{ key: 'tier', operator: 'Exists' }] } },
    want: 'member1',
  },
  {
    name: 'labelSelector DoesNotExist keeps clusters without the label.',
    given: { labelSelector: { matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] } },
    want: 'member2 member3',
  },
  {
    name: 'fieldSelector provider In keeps clusters of that provider.',
    given: { fieldSelector: { matchExpressions: [{ key: 'provider', operator: 'In', values: ['aws'] }] } },
    want: 'member1 member3',
  },
  {
    name: 'fieldSelector provider NotIn drops clusters of that provider.',
    given: { fieldSelector: { matchExpressions: [{ key: 'provider', operator: 'NotIn', values: ['aws'] }] } },
    want: 'member2',
  },
  {
    name: 'fieldSelector region In keeps clusters of that region.',
    given: { fieldSelector: { matchExpressions: [{ key: 'region', operator: 'In', values: ['eu-west'] }] } },
    want: 'member2 member3',
  },
  {
    name: 'fieldSelector region NotIn drops clusters of that region.',
    given: {
      fieldSelector: { matchExpressions: [{ key: 'region', operator: 'NotIn', values: ['eu-west'] }] },
    },
    want: 'member1',
  },
  {
    name: 'fieldSelector zone In keeps clusters with any listed zone.',
    given: { fieldSelector: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['eu-west-1c'] }] } },
    want: 'member2',
  },
  {
    name: 'fieldSelector zone NotIn keeps clusters with none of the listed zones.',
    given: {
      fieldSelector: { matchExpressions: [{ key: 'zone', operator: 'NotIn', values: ['us-east-1a'] }] },
    },
    want: 'member2 member3',
  },
  {
    name: 'labelSelector and fieldSelector must both match.',
    given: {
      labelSelector: { matchLabels: { env: 'prod' } },
      fieldSelector: { matchExpressions: [{ key: 'provider', operator: 'In', values: ['aws'] }] },
    },
    want: 'member1',
  },
];

for (const { name, given, want } of forms) {
  test(name, () => {
    const placement = aPlacement(given ? { clusterAffinity: given } : {});
    assert.equal(namesOf(scheduleBinding(anInput({ placement, clusters }))), want);
  });
}

test('When no cluster matches the affinity, each cluster says why.', () => {
  const placement = aPlacement({
    clusterAffinity: {
      clusterNames: ['member1', 'member2'],
      exclude: ['member1'],
      fieldSelector: { matchExpressions: [{ key: 'provider', operator: 'In', values: ['aws'] }] },
    },
  });
  const result = scheduleBinding(anInput({ placement, clusters }));
  assert.deepEqual(result, {
    type: 'NoFit',
    diagnosis: [
      { cluster: 'member1', filter: 'ClusterAffinity', reason: 'excluded by clusterAffinity.exclude' },
      {
        cluster: 'member2',
        filter: 'ClusterAffinity',
        reason: 'provider does not satisfy fieldSelector provider In [aws]',
      },
      { cluster: 'member3', filter: 'ClusterAffinity', reason: 'not in clusterAffinity.clusterNames' },
    ],
    message: '0/3 clusters are available',
  });
});

const primary: ClusterAffinityTerm = { affinityName: 'primary', clusterNames: ['member1'] };
const backup: ClusterAffinityTerm = { affinityName: 'backup', clusterNames: ['member2', 'member3'] };
const taintedMember1 = clusters.map((c) =>
  c.name === 'member1' ? { ...c, taints: [{ key: 'maintenance', effect: 'NoSchedule' as const }] } : c,
);

const ordered: {
  name: string;
  given: { clusters: Cluster[]; terms: ClusterAffinityTerm[]; previousAffinity?: string };
  want: string;
}[] = [
  {
    name: 'The first term that fits wins and is recorded.',
    given: { clusters, terms: [primary, backup] },
    want: 'primary: member1:3',
  },
  {
    name: 'When the first term has no feasible cluster the next one is used.',
    given: { clusters: taintedMember1, terms: [primary, backup] },
    want: 'backup: member2:3 member3:3',
  },
  {
    name: 'Scheduling starts at the term of the previous result, so a fallback sticks.',
    given: { clusters, terms: [primary, backup], previousAffinity: 'backup' },
    want: 'backup: member2:3 member3:3',
  },
  {
    name: 'A previous term that no longer exists starts again at the first term.',
    given: { clusters, terms: [primary, backup], previousAffinity: 'gone' },
    want: 'primary: member1:3',
  },
];

for (const { name, given, want } of ordered) {
  test(name, () => {
    const placement = aPlacement({ clusterAffinities: given.terms });
    const previous =
      given.previousAffinity === undefined
        ? {}
        : {
            previous: {
              key: 'k',
              policy: { kind: 'PropagationPolicy' as const, namespace: 'default', name: 'p' },
              clusters: [],
              affinityName: given.previousAffinity,
            },
          };
    const result = scheduleBinding(
      anInput({ placement, clusters: given.clusters, replicas: 3, ...previous }),
    );
    assert.equal(
      result.type === 'Scheduled' ? `${result.affinityName}: ${placementOf(result)}` : placementOf(result),
      want,
    );
  });
}

test('When every term fails on the filters, the diagnosis names each term and nothing is kept.', () => {
  const placement = aPlacement({
    clusterAffinities: [primary, { affinityName: 'backup', clusterNames: ['member9'] }],
  });
  const result = scheduleBinding(anInput({ placement, clusters: taintedMember1, replicas: 1 }));
  assert.equal(result.type, 'NoFit');
  assert.ok(result.type === 'NoFit');
  assert.equal(result.keepPrevious, undefined);
  assert.deepEqual(result.diagnosis.slice(0, 2), [
    {
      cluster: 'member1',
      filter: 'TaintToleration',
      reason: '[primary] taint maintenance:NoSchedule not tolerated',
      taint: { key: 'maintenance', effect: 'NoSchedule' },
    },
    {
      cluster: 'member2',
      filter: 'ClusterAffinity',
      reason: '[primary] not in clusterAffinity.clusterNames',
    },
  ]);
  // Three clusters for each term, and the unregistered name of the backup term.
  assert.equal(result.diagnosis.length, 7);
  assert.deepEqual(result.diagnosis[6], {
    cluster: 'member9',
    filter: 'Unregistered',
    reason: '[backup] not a registered cluster',
  });
  assert.equal(
    result.message,
    'no clusterAffinities term fits: [primary] 0/3 clusters are available; [backup] 0/3 clusters are available',
  );
});

test('When the first term fails after filtering, the previous clusters are kept.', () => {
  const placement = aPlacement({
    clusterAffinities: [primary, { affinityName: 'backup', clusterNames: ['member9'] }],
    spreadConstraints: [{ spreadByField: 'cluster', minGroups: 2, maxGroups: 2 }],
  });
  const result = scheduleBinding(anInput({ placement, clusters, replicas: 1 }));
  assert.ok(result.type === 'NoFit');
  assert.equal(result.keepPrevious, true);
});
