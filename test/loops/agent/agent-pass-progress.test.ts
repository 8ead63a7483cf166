import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commitClusterBranch } from '../../support/cluster-branch.js';
import { aConfigMap, aNamespace } from '../../support/kube-objects.js';
import { fakeAgent } from './fake-agent.js';

test('a pass tells its progress after each object, up to every object of the branch', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  const names = Array.from({ length: 40 }, (_, i) => `c${i}`);
  await commitClusterBranch(agent.gitdir, agent.cluster, [
    aNamespace('shop'),
    ...names.map((n) => aConfigMap('shop', n, { n })),
  ]);
  const seen: [number, number][] = [];
  const result = await agent.pass({ progress: (done, total) => seen.push([done, total]) });
  assert.equal(result.objects.length, 41);
  assert.deepEqual(
    seen,
    Array.from({ length: 41 }, (_, i) => [i + 1, 41]),
  );
});
