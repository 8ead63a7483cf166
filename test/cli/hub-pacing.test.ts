// The hub's doorbell pacing wired from the forge's budget (cli/commands/hub-pacing.ts): clusters
// whose branches live in a render repository fetch on that repository's timeline, at the rate
// its own readers leave of GitHub's budget, one read a ring; the others, and every start, on the
// fleet repository's, at the rate every reader leaves, two reads a ring.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hubPacing } from '../../src/cli/commands/hub-pacing.js';
import { forgeBudget } from '../../src/core/budget/forge-budget.js';
import { ringsPerSecond } from '../../src/core/budget/plan-pacing.js';

test('a render repository of 6 readers rings at its own rate; a cluster on the fleet repository takes the default timeline', () => {
  const located = new Map<string, string>([
    ...Array.from({ length: 6 }, (_, k) => [`r${k}`, 'https://forge.example/render-1.git'] as const),
    ['r6', 'https://forge.example/render-2.git'] as const,
  ]);
  const render = {
    branchRepositoryOf: (cluster: string) => {
      const url = located.get(cluster);
      return url === undefined
        ? undefined
        : { url, branches: [...located.values()].filter((u) => u === url).length };
    },
  };
  const { pacing } = hubPacing({
    forge: 'github',
    readers: 1000,
    clusters: () => undefined,
    render,
    now: () => 0,
  });
  const github = forgeBudget('github');
  assert.equal(
    pacing?.ringsPerSecond,
    ringsPerSecond(github, 1000, 300),
    'the fleet repository: every reader',
  );
  // A ring there costs one read (the head it names, fetched alone): 11 a second for 6 readers,
  // where the fleet repository's two reads a ring would allow 5.
  assert.deepEqual(pacing?.timelineOf?.('r0'), { key: 'https://forge.example/render-1.git', perSecond: 11 });
  assert.equal(ringsPerSecond(github, 6, 300), 5);
  assert.equal(pacing?.timelineOf?.('r6')?.key, 'https://forge.example/render-2.git');
  assert.equal(pacing?.timelineOf?.('fleet-only'), undefined);
  // A start reads the fleet repository twice (the branch, or the bindings branch naming where it
  // lives), and takes twice the turns its reads need: a ring's turn is two reads, so 2 turns.
  assert.equal(pacing?.startTurns?.('r0'), 2);
  assert.equal(pacing?.startTurns?.('fleet-only'), 2);
  assert.ok(
    pacing!.timelineOf!('r0')!.perSecond > pacing!.ringsPerSecond!,
    'fewer readers, more turns a second',
  );
});

test('without render repositories there is one timeline', () => {
  const { pacing } = hubPacing({ forge: 'github', readers: 100, clusters: () => undefined, now: () => 0 });
  assert.equal(pacing?.timelineOf, undefined);
});
