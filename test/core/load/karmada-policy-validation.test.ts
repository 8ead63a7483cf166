// Checks Karmada makes on PropagationPolicy and ClusterPropagationPolicy that gitfleet did not:
// pkg/util/validation/validation.go ValidatePlacement (overflowAffinities only with dynamic weight
// or Aggregated, util.IsOverflowSchedulingAllowed in pkg/util/policy.go), ValidateOverflowAffinities,
// ValidateWorkloadAffinity, ValidateApplicationFailover and validateStatePreservationRule, the CRD
// enums and required fields of pkg/apis/policy/v1alpha1/propagation_types.go (purgeMode, rules,
// aliasLabelName, jsonPath, groupByLabelKey), and the mutating webhook's default
// (pkg/webhook/propagationpolicy/mutating.go, helper.SetDefaultGracePeriodSeconds: Gracefully
// without gracePeriodSeconds gets 600 before validation, so such a policy is accepted).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileOf, mustFail, mustLoad, policyDoc } from './documents.js';

const deployments = [{ apiVersion: 'apps/v1', kind: 'Deployment' }];
const pp = (spec: Record<string, unknown>) =>
  policyDoc('PropagationPolicy', 'pp', { resourceSelectors: deployments, ...spec }, 'default');
const cpp = (spec: Record<string, unknown>) =>
  policyDoc('ClusterPropagationPolicy', 'cpp', { resourceSelectors: deployments, ...spec });
const application = (app: Record<string, unknown>) =>
  pp({
    propagateDeps: true,
    failover: { application: { decisionConditions: { tolerationSeconds: 30 }, ...app } },
  });
const dynamic = {
  replicaSchedulingType: 'Divided',
  replicaDivisionPreference: 'Weighted',
  weightPreference: { dynamicWeight: 'AvailableReplicas' },
};
const overflowTerm = (term: Record<string, unknown>, replicaScheduling: unknown = dynamic) =>
  pp({
    placement: {
      replicaScheduling,
      clusterAffinities: [
        {
          affinityName: 'main',
          clusterNames: ['a'],
          overflowAffinities: [{ affinityName: 'burst', clusterNames: ['b'] }],
          ...term,
        },
      ],
    },
  });
const workload = (wa: unknown) => pp({ placement: { workloadAffinity: wa } });

const rows: { name: string; given: unknown; path: string; message: RegExp }[] = [
  // ValidateApplicationFailover and the CRD enum
  {
    name: 'gracePeriodSeconds with purgeMode Directly is refused.',
    given: application({ purgeMode: 'Directly', gracePeriodSeconds: 30 }),
    path: 'spec.failover.application.gracePeriodSeconds',
    message: /only takes effect when purgeMode is gracefully/,
  },
  {
    name: 'gracePeriodSeconds with purgeMode Never is refused.',
    given: application({ purgeMode: 'Never', gracePeriodSeconds: 30 }),
    path: 'spec.failover.application.gracePeriodSeconds',
    message: /only takes effect when purgeMode is gracefully/,
  },
  {
    name: 'A gracePeriodSeconds of 0 is refused.',
    given: application({ purgeMode: 'Gracefully', gracePeriodSeconds: 0 }),
    path: 'spec.failover.application.gracePeriodSeconds',
    message: /must be greater than 0/,
  },
  {
    name: 'An application purgeMode outside Directly, Gracefully, Never is refused.',
    given: application({ purgeMode: 'Immediately' }),
    path: 'spec.failover.application.purgeMode',
    message: /Directly.*Gracefully.*Never/,
  },
  {
    name: 'A cluster failover purgeMode outside Directly, Gracefully is refused.',
    given: pp({ failover: { cluster: { purgeMode: 'Never' } } }),
    path: 'spec.failover.cluster.purgeMode',
    message: /Directly.*Gracefully/,
  },
  {
    name: 'A negative tolerationSeconds is refused.',
    given: application({ decisionConditions: { tolerationSeconds: -1 } }),
    path: 'spec.failover.application.decisionConditions.tolerationSeconds',
    message: /must be greater than or equal to 0/,
  },
  {
    name: 'Application failover needs decisionConditions.',
    given: pp({ propagateDeps: true, failover: { application: { purgeMode: 'Directly' } } }),
    path: 'spec.failover.application.decisionConditions',
    message: /is required/,
  },
  {
    name: 'A state preservation rule needs a valid aliasLabelName.',
    given: application({ statePreservation: { rules: [{ aliasLabelName: 'bad key!', jsonPath: '{.a}' }] } }),
    path: 'spec.failover.application.statePreservation.rules[0].aliasLabelName',
    message: /bad key!/,
  },
  {
    name: 'A state preservation rule needs a jsonPath.',
    given: pp({ failover: { cluster: { statePreservation: { rules: [{ aliasLabelName: 'a' }] } } } }),
    path: 'spec.failover.cluster.statePreservation.rules[0].jsonPath',
    message: /is required/,
  },
  {
    name: 'statePreservation needs rules.',
    given: pp({ failover: { cluster: { statePreservation: {} } } }),
    path: 'spec.failover.cluster.statePreservation.rules',
    message: /is required/,
  },
  // ValidatePlacement and ValidateOverflowAffinities
  {
    name: 'overflowAffinities with Duplicated scheduling are refused.',
    given: overflowTerm({}, { replicaSchedulingType: 'Duplicated' }),
    path: 'spec.placement.clusterAffinities[0].overflowAffinities',
    message: /can only be used together with dynamic weight or aggregated scheduling/,
  },
  {
    name: 'overflowAffinities with static weights are refused.',
    given: overflowTerm({}, { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted' }),
    path: 'spec.placement.clusterAffinities[0].overflowAffinities',
    message: /can only be used together with dynamic weight or aggregated scheduling/,
  },
  {
    name: 'overflowAffinities on a term without an inline affinity are refused.',
    given: overflowTerm({ clusterNames: undefined }),
    path: 'spec.placement.clusterAffinities[0].overflowAffinities',
    message: /can only be used together with the inline ClusterAffinity/,
  },
  {
    name: 'An overflow affinity may not reuse the term name.',
    given: overflowTerm({ overflowAffinities: [{ affinityName: 'main', clusterNames: ['b'] }] }),
    path: 'spec.placement.clusterAffinities[0].overflowAffinities[0].affinityName',
    message: /must be unique and must not duplicate the primary group's affinityName/,
  },
  {
    name: 'Overflow affinity names are unique.',
    given: overflowTerm({
      overflowAffinities: [
        { affinityName: 'burst', clusterNames: ['b'] },
        { affinityName: 'burst', clusterNames: ['c'] },
      ],
    }),
    path: 'spec.placement.clusterAffinities[0].overflowAffinities[1].affinityName',
    message: /must be unique/,
  },
  {
    name: 'An overflow affinity name is a label key.',
    given: overflowTerm({ overflowAffinities: [{ affinityName: 'no spaces', clusterNames: ['b'] }] }),
    path: 'spec.placement.clusterAffinities[0].overflowAffinities[0].affinityName',
    message: /no spaces/,
  },
  {
    name: 'An overflow affinity field selector is checked like any other.',
    given: overflowTerm({
      overflowAffinities: [
        {
          affinityName: 'burst',
          fieldSelector: { matchExpressions: [{ key: 'os', operator: 'In', values: ['x'] }] },
        },
      ],
    }),
    path: 'spec.placement.clusterAffinities[0].overflowAffinities[0].fieldSelector.matchExpressions[0].key',
    message: /must be one of provider, region, zone/,
  },
  // ValidateWorkloadAffinity
  {
    name: 'Workload affinity and anti-affinity on the same groupByLabelKey are refused.',
    given: workload({
      affinity: { groupByLabelKey: 'app.group' },
      antiAffinity: { groupByLabelKey: 'app.group' },
    }),
    path: 'spec.placement.workloadAffinity',
    message: /affinity and antiAffinity must not use the same groupByLabelKey/,
  },
  {
    name: 'A workload affinity groupByLabelKey is a label key.',
    given: workload({ affinity: { groupByLabelKey: 'not a key' } }),
    path: 'spec.placement.workloadAffinity.affinity.groupByLabelKey',
    message: /not a key/,
  },
  {
    name: 'A workload anti-affinity needs a groupByLabelKey.',
    given: workload({ antiAffinity: {} }),
    path: 'spec.placement.workloadAffinity.antiAffinity.groupByLabelKey',
    message: /is required/,
  },
  // The CRD's SchedulePriority (propagation_types.go): source enum, both fields required
  {
    name: 'A schedulePriority source other than KubePriorityClass is refused.',
    given: pp({ schedulePriority: { priorityClassSource: 'PodPriorityClass', priorityClassName: 'high' } }),
    path: 'spec.schedulePriority.priorityClassSource',
    message: /KubePriorityClass/,
  },
  {
    name: 'A schedulePriority needs a priorityClassName.',
    given: pp({ schedulePriority: { priorityClassSource: 'KubePriorityClass' } }),
    path: 'spec.schedulePriority.priorityClassName',
    message: /is required/,
  },
  // ValidateOverrideRules: apivalidation.ValidateAnnotations' total size
  {
    name: 'An annotations overrider may not add more than 256 KiB of annotations.',
    given: policyDoc(
      'OverridePolicy',
      'op',
      {
        resourceSelectors: deployments,
        overrideRules: [
          {
            overriders: {
              annotationsOverrider: [{ operator: 'add', value: { big: 'x'.repeat(256 * 1024) } }],
            },
          },
        ],
      },
      'default',
    ),
    path: 'spec.overrideRules[0].overriders.annotationsOverrider[0].value',
    message: /may not be more than 262144 bytes/,
  },
  {
    name: 'A ClusterPropagationPolicy is checked the same way.',
    given: cpp({ failover: { cluster: { purgeMode: 'Sometimes' } } }),
    path: 'spec.failover.cluster.purgeMode',
    message: /Directly/,
  },
];

for (const row of rows) {
  test(row.name, () => {
    const errors = mustFail([
      fileOf(
        'policies/doc.yaml',
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } },
        row.given,
      ),
    ]);
    assert.equal(errors.length, 1, JSON.stringify(errors, null, 2));
    const [error] = errors;
    assert.equal(error?.code, 'InvalidPolicy');
    assert.equal(error?.file, 'policies/doc.yaml');
    assert.equal(error?.index, 1);
    assert.match(error?.message ?? '', /^(Cluster)?(Propagation|Override)Policy\//);
    assert.ok(
      error?.message.includes(`${row.path}: `) || error?.message.includes(`${row.path} "`),
      error?.message,
    );
    assert.match(error?.message ?? '', row.message);
  });
}

test('purgeMode Gracefully without gracePeriodSeconds loads: the mutating webhook gives it 600.', () => {
  mustLoad([fileOf('p.yaml', application({ purgeMode: 'Gracefully' }))]);
  mustLoad([fileOf('p.yaml', application({}))]);
});

test('Policies that keep these rules load.', () => {
  const fleet = mustLoad([
    fileOf(
      'ok.yaml',
      overflowTerm({}),
      policyDoc(
        'PropagationPolicy',
        'agg',
        {
          resourceSelectors: deployments,
          placement: {
            replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' },
            clusterAffinities: [
              {
                affinityName: 'main',
                clusterNames: ['a'],
                overflowAffinities: [{ affinityName: 'b', clusterNames: ['b'] }],
              },
            ],
            workloadAffinity: {
              affinity: { groupByLabelKey: 'app.group' },
              antiAffinity: { groupByLabelKey: 'app.other' },
            },
          },
          propagateDeps: true,
          failover: {
            application: {
              decisionConditions: { tolerationSeconds: 0 },
              purgeMode: 'Gracefully',
              gracePeriodSeconds: 60,
              statePreservation: { rules: [{ aliasLabelName: 'example.io/state', jsonPath: '{ .status }' }] },
            },
            cluster: { purgeMode: 'Directly' },
          },
        },
        'default',
      ),
    ),
  ]);
  const terms = fleet.propagationPolicies.find((p) => p.name === 'pp')?.placement.clusterAffinities;
  assert.deepEqual(terms, [
    {
      affinityName: 'main',
      clusterNames: ['a'],
      overflowAffinities: [{ affinityName: 'burst', clusterNames: ['b'] }],
    },
  ]);
});
