// suggestField: the valid field an unknown one most likely meant.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { suggestField } from '../../../src/core/load/schema/suggest-field.js';

const placementFields = [
  'clusterAffinity',
  'clusterAffinities',
  'clusterTolerations',
  'spreadConstraints',
  'replicaScheduling',
  'workloadAffinity',
];

const rows: { name: string; given: { unknown: string; valid: string[] }; want: string | undefined }[] = [
  {
    name: 'One letter missing is one edit.',
    given: { unknown: 'clusterAfinity', valid: placementFields },
    want: 'clusterAffinity',
  },
  {
    name: 'A field in another case is matched before any field a few edits away.',
    given: { unknown: 'ClusterAffinities', valid: placementFields },
    want: 'clusterAffinities',
  },
  {
    name: 'Two letters swapped are one edit.',
    given: { unknown: 'clusterTolreations', valid: placementFields },
    want: 'clusterTolerations',
  },
  {
    name: 'Between two near fields, the nearer wins (clusterAffinitie is one edit from clusterAffinities, two from clusterAffinity).',
    given: { unknown: 'clusterAffinitie', valid: placementFields },
    want: 'clusterAffinities',
  },
  {
    name: 'Case does not count as an edit (ReplicaSchedulng).',
    given: { unknown: 'ReplicaSchedulng', valid: placementFields },
    want: 'replicaScheduling',
  },
  {
    name: 'A word far from every field has no suggestion.',
    given: { unknown: 'rollout', valid: placementFields },
    want: undefined,
  },
  {
    name: 'A short word needs to be within one edit.',
    given: { unknown: 'spc', valid: ['spec', 'status'] },
    want: 'spec',
  },
  {
    name: 'A short word two edits away has no suggestion.',
    given: { unknown: 'foo', valid: ['spec', 'kind'] },
    want: undefined,
  },
  { name: 'No valid fields, no suggestion.', given: { unknown: 'spec', valid: [] }, want: undefined },
];

for (const row of rows) {
  test(row.name, () => assert.equal(suggestField(row.given.unknown, row.given.valid), row.want));
}
