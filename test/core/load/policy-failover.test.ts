// A policy's spec.failover is kept with Karmada's defaults (tolerationSeconds 300 from the CRD,
// purgeMode Gracefully, gracePeriodSeconds 600 from the mutating webhook's
// SetDefaultGracePeriodSeconds), and a statePreservation jsonPath outside gitfleet's subset is
// refused while loading, naming the file and the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileOf, mustFail, mustLoad, policyDoc } from './documents.js';

const deployments = [{ apiVersion: 'apps/v1', kind: 'Deployment' }];
const withFailover = (failover: unknown, propagateDeps = true) =>
  policyDoc('PropagationPolicy', 'web', { resourceSelectors: deployments, propagateDeps, failover }, 'shop');
const failoverOf = (doc: unknown) =>
  mustLoad([fileOf('policies/web.yaml', doc)]).propagationPolicies[0]!.failover;

const rows: { name: string; given: unknown; want: unknown }[] = [
  {
    name: 'An application failover with only decisionConditions gets tolerationSeconds 300, Gracefully, 600.',
    given: { application: { decisionConditions: {} } },
    want: { application: { tolerationSeconds: 300, purgeMode: 'Gracefully', gracePeriodSeconds: 600 } },
  },
  {
    name: 'The values written are kept.',
    given: {
      application: {
        decisionConditions: { tolerationSeconds: 30 },
        purgeMode: 'Gracefully',
        gracePeriodSeconds: 60,
      },
    },
    want: { application: { tolerationSeconds: 30, purgeMode: 'Gracefully', gracePeriodSeconds: 60 } },
  },
  {
    name: 'Directly and Never have no grace period.',
    given: { application: { decisionConditions: { tolerationSeconds: 0 }, purgeMode: 'Never' } },
    want: { application: { tolerationSeconds: 0, purgeMode: 'Never' } },
  },
  {
    name: 'State preservation rules are kept in order.',
    given: {
      application: {
        decisionConditions: {},
        purgeMode: 'Directly',
        statePreservation: {
          rules: [
            { aliasLabelName: 'example.io/replicas', jsonPath: '{.availableReplicas}' },
            { aliasLabelName: 'ready', jsonPath: "{.conditions[0]['status']}" },
          ],
        },
      },
    },
    want: {
      application: {
        tolerationSeconds: 300,
        purgeMode: 'Directly',
        statePreservation: [
          { aliasLabelName: 'example.io/replicas', jsonPath: '{.availableReplicas}' },
          { aliasLabelName: 'ready', jsonPath: "{.conditions[0]['status']}" },
        ],
      },
    },
  },
  {
    name: 'A cluster failover without purgeMode is Gracefully.',
    given: { cluster: {} },
    want: { cluster: { purgeMode: 'Gracefully' } },
  },
];

for (const row of rows) {
  test(row.name, () => {
    assert.deepEqual(failoverOf(withFailover(row.given)), row.want);
  });
}

test('A policy without failover has none.', () => {
  const doc = policyDoc('PropagationPolicy', 'web', { resourceSelectors: deployments }, 'shop');
  assert.equal(failoverOf(doc), undefined);
});

test('A jsonPath with a filter is refused while loading, naming the file and the field.', () => {
  const doc = withFailover({
    application: {
      decisionConditions: {},
      statePreservation: {
        rules: [{ aliasLabelName: 'ready', jsonPath: '{.conditions[?(@.type=="Ready")].status}' }],
      },
    },
  });
  const errors = mustFail([fileOf('policies/web.yaml', doc)]);
  assert.equal(errors.length, 1);
  assert.equal(errors[0]!.file, 'policies/web.yaml');
  assert.match(
    errors[0]!.message,
    /^PropagationPolicy\/shop\/web: spec\.failover\.application\.statePreservation\.rules\[0\]\.jsonPath: .*not in the JSONPath subset/,
  );
});

test('A jsonPath without braces is refused: Kubernetes would print it as text.', () => {
  const doc = withFailover({
    cluster: {
      statePreservation: { rules: [{ aliasLabelName: 'replicas', jsonPath: '.availableReplicas' }] },
    },
  });
  const errors = mustFail([fileOf('policies/web.yaml', doc)]);
  assert.match(
    errors[0]!.message,
    /spec\.failover\.cluster\.statePreservation\.rules\[0\]\.jsonPath: .*has no \{…\} path/,
  );
});
