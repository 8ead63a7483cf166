// Karmada's FederatedResourceQuota webhook as the oracle (pkg/webhook/federatedresourcequota/
// validating_test.go: Test_validateOverallAndAssignments, TestValidatingAdmission_Handle,
// Test_validateFederatedResourceQuotaName, and validateResourceList's rules): each case is the
// quota of one of Karmada's cases, and whether Karmada allows it and what its denial names.
// A denied quota is a load error naming the file and the field, as Karmada names it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clustersYaml, loadErrors, quotaYaml } from './quota-fleet.js';

interface Case {
  name: string;
  quota: string;
  /** Karmada's verdict: allowed, or the fields and words of its denial. */
  want: 'allowed' | RegExp[];
}

const tenCpuTenGi = { cpu: '10', memory: '10Gi' };

const cases: Case[] = [
  {
    name: 'Overall above the sum of the assignments is allowed (ValidValues_NoErrors).',
    quota: quotaYaml({
      overall: tenCpuTenGi,
      assignments: [
        ['m1', { cpu: '1', memory: '1Gi' }],
        ['m2', { cpu: '1.5', memory: '2Gi' }],
      ],
    }),
    want: 'allowed',
  },
  {
    name: 'Overall cpu below the assignments is denied on spec.overall[cpu] (LowerOverallCPUThanAssignments).',
    quota: quotaYaml({
      overall: tenCpuTenGi,
      assignments: [
        ['m1', { cpu: '1', memory: '1Gi' }],
        ['m2', { cpu: '10', memory: '2Gi' }],
      ],
    }),
    want: [/spec\.overall\[cpu\]: "10": overall is less than assignments \(they add up to 11\)/],
  },
  {
    name: 'Overall memory below the assignments is denied on spec.overall[memory] (LowerOverallMemoryThanAssignments).',
    quota: quotaYaml({
      overall: tenCpuTenGi,
      assignments: [
        ['m1', { cpu: '1', memory: '1Gi' }],
        ['m2', { cpu: '1.5', memory: '10Gi' }],
      ],
    }),
    want: [/spec\.overall\[memory\]: "10Gi": overall is less than assignments \(they add up to 11Gi\)/],
  },
  {
    name: 'An assignment naming a resource the overall does not is denied (InvalidAssignmentResource).',
    quota: quotaYaml({
      overall: tenCpuTenGi,
      assignments: [
        ['m1', { cpux: '1', memory: '1Gi' }],
        ['m2', { cpu: '1.5', memory: '2Gi' }],
      ],
    }),
    // validateOverallAndAssignments says the last; validateStaticAssignment's resource list check says the first two.
    want: [
      /spec\.staticAssignments\[0\]\.hard\[cpux\]: must be a standard resource type or fully qualified/,
      /spec\.staticAssignments\[0\]\.hard\[cpux\]: must be a standard resource for quota/,
      /spec\.staticAssignments\[0\]\.hard\[cpux\]: "cpux": assignment resourceName is not exist in overall/,
    ],
  },
  {
    name: 'Two assignments of exactly half the overall each are allowed (Handle_ResourceLimitsMatch).',
    quota: quotaYaml({
      overall: tenCpuTenGi,
      assignments: [
        ['m1', { cpu: '5', memory: '5Gi' }],
        ['m2', { cpu: '5', memory: '5Gi' }],
      ],
    }),
    want: 'allowed',
  },
  {
    name: 'Both resources below the assignments: both denied (Handle_ExceedResourceLimits).',
    quota: quotaYaml({
      overall: { cpu: '5', memory: '5Gi' },
      assignments: [
        ['m1', { cpu: '5', memory: '5Gi' }],
        ['m2', { cpu: '5', memory: '5Gi' }],
      ],
    }),
    want: [
      /spec\.overall\[cpu\]: "5": overall is less than assignments/,
      /spec\.overall\[memory\]: "5Gi": overall is less than assignments/,
    ],
  },
  {
    name: 'An assignment of a cluster name with spaces is denied (Handle_InvalidClusterName).',
    quota: quotaYaml({
      overall: tenCpuTenGi,
      assignments: [['invalid cluster name', { cpu: '5', memory: '5Gi' }]],
    }),
    want: [/spec\.staticAssignments\[0\]\.clusterName: "invalid cluster name"/],
  },
  {
    name: 'A resource name that is neither standard nor qualified is denied twice, as Kubernetes words it (InvalidOverallResourceList).',
    quota: quotaYaml({ overall: { 'invalid-resource': '10' } }),
    want: [
      /spec\.overall\[invalid-resource\]: must be a standard resource type or fully qualified/,
      /spec\.overall\[invalid-resource\]: must be a standard resource for quota/,
    ],
  },
  {
    name: 'A name of 64 characters is denied: Karmada puts it in a label (validateFederatedResourceQuotaName).',
    quota: quotaYaml({ name: 'a'.repeat(64), overall: { cpu: '1' } }),
    want: [/metadata\.name: must be no more than 63 characters/],
  },
  {
    name: 'A negative quantity is denied (ValidateNonnegativeQuantity).',
    quota: quotaYaml({ overall: { cpu: '-1' } }),
    // Below zero is also below the (empty) assignments: Karmada says both.
    want: [
      /spec\.overall\[cpu\]: "-1": must be greater than or equal to 0/,
      /spec\.overall\[cpu\]: "-1": overall is less than assignments/,
    ],
  },
  {
    name: 'A fraction of an integer resource is denied (ValidateResourceQuantityValue).',
    quota: quotaYaml({ overall: { pods: '1500m', 'requests.cpu': '1500m' } }),
    want: [/spec\.overall\[pods\]: "1500m": must be an integer/],
  },
  {
    name: 'Quota names of every standard form are allowed: requests.*, limits.*, counts, hugepages and qualified names.',
    quota: quotaYaml({
      overall: {
        'requests.cpu': '2',
        'limits.memory': '4Gi',
        pods: '10',
        'services.loadbalancers': '1',
        'hugepages-2Mi': '1Gi',
        'count/deployments.apps': '3',
        'example.com/gpu': '2',
      },
    }),
    want: 'allowed',
  },
];

for (const c of cases) {
  test(c.name, () => {
    const errors = loadErrors(
      new Map([
        ['platform/clusters.yaml', clustersYaml],
        ['quotas/shop.yaml', c.quota],
      ]),
    );
    if (c.want === 'allowed') {
      assert.deepEqual(errors, []);
      return;
    }
    assert.equal(errors.length, c.want.length, errors.join('\n'));
    for (const [i, pattern] of c.want.entries()) {
      assert.match(errors[i]!, /^InvalidPolicy /);
      assert.match(errors[i]!, /FederatedResourceQuota\/shop\//);
      assert.ok(
        errors.some((e) => pattern.test(e)),
        `${pattern} in\n${errors.join('\n')}`,
      );
    }
  });
}

test('A quota without spec.overall is denied: Karmada marks it required.', () => {
  const quota =
    'apiVersion: policy.karmada.io/v1alpha1\nkind: FederatedResourceQuota\nmetadata: {name: q, namespace: shop}\nspec: {}\n';
  const errors = loadErrors(new Map([['quotas/q.yaml', quota]]));
  assert.deepEqual(errors, ['InvalidPolicy FederatedResourceQuota/shop/q: spec.overall: is required']);
});

test('A misspelt field of a quota is an error, as for every Karmada kind.', () => {
  const quota = quotaYaml({ overall: { cpu: '1' } }).replace('overall:', 'overal:');
  const errors = loadErrors(new Map([['quotas/q.yaml', quota]]));
  assert.ok(
    errors.some((e) => /overal/.test(e)),
    errors.join('\n'),
  );
});
