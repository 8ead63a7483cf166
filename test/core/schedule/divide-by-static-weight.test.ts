import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StaticClusterWeight } from '../../../src/core/model/propagation-policy.js';
import { divideByStaticWeight } from '../../../src/core/schedule/divide-by-static-weight.js';
import { aCluster } from '../builders.js';

const clusters = [
  aCluster('member1', { labels: { tier: 'gold' } }),
  aCluster('member2', { labels: { tier: 'gold' } }),
  aCluster('member3', { labels: { tier: 'bronze' } }),
];

function byNames(names: string[], weight: number): StaticClusterWeight {
  return { targetCluster: { clusterNames: names }, weight };
}

const cases: {
  name: string;
  given: { replicas: number; list: StaticClusterWeight[] | undefined };
  want: string;
}[] = [
  {
    name: 'Each cluster weighs the largest weight of the rules that match it.',
    given: {
      replicas: 10,
      list: [
        byNames(['member1'], 1),
        { targetCluster: { labelSelector: { matchLabels: { tier: 'gold' } } }, weight: 2 },
        byNames(['member3'], 1),
      ],
    },
    want: 'member1:4 member2:4 member3:2',
  },
  {
    name: 'A cluster matched by no rule weighs 0 and is left out.',
    given: { replicas: 9, list: [byNames(['member1'], 1), byNames(['member2'], 2)] },
    want: 'member1:3 member2:6',
  },
  {
    name: 'When no cluster matches any rule every cluster weighs 1.',
    given: { replicas: 6, list: [byNames(['elsewhere'], 3)] },
    want: 'member1:2 member2:2 member3:2',
  },
  {
    name: 'Without a static weight list every cluster weighs 1.',
    given: { replicas: 3, list: undefined },
    want: 'member1:1 member2:1 member3:1',
  },
  {
    name: 'A weighted cluster too small for a replica is listed with 0.',
    given: { replicas: 1, list: [byNames(['member1'], 5), byNames(['member2'], 1)] },
    want: 'member1:1 member2:0',
  },
];

for (const { name, given, want } of cases) {
  test(name, () => {
    const got = divideByStaticWeight({
      replicas: given.replicas,
      clusters,
      staticWeightList: given.list,
      key: 'a',
    });
    assert.equal(got.map((c) => `${c.name}:${c.replicas}`).join(' '), want);
  });
}
