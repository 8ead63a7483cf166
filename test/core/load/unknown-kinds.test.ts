import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet } from '../../../src/core/load/load-fleet.js';
import { fileOf } from './documents.js';

const doc = (apiVersion: string, kind: string, spec: unknown = {}) => ({
  apiVersion,
  kind,
  metadata: { name: 'web', namespace: 'default' },
  spec,
});

interface Row {
  name: string;
  given: Record<string, unknown>;
  /** The message wanted; undefined when the document must load. */
  want: RegExp | undefined;
}

const rows: Row[] = [
  {
    name: 'A kind misspelled in policy.karmada.io is an error that suggests the kind meant.',
    given: doc('policy.karmada.io/v1alpha1', 'PropagationPolicie'),
    want: /^PropagationPolicie\/web: no matches for kind PropagationPolicie in policy\.karmada\.io\/v1alpha1; did you mean PropagationPolicy\?$/,
  },
  {
    name: 'A version policy.karmada.io does not have is an error that lists the versions it has.',
    given: doc('policy.karmada.io/v1alpha2', 'PropagationPolicy'),
    want: /^PropagationPolicy\/web: policy\.karmada\.io\/v1alpha2 is not a version gitfleet knows; known: v1alpha1$/,
  },
  {
    name: "A version of gitfleet's own group it does not have is an error for a RolloutStrategy.",
    given: doc('gitfleet.io/v1beta1', 'RolloutStrategy'),
    want: /gitfleet\.io\/v1beta1 is not a version gitfleet knows; known: v1alpha1/,
  },
  {
    name: 'A kind in cluster.karmada.io with a wrong case is suggested with its right case.',
    given: { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'cluster', metadata: { name: 'm1' } },
    want: /no matches for kind cluster in cluster\.karmada\.io\/v1alpha1; did you mean Cluster\?/,
  },
  {
    name: 'A kind far from every kind of work.karmada.io is an error without a suggestion.',
    given: doc('work.karmada.io/v1alpha2', 'Gadget'),
    want: /^Gadget\/web: no matches for kind Gadget in work\.karmada\.io\/v1alpha2$/,
  },
  {
    name: 'A kind that exists in another version of the group says which versions serve it.',
    given: doc('work.karmada.io/v1alpha2', 'Work'),
    want: /no matches for kind Work in work\.karmada\.io\/v1alpha2 \(it is served in v1alpha1\)/,
  },
  {
    name: 'A kind of networking.karmada.io in the wrong group version names the group.',
    given: doc('networking.karmada.io/v1', 'MultiClusterService'),
    want: /networking\.karmada\.io\/v1 is not a version gitfleet knows; known: v1alpha1/,
  },
  {
    name: 'A Karmada kind gitfleet does not act on (FederatedHPA) still loads, to be skipped.',
    given: doc('autoscaling.karmada.io/v1alpha1', 'FederatedHPA'),
    want: undefined,
  },
  {
    name: 'A template of a group gitfleet does not interpret stays a template, whatever its version.',
    given: doc('apps/v9', 'Deployments'),
    want: undefined,
  },
  {
    name: 'A custom resource of a group merely ending in karmada.io stays a template.',
    given: doc('example.notkarmada.io/v1', 'Widget'),
    want: undefined,
  },
];

for (const row of rows) {
  test(row.name, () => {
    const result = loadFleet([fileOf('fleet/web.yaml', row.given)]);
    if (row.want === undefined) {
      assert.equal(result.ok, true, result.ok ? '' : JSON.stringify(result.errors));
      return;
    }
    assert.equal(result.ok, false, 'the document loaded');
    if (result.ok) return;
    assert.equal(result.errors.length, 1, JSON.stringify(result.errors));
    const [error] = result.errors;
    assert.equal(error?.code, 'UnknownKind');
    assert.equal(error?.file, 'fleet/web.yaml');
    assert.equal(error?.index, 0);
    assert.match(error?.message ?? '', row.want);
  });
}
