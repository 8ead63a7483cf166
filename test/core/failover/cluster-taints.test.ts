// The hub's kept taints per cluster (core/failover/cluster-taints.ts), one rule per row, with an
// injected `now` and records as the bindings branch holds them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  clusterTaintsPath,
  conditionsMatch,
  planTaintsOfClusters,
  readRecord,
} from '../../../src/core/failover/cluster-taints.js';
import { decisionTrailerLines } from '../../../src/core/failover/failover-trailers.js';
import type { ClusterStatus, Taint } from '../../../src/core/model/cluster.js';
import type { ClusterTaintPolicy, MatchCondition, TimedTaint } from '../../../src/core/model/failover.js';
import type { Fleet } from '../../../src/core/model/fleet.js';
import { defaultFleetConfig } from '../../../src/core/model/fleet-config.js';
import { emitYaml } from '../../../src/core/format/emit-yaml.js';
import { aCluster } from '../builders.js';

const now = new Date('2026-12-01T15:00:00.000Z');
const earlier = '2026-12-01T14:00:00.000Z';
const notReady: Taint = { key: 'cluster.karmada.io/not-ready', effect: 'NoSchedule' };
const unreachable: Taint = { key: 'cluster.karmada.io/unreachable', effect: 'NoSchedule' };
const down: Taint = { key: 'example.com/down', effect: 'NoExecute' };

const readyIs = (status: 'True' | 'False' | 'Unknown'): ClusterStatus => ({
  conditions: [{ type: 'Ready', status }],
});
const when = (conditionType: string, operator: 'In' | 'NotIn', ...values: string[]): MatchCondition => ({
  conditionType,
  operator,
  statusValues: values,
});
const policy = (name: string, extra: Partial<ClusterTaintPolicy>): ClusterTaintPolicy => ({
  name,
  addOnConditions: [],
  removeOnConditions: [],
  taints: [down],
  source: { file: 'taints.yaml', index: 0 },
  ...extra,
});
const timed = (taint: Taint, timeAdded: string): TimedTaint => ({ ...taint, timeAdded });
const record = (cluster: string, taints: TimedTaint[]) => emitYaml({ cluster, taints });

function fleetOf(policies: ClusterTaintPolicy[], clusters = [aCluster('member1')]): Fleet {
  return {
    templates: [],
    clusters,
    propagationPolicies: [],
    overridePolicies: [],
    ...(policies.length > 0 ? { clusterTaintPolicies: policies } : {}),
    config: defaultFleetConfig(),
  };
}

interface Row {
  name: string;
  status?: ClusterStatus;
  policies?: ClusterTaintPolicy[];
  /** member1's recorded taints. */
  recorded?: TimedTaint[];
  clusters?: ReturnType<typeof aCluster>[];
  /** member1's kept taints after the pass. */
  want: TimedTaint[];
  /** The decisions' messages. */
  decisions: string[];
}

const rows: Row[] = [
  {
    name: 'Ready False adds not-ready, with timeAdded now',
    status: readyIs('False'),
    want: [timed(notReady, now.toISOString())],
    decisions: [
      "member1 +cluster.karmada.io/not-ready:NoSchedule: Ready=False (the cluster controller's condition taint)",
    ],
  },
  {
    name: 'Ready Unknown swaps not-ready for unreachable',
    status: readyIs('Unknown'),
    recorded: [timed(notReady, earlier)],
    want: [timed(unreachable, now.toISOString())],
    decisions: [
      "member1 +cluster.karmada.io/unreachable:NoSchedule: Ready=Unknown (the cluster controller's condition taint)",
      "member1 -cluster.karmada.io/not-ready:NoSchedule: Ready=Unknown (the cluster controller's condition taint)",
    ],
  },
  {
    name: 'Ready True removes both condition taints',
    status: readyIs('True'),
    recorded: [timed(notReady, earlier), timed(unreachable, earlier)],
    want: [],
    decisions: [
      "member1 -cluster.karmada.io/not-ready:NoSchedule: Ready=True (the cluster controller's condition taint)",
      "member1 -cluster.karmada.io/unreachable:NoSchedule: Ready=True (the cluster controller's condition taint)",
    ],
  },
  {
    name: 'a taint already kept keeps its timeAdded, and nothing is decided',
    status: readyIs('False'),
    recorded: [timed(notReady, earlier)],
    want: [timed(notReady, earlier)],
    decisions: [],
  },
  {
    name: 'no status: not tainted (gitfleet: an agent that never reported stays schedulable)',
    want: [],
    decisions: [],
  },
  {
    name: 'no Ready condition: not tainted, and what is kept stays',
    status: { conditions: [{ type: 'CompleteAPIEnablements', status: 'False' }] },
    recorded: [timed(notReady, earlier)],
    want: [timed(notReady, earlier)],
    decisions: [],
  },
  {
    name: 'a condition taint a spec taint already has is not added',
    status: readyIs('False'),
    clusters: [aCluster('member1', { taints: [notReady] })],
    want: [],
    decisions: [],
  },
  {
    name: 'a policy whose addOnConditions all match adds its taints',
    status: {
      conditions: [
        { type: 'Ready', status: 'False' },
        { type: 'Network', status: 'True' },
      ],
    },
    policies: [
      policy('down', { addOnConditions: [when('Ready', 'In', 'False'), when('Network', 'NotIn', 'False')] }),
    ],
    want: [timed(notReady, now.toISOString()), timed(down, now.toISOString())],
    decisions: [
      "member1 +cluster.karmada.io/not-ready:NoSchedule: Ready=False (the cluster controller's condition taint)",
      'member1 +example.com/down:NoExecute: Ready=False, Network=True matches addOnConditions of ClusterTaintPolicy/down',
    ],
  },
  {
    name: 'one addOnCondition not matching: nothing is added',
    status: readyIs('False'),
    policies: [
      policy('down', { addOnConditions: [when('Ready', 'In', 'False'), when('Network', 'In', 'False')] }),
    ],
    want: [timed(notReady, now.toISOString())],
    decisions: [
      "member1 +cluster.karmada.io/not-ready:NoSchedule: Ready=False (the cluster controller's condition taint)",
    ],
  },
  {
    name: 'NotIn on a condition type the cluster does not have never matches',
    status: readyIs('True'),
    policies: [policy('down', { addOnConditions: [when('Network', 'NotIn', 'True')] })],
    want: [],
    decisions: [],
  },
  {
    name: 'removeOnConditions matching removes the policy’s taints by key and effect (the value aside)',
    status: readyIs('True'),
    recorded: [timed({ ...down, value: 'old' }, earlier)],
    policies: [policy('down', { removeOnConditions: [when('Ready', 'In', 'True')] })],
    want: [],
    decisions: [
      'member1 -example.com/down=old:NoExecute: Ready=True matches removeOnConditions of ClusterTaintPolicy/down',
    ],
  },
  {
    name: 'a taint is never removed because its policy is gone',
    status: readyIs('True'),
    recorded: [timed(down, earlier)],
    want: [timed(down, earlier)],
    decisions: [],
  },
  {
    name: 'a policy not targeting the cluster does nothing to it, and its taints stay',
    status: readyIs('True'),
    recorded: [timed(down, earlier)],
    policies: [
      policy('down', {
        targetClusters: { clusterNames: ['member2'] },
        removeOnConditions: [when('Ready', 'In', 'True')],
      }),
    ],
    want: [timed(down, earlier)],
    decisions: [],
  },
  {
    name: 'policies apply in file order, each seeing the taints of the ones before',
    status: readyIs('False'),
    policies: [
      policy('first', {
        addOnConditions: [when('Ready', 'In', 'False')],
        taints: [{ ...down, value: 'first' }],
      }),
      policy('second', {
        addOnConditions: [when('Ready', 'In', 'False')],
        taints: [{ ...down, value: 'second' }],
      }),
    ],
    want: [timed(notReady, now.toISOString()), timed({ ...down, value: 'first' }, now.toISOString())],
    decisions: [
      "member1 +cluster.karmada.io/not-ready:NoSchedule: Ready=False (the cluster controller's condition taint)",
      'member1 +example.com/down=first:NoExecute: Ready=False matches addOnConditions of ClusterTaintPolicy/first',
    ],
  },
  {
    name: 'add then remove in one policy: both are applied, add first (Karmada’s order)',
    status: readyIs('False'),
    policies: [
      policy('both', {
        addOnConditions: [when('Ready', 'In', 'False')],
        removeOnConditions: [when('Ready', 'NotIn', 'True')],
      }),
    ],
    want: [timed(notReady, now.toISOString())],
    decisions: [
      "member1 +cluster.karmada.io/not-ready:NoSchedule: Ready=False (the cluster controller's condition taint)",
      'member1 +example.com/down:NoExecute: Ready=False matches addOnConditions of ClusterTaintPolicy/both',
      'member1 -example.com/down:NoExecute: Ready=False matches removeOnConditions of ClusterTaintPolicy/both',
    ],
  },
];

for (const row of rows) {
  test(`cluster taints: ${row.name}`, () => {
    const recorded = new Map<string, string>();
    if (row.recorded) recorded.set(clusterTaintsPath('member1'), record('member1', row.recorded));
    const out = planTaintsOfClusters({
      now,
      fleet: fleetOf(row.policies ?? [], row.clusters),
      clusterStatus: new Map(row.status ? [['member1', row.status]] : []),
      recorded,
    });
    assert.deepEqual(out.taints.get('member1') ?? [], row.want);
    assert.deepEqual(
      out.decisions.map((d) => d.message),
      row.decisions,
    );
    const file = out.files.get(clusterTaintsPath('member1'));
    if (row.want.length === 0) assert.equal(file, undefined, 'a cluster without taints has no file');
    else assert.deepEqual(readRecord(file), row.want);
  });
}

test('cluster taints: an unchanged state writes the same text (so no commit)', () => {
  const input = {
    now,
    fleet: fleetOf([policy('down', { addOnConditions: [when('Ready', 'In', 'False')] })]),
    clusterStatus: new Map([['member1', readyIs('False')]]),
  };
  const first = planTaintsOfClusters({ ...input, recorded: new Map() });
  const later = new Date(now.getTime() + 60_000);
  const second = planTaintsOfClusters({ ...input, now: later, recorded: first.files });
  assert.deepEqual([...second.files], [...first.files]);
  assert.deepEqual(second.decisions, []);
});

test('cluster taints: the file of an unregistered cluster is dropped; the record names the cluster', () => {
  const out = planTaintsOfClusters({
    now,
    fleet: fleetOf([]),
    clusterStatus: new Map([
      ['member1', readyIs('False')],
      ['gone', readyIs('False')],
    ]),
    recorded: new Map([[clusterTaintsPath('gone'), record('gone', [timed(notReady, earlier)])]]),
  });
  assert.deepEqual([...out.files.keys()], [clusterTaintsPath('member1')]);
  assert.equal(
    out.files.get(clusterTaintsPath('member1')),
    [
      'cluster: member1',
      'taints:',
      '- effect: NoSchedule',
      '  key: cluster.karmada.io/not-ready',
      `  timeAdded: "${now.toISOString()}"`,
      '',
    ].join('\n'),
  );
});

test('cluster taints: decisions carry cluster, reason and policy, and become Gitfleet-Taint trailers', () => {
  const out = planTaintsOfClusters({
    now,
    fleet: fleetOf([policy('down', { addOnConditions: [when('Ready', 'In', 'Unknown')] })]),
    clusterStatus: new Map([['member1', readyIs('Unknown')]]),
    recorded: new Map(),
  });
  assert.deepEqual(
    out.decisions.map(({ type, cluster, reason, policy }) => ({ type, cluster, reason, policy })),
    [
      { type: 'TaintAdded', cluster: 'member1', reason: 'ClusterUnreachable', policy: undefined },
      { type: 'TaintAdded', cluster: 'member1', reason: 'AddOnConditions', policy: 'down' },
    ],
  );
  assert.deepEqual(decisionTrailerLines(out.decisions), [
    "Gitfleet-Taint: member1 +cluster.karmada.io/unreachable:NoSchedule: Ready=Unknown (the cluster controller's condition taint)",
    'Gitfleet-Taint: member1 +example.com/down:NoExecute: Ready=Unknown matches addOnConditions of ClusterTaintPolicy/down',
  ]);
});

test('cluster taints: a record that does not read holds no taints', () => {
  assert.deepEqual(readRecord('taints: [unclosed'), []);
  assert.deepEqual(readRecord('taints:\n- {key: k, effect: NoSchedule}\n'), [], 'no timeAdded');
  assert.deepEqual(readRecord(undefined), []);
});

test('conditionsMatch: an empty list never matches; In and NotIn on the status', () => {
  const conditions = [{ type: 'Ready', status: 'False' as const }];
  assert.equal(conditionsMatch(conditions, []), false);
  assert.equal(conditionsMatch(conditions, [when('Ready', 'In', 'False', 'Unknown')]), true);
  assert.equal(conditionsMatch(conditions, [when('Ready', 'NotIn', 'False')]), false);
  assert.equal(conditionsMatch(conditions, [when('Ready', 'NotIn', 'True')]), true);
  assert.equal(conditionsMatch(conditions, [when('Other', 'NotIn', 'True')]), false);
});
