import assert from 'node:assert/strict';
import { test } from 'node:test';
import { selectGroups, type GroupInfo } from '../../../src/core/schedule/select-groups.js';

function g(name: string, value: number, weight: number): GroupInfo {
  return { name, value, weight };
}

const cases: {
  name: string;
  given: { groups: GroupInfo[]; minGroups: number; maxGroups: number; targetClusters: number };
  want: string[] | undefined;
}[] = [
  {
    name: 'Among equally scored pairs the pair holding the most clusters wins.',
    given: {
      groups: [g('r2', 2, 100), g('r3', 3, 100), g('r6', 6, 100), g('r7', 7, 100)],
      minGroups: 2,
      maxGroups: 2,
      targetClusters: 7,
    },
    want: ['r6', 'r7'],
  },
  {
    name: 'The pair with the highest summed score wins over one holding more clusters.',
    given: {
      groups: [g('r2', 2, 500), g('r3', 3, 100), g('r6', 6, 400), g('r7', 7, 100)],
      minGroups: 2,
      maxGroups: 2,
      targetClusters: 7,
    },
    want: ['r2', 'r6'],
  },
  {
    name: 'A shorter set that leads the best set wins: fewer groups when they suffice.',
    given: { groups: [g('a', 2, 300), g('b', 1, 200)], minGroups: 1, maxGroups: 2, targetClusters: 2 },
    want: ['a'],
  },
  {
    name: 'Groups too small together for the cluster target give no selection.',
    given: { groups: [g('a', 1, 100), g('b', 1, 100)], minGroups: 1, maxGroups: 2, targetClusters: 3 },
    want: undefined,
  },
  {
    name: 'A maxGroups of 0 selects nothing.',
    given: { groups: [g('a', 3, 100)], minGroups: 1, maxGroups: 0, targetClusters: 1 },
    want: undefined,
  },
  {
    name: 'When every group is needed for minGroups, all are taken.',
    given: {
      groups: [g('a', 1, 100), g('b', 1, 300), g('c', 1, 200)],
      minGroups: 3,
      maxGroups: 3,
      targetClusters: 1,
    },
    want: ['b', 'c', 'a'],
  },
];

for (const { name, given, want } of cases) {
  test(name, () => {
    assert.deepEqual(
      selectGroups(given)?.map((group) => group.name),
      want,
    );
  });
}
