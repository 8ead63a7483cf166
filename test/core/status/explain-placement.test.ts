// The explanation of where a template is not, one case per reason: the scheduler's refusals as
// the binding record keeps them, evictions, objects left behind, clusters not chosen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterDiagnosis } from '../../../src/core/model/binding.js';
import type { BindingView } from '../../../src/core/publish/binding-record.js';
import { explainTemplates } from '../../../src/core/status/explain-template.js';
import type { ClusterExplanation } from '../../../src/core/status/explanation.js';
import type { FleetStatusData } from '../../../src/core/status/fleet-status-data.js';
import {
  aFleetStatus,
  aReport,
  aWebBinding,
  aWebRecord,
  anEvictionTask,
  anUnplacedServiceImport,
} from './fleet-status-builders.js';

/** Returns the explanation of shop/web on member2, placed on member1 only, with `member2` as given. */
function member2Of(binding: Partial<BindingView>, data: Partial<FleetStatusData> = {}): ClusterExplanation {
  const reports = [aReport('member1', [aWebRecord()]), aReport('member2', [])];
  const explained = explainTemplates(aFleetStatus([aWebBinding(binding)], reports, data));
  return explained[0]!.clusters.find((c) => c.cluster === 'member2')!;
}

const refusedBy = (d: Omit<ClusterDiagnosis, 'cluster'>): Partial<BindingView> => ({
  refused: [{ cluster: 'member2', ...d }],
});

const cases: {
  name: string;
  given: Partial<BindingView>;
  want: Pick<ClusterExplanation, 'reason' | 'message'>;
}[] = [
  {
    name: 'A cluster the clusterAffinity leaves out says which part of it did',
    given: refusedBy({
      filter: 'ClusterAffinity',
      reason: 'labels do not match clusterAffinity.labelSelector',
    }),
    want: {
      reason: 'ExcludedByAffinity',
      message:
        'member2 is excluded by the clusterAffinity of PropagationPolicy/shop/web: labels do not match clusterAffinity.labelSelector',
    },
  },
  {
    name: 'A name no Cluster registers says to register it or correct the name',
    given: refusedBy({ filter: 'Unregistered', reason: 'not a registered cluster' }),
    want: {
      reason: 'NotRegistered',
      message:
        'member2 is named by PropagationPolicy/shop/web but no Cluster document registers it: register it, or correct the name',
    },
  },
  {
    name: "A user's taint names the taint and the two ways out",
    given: refusedBy({
      filter: 'TaintToleration',
      reason: 'taint dedicated=gpu:NoSchedule not tolerated',
      taint: { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
    }),
    want: {
      reason: 'TaintNotTolerated',
      message:
        'member2 has taint dedicated=gpu:NoSchedule, which PropagationPolicy/shop/web does not tolerate: add a matching toleration to its placement.clusterTolerations, or remove the taint',
    },
  },
  {
    name: "The Ready condition's taint says the cluster is not Ready",
    given: refusedBy({
      filter: 'TaintToleration',
      reason: 'taint cluster.karmada.io/not-ready:NoSchedule not tolerated',
      taint: { key: 'cluster.karmada.io/not-ready', effect: 'NoSchedule' },
    }),
    want: {
      reason: 'TaintNotTolerated',
      message:
        'member2 is not Ready (taint cluster.karmada.io/not-ready:NoSchedule): nothing new is placed there until it is Ready again',
    },
  },
  {
    name: "A custom resource's missing CRD says to propagate it",
    given: {
      resource: { apiVersion: 'example.com/v1', kind: 'Widget', namespace: 'shop', name: 'web' },
      ...refusedBy({ filter: 'APIEnablement', reason: 'API example.com/v1 Widget not enabled' }),
    },
    want: {
      reason: 'ApiNotServed',
      message:
        'member2 lacks the CRD example.com Widget: propagate its CustomResourceDefinition to the cluster (a CRD template placed there), or install it',
    },
  },
  {
    name: 'A built-in API version the cluster does not serve says to use one it serves',
    given: {
      resource: { apiVersion: 'batch/v1beta1', kind: 'CronJob', namespace: 'shop', name: 'web' },
      ...refusedBy({ filter: 'APIEnablement', reason: 'API batch/v1beta1 CronJob not enabled' }),
    },
    want: {
      reason: 'ApiNotServed',
      message:
        'member2 does not serve batch/v1beta1 CronJob: use an apiVersion its Kubernetes version serves',
    },
  },
  {
    name: 'A list its condition calls partial is said in the same sentence',
    given: {
      resource: { apiVersion: 'example.com/v1', kind: 'Widget', namespace: 'shop', name: 'web' },
      ...refusedBy({
        filter: 'APIEnablement',
        reason:
          'API example.com/v1 Widget not enabled (its API list is partial, CompleteAPIEnablements=False: if the cluster serves the API, it is placed once its list is complete)',
      }),
    },
    want: {
      reason: 'ApiNotServed',
      message:
        'member2 lacks the CRD example.com Widget (its API list is partial, CompleteAPIEnablements=False: if the cluster serves the API, it is placed once its list is complete): propagate its CustomResourceDefinition to the cluster (a CRD template placed there), or install it',
    },
  },
  {
    name: 'A cluster without the field the spread constraints need says where to set it',
    given: refusedBy({
      filter: 'SpreadConstraint',
      reason: 'no region set, but spreadConstraints spread by region',
    }),
    want: {
      reason: 'SpreadFieldMissing',
      message:
        'member2: no region set, but spreadConstraints spread by region: set the field in its Cluster registration, or change the spreadConstraints of PropagationPolicy/shop/web',
    },
  },
  {
    name: 'A cluster without room for the replicas says how many it can take',
    given: refusedBy({ filter: 'Capacity', reason: 'can take 1 more replica(s)' }),
    want: {
      reason: 'NoRoom',
      message: 'member2 can take only 1 more replica(s): add capacity there, or lower the replicas',
    },
  },
  {
    name: 'A cluster the placement did not choose, with nothing recorded, says so without guessing',
    given: {},
    want: {
      reason: 'NotSelected',
      message:
        'member2: not chosen by PropagationPolicy/shop/web (its clusterAffinity, spread constraints or replica division)',
    },
  },
  {
    name: 'A dependency goes where what needs it goes',
    given: { origin: 'dependency' },
    want: {
      reason: 'NotSelected',
      message: 'member2: not placed: it goes only where the templates that need it go',
    },
  },
  {
    name: 'An eviction says since when, why, and until when the copy stays at the latest',
    given: { evictionTasks: [anEvictionTask('member2', { message: 'taint not-ready:NoExecute' })] },
    want: {
      reason: 'Evicting',
      message:
        'member2: evicted since 2026-12-01T15:00:00Z (TaintUntolerated by TaintManager: taint not-ready:NoExecute); its copy stays until the workload is Healthy on the clusters that replace it, at the latest until 2026-12-01T15:10:00Z',
    },
  },
  {
    name: "An eviction with its own grace period counts from the task's",
    given: { evictionTasks: [anEvictionTask('member2', { gracePeriodSeconds: 60 })] },
    want: {
      reason: 'Evicting',
      message:
        'member2: evicted since 2026-12-01T15:00:00Z (TaintUntolerated by TaintManager); its copy stays until the workload is Healthy on the clusters that replace it, at the latest until 2026-12-01T15:01:00Z',
    },
  },
  {
    name: 'An eviction that purges directly says the copy is gone',
    given: { evictionTasks: [anEvictionTask('member2', { purgeMode: 'Directly' })] },
    want: {
      reason: 'Evicting',
      message:
        'member2: evicted since 2026-12-01T15:00:00Z (TaintUntolerated by TaintManager); its copy was removed at eviction',
    },
  },
];

for (const { name, given, want } of cases) {
  test(name, () => {
    const got = member2Of(given);
    assert.deepEqual({ reason: got.reason, message: got.message }, want);
    assert.equal(got.placed, false);
  });
}

test('An eviction is structured data too: since, until, who and why', () => {
  const got = member2Of({ evictionTasks: [anEvictionTask('member2')] });
  assert.deepEqual(got.eviction, {
    reason: 'TaintUntolerated',
    producer: 'TaintManager',
    purgeMode: 'Gracefully',
    since: '2026-12-01T15:00:00.000Z',
    until: '2026-12-01T15:10:00.000Z',
  });
});

test("The hub's eviction timeout is the caller's to give", () => {
  const data = aFleetStatus(
    [aWebBinding({ evictionTasks: [anEvictionTask('member2')] })],
    [aReport('member1', [aWebRecord()]), aReport('member2', [])],
  );
  const got = explainTemplates(data, { gracefulEvictionTimeoutSeconds: 3600 })[0]!.clusters[1]!;
  assert.equal(got.eviction?.until, '2026-12-01T16:00:00.000Z');
});

test('An object its agent still reports where it is no longer placed is pending removal', () => {
  const reports = [aReport('member1', [aWebRecord()]), aReport('member2', [aWebRecord()])];
  const got = explainTemplates(aFleetStatus([aWebBinding()], reports))[0]!.clusters[1]!;
  assert.equal(got.reason, 'PendingRemoval');
  assert.match(got.message, /^member2 still runs it though it is no longer placed there/);
});

test('A ServiceImport on clusters without the MCS CRDs says why it is placed nowhere, and what to do', () => {
  const names = ['member1', 'member2', 'member3'];
  const data = aFleetStatus(
    [anUnplacedServiceImport(names)],
    names.map((c) => aReport(c, [])),
  );
  const [explained] = explainTemplates(data);
  assert.equal(explained!.reason, 'NoClusterFit');
  assert.equal(
    explained!.message,
    '0/3 clusters are available: member1 lacks the CRD multicluster.x-k8s.io ServiceImport: propagate the MCS CRDs to it (docs/multi-cluster-services.md#the-crds-on-the-member-clusters); member2, member3: the same',
  );
  assert.deepEqual(
    explained!.clusters.map((c) => [c.cluster, c.reason, c.filter]),
    names.map((c) => [c, 'ApiNotServed', 'APIEnablement']),
  );
});

test('Different refusals of a template placed nowhere are each said', () => {
  const binding: BindingView = {
    ...aWebBinding({}, []),
    scheduleFailed: { reason: 'NoClusterFit', message: '0/2 clusters are available' },
    refused: [
      { cluster: 'member1', filter: 'ClusterAffinity', reason: 'not in clusterAffinity.clusterNames' },
      {
        cluster: 'member2',
        filter: 'TaintToleration',
        reason: 'taint x:NoSchedule not tolerated',
        taint: { key: 'x', effect: 'NoSchedule' },
      },
    ],
  };
  const [explained] = explainTemplates(
    aFleetStatus([binding], [aReport('member1', []), aReport('member2', [])]),
  );
  assert.equal(
    explained!.message,
    '0/2 clusters are available: member1 is excluded by the clusterAffinity of PropagationPolicy/shop/web: not in clusterAffinity.clusterNames; member2 has taint x:NoSchedule, which PropagationPolicy/shop/web does not tolerate: add a matching toleration to its placement.clusterTolerations, or remove the taint',
  );
});

test('A record of an older hub, placed nowhere without refusals, says its message and that the next schedule says why', () => {
  const binding: BindingView = {
    ...aWebBinding({}, []),
    scheduleFailed: { reason: 'NoClusterFit', message: '0/1 clusters are available' },
  };
  const [explained] = explainTemplates(aFleetStatus([binding], [aReport('member1', [])]));
  assert.equal(explained!.reason, 'NoClusterFit');
  assert.match(
    explained!.message,
    /^0\/1 clusters are available: the binding record names no cluster's reason \(an older hub wrote it/,
  );
});

test('A failed schedule that kept the previous clusters is the reason of a template Healthy there', () => {
  const binding = aWebBinding({
    scheduleFailed: { reason: 'Unschedulable', message: 'not enough replicas' },
    refused: [{ cluster: 'member2', filter: 'Capacity', reason: 'can take 0 more replica(s)' }],
  });
  const data = aFleetStatus([binding], [aReport('member1', [aWebRecord()]), aReport('member2', [])]);
  const [explained] = explainTemplates(data);
  assert.equal(explained!.reason, 'ScheduleFailed');
  assert.equal(
    explained!.message,
    'the last schedule failed (Unschedulable: not enough replicas); the previous clusters are kept',
  );
  assert.equal(explained!.clusters[1]!.reason, 'NoRoom');
});
