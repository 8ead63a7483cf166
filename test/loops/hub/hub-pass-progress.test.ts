import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { exampleFleetRepo, git, hubPass, removeFleetRepos, rendered } from './hub-fixture.js';

after(removeFleetRepos);

test('a hub pass tells its render progress after each template, up to every template it binds', async () => {
  const repo = exampleFleetRepo({ bare: true });
  const seen: [number, number][] = [];
  const result = rendered(await hubPass(repo, { progress: (done, total) => seen.push([done, total]) }));
  assert.equal(result.bindings.type, 'updated');
  // One record per binding, besides the FederatedResourceQuotas' status records (.gitfleet/quotas/).
  const quotas = git(repo, [
    'ls-tree',
    '-r',
    '--name-only',
    'refs/heads/gitfleet/bindings',
    '.gitfleet/quotas/',
  ])
    .split('\n')
    .filter((line) => line !== '').length;
  const records = (result.bindings.type === 'updated' ? result.bindings.records : 0) - quotas;
  assert.ok(quotas > 0, 'the example fleet has a FederatedResourceQuota');
  assert.deepEqual(
    seen,
    Array.from({ length: records }, (_, i) => [i + 1, records]),
  );
});
