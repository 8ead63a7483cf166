import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Binding, TargetCluster } from '../../../src/core/model/binding.js';
import { describePlacement } from '../../../src/core/review/describe-placement.js';
import { diffPlacement, type PlacementDiff } from '../../../src/core/review/diff-placement.js';
import { aPlacement } from '../builders.js';

/** A scheduled binding of Deployment shop/<name> (or NoFit when `clusters` is null). */
function aBinding(name: string, clusters: TargetCluster[] | null): Binding {
  return {
    name: `${name}-deployment`,
    resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name },
    key: `apps/Deployment/shop/${name}`,
    origin: 'policy',
    replicas: 6,
    placement: aPlacement(),
    propagateDeps: false,
    conflictResolution: 'Abort',
    preserveResourcesOnDeletion: false,
    schedule:
      clusters === null
        ? { type: 'NoFit', diagnosis: [], message: 'no cluster fits' }
        : { type: 'Scheduled', clusters },
    requiredBy: [],
    overrides: 'all',
  };
}

const on = (...pairs: [string, number][]): TargetCluster[] =>
  pairs.map(([name, replicas]) => ({ name, replicas }));
const none: PlacementDiff = { moved: [], replicas: [], placed: [], unplaced: [] };

const cases: { name: string; given: { base: Binding[]; head: Binding[] }; want: PlacementDiff }[] = [
  {
    name: 'The same bindings on both sides change nothing.',
    given: {
      base: [aBinding('web', on(['a', 3], ['b', 3]))],
      head: [aBinding('web', on(['b', 3], ['a', 3]))],
    },
    want: none,
  },
  {
    name: 'A replica count that changes on a cluster kept on both sides is a replica change.',
    given: {
      base: [aBinding('web', on(['a', 5], ['b', 5]))],
      head: [aBinding('web', on(['a', 6], ['b', 5]))],
    },
    want: { ...none, replicas: [{ template: 'Deployment/shop/web', cluster: 'a', from: 5, to: 6 }] },
  },
  {
    name: 'A template whose cluster set changes has moved, and replicas on the clusters it kept are compared.',
    given: {
      base: [aBinding('web', on(['a', 3], ['b', 3]))],
      head: [aBinding('web', on(['a', 2], ['c', 4]))],
    },
    want: {
      ...none,
      moved: [{ template: 'Deployment/shop/web', from: ['a', 'b'], to: ['a', 'c'] }],
      replicas: [{ template: 'Deployment/shop/web', cluster: 'a', from: 3, to: 2 }],
    },
  },
  {
    name: 'A new template is newly placed on its clusters.',
    given: { base: [], head: [aBinding('api', on(['b', 1], ['a', 1]))] },
    want: { ...none, placed: [{ template: 'Deployment/shop/api', clusters: ['a', 'b'] }] },
  },
  {
    name: 'A template that fitted nowhere and now fits is newly placed.',
    given: { base: [aBinding('api', null)], head: [aBinding('api', on(['a', 1]))] },
    want: { ...none, placed: [{ template: 'Deployment/shop/api', clusters: ['a'] }] },
  },
  {
    name: 'A removed template is no longer placed on the clusters it had.',
    given: { base: [aBinding('api', on(['a', 1]))], head: [] },
    want: { ...none, unplaced: [{ template: 'Deployment/shop/api', clusters: ['a'] }] },
  },
  {
    name: 'A template that fits nowhere any more is no longer placed.',
    given: { base: [aBinding('api', on(['a', 1]))], head: [aBinding('api', null)] },
    want: { ...none, unplaced: [{ template: 'Deployment/shop/api', clusters: ['a'] }] },
  },
  {
    name: 'A template placed nowhere on either side is not mentioned.',
    given: { base: [aBinding('api', null)], head: [aBinding('api', null)] },
    want: none,
  },
  {
    name: 'Changes are listed in template-key order whatever the order of the bindings.',
    given: {
      base: [aBinding('zeta', on(['a', 1])), aBinding('alpha', on(['a', 1]))],
      head: [aBinding('zeta', on(['a', 2])), aBinding('alpha', on(['a', 3]))],
    },
    want: {
      ...none,
      replicas: [
        { template: 'Deployment/shop/alpha', cluster: 'a', from: 1, to: 3 },
        { template: 'Deployment/shop/zeta', cluster: 'a', from: 1, to: 2 },
      ],
    },
  },
];

for (const { name, given, want } of cases) {
  test(name, () => assert.deepEqual(diffPlacement(given), want));
}

test('replica changes read as one line per template, moves as from → to', () => {
  const lines = describePlacement({
    moved: [{ template: 'Deployment/shop/web', from: ['a', 'b'], to: ['a'] }],
    replicas: [
      { template: 'Deployment/shop/web', cluster: 'aws-eu', from: 5, to: 6 },
      { template: 'Deployment/shop/web', cluster: 'gcp-eu', from: 5, to: 4 },
    ],
    placed: [{ template: 'Deployment/shop/api', clusters: ['a'] }],
    unplaced: [{ template: 'Deployment/shop/old', clusters: ['b'] }],
  });
  assert.deepEqual(
    lines.map((l) => `${l.kind} ${l.template}: ${l.text}`),
    [
      'moved Deployment/shop/web: a, b → a',
      'replicas Deployment/shop/web: aws-eu 5→6, gcp-eu 5→4',
      'placed Deployment/shop/api: on a',
      'unplaced Deployment/shop/old: was on b, now on none',
    ],
  );
});
