import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { watchLocalRefs } from '../../../src/loops/runtime/watch-local-refs.js';
import { commitChange, exampleFleetRepo, git, hubPass, removeFleetRepos } from '../hub/hub-fixture.js';
import { eventually } from '../../support/eventually.js';

after(removeFleetRepos);

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

for (const bare of [false, true]) {
  test(`a commit on the source branch of ${bare ? 'a bare repository (pushed)' : 'a work tree'} fires the trigger; the hub's own writes do not`, async () => {
    const repo = exampleFleetRepo({ bare });
    const reasons: string[] = [];
    const trigger = watchLocalRefs({ gitdir: repo.gitdir, sourceRef: 'main' });
    await trigger.start((reason) => reasons.push(reason));
    try {
      await hubPass(repo);
      await settle();
      assert.deepEqual(reasons, [], 'writing gitfleet/* branches is not a source change');
      commitChange(repo, 'change', (work) => writeFileSync(join(work, 'NOTES.md'), 'x\n'));
      await eventually(() => reasons.length > 0, 'the ref event');
      assert.match(reasons[0]!, /refs\/heads\/main changed$/);
    } finally {
      await trigger.stop();
    }
  });
}

test('packing the refs (git gc, git pack-refs) fires the trigger too', async () => {
  const repo = exampleFleetRepo({ bare: true });
  const reasons: string[] = [];
  const trigger = watchLocalRefs({ gitdir: repo.gitdir, sourceRef: 'refs/heads/main' });
  await trigger.start((reason) => reasons.push(reason));
  try {
    git(repo, ['pack-refs', '--all']);
    await eventually(
      () => reasons.some((r) => r.endsWith('refs/heads/main changed')),
      'the packed-refs event',
    );
  } finally {
    await trigger.stop();
  }
});

test('given the branch prefix, an agent pushing its status branch fires the trigger; the hub’s cluster and bindings branches still do not', async () => {
  const repo = exampleFleetRepo({ bare: true });
  const reasons: string[] = [];
  const trigger = watchLocalRefs({ gitdir: repo.gitdir, sourceRef: 'main', branchPrefix: 'gitfleet/' });
  await trigger.start((reason) => reasons.push(reason));
  try {
    await hubPass(repo);
    await settle();
    assert.deepEqual(reasons, [], 'the hub’s own writes');
    const tree = git(repo, ['mktree'], { input: '' });
    const commit = git(repo, ['commit-tree', tree, '-m', 'status']);
    git(repo, ['update-ref', 'refs/heads/gitfleet/status/onprem-gpu', commit]);
    await eventually(() => reasons.length > 0, 'the status branch event');
    assert.match(reasons[0]!, /refs\/heads\/gitfleet\/status\/onprem-gpu changed$/);
  } finally {
    await trigger.stop();
  }
});
