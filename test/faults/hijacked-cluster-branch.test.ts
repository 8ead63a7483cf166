// Fault: a cluster branch force-moved by someone else (to an unrelated commit, or to a hand
// edit) must be put back to the hub's render by the next pass, even with no new source commit;
// the guard judges the render against what the hub last wrote there, not the foreign tree.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  branchFiles,
  exampleFleetRepo,
  git,
  hubPass,
  hubRefs,
  removeFleetRepos,
  renderedByCli,
  rendered,
  type FleetRepo,
} from '../loops/hub/hub-fixture.js';

after(removeFleetRepos);

const ref = 'refs/heads/gitfleet/clusters/aws-eu-prod';

/** Returns a commit with no parent whose tree holds one file that is not the cluster's. */
function unrelatedCommit(repo: FleetRepo): string {
  const blob = git(repo, ['hash-object', '-w', '--stdin'], { input: 'kind: Junk\n' });
  const tree = git(repo, ['mktree'], { input: `100644 blob ${blob}\tjunk.yaml\n` });
  return git(repo, ['commit-tree', tree, '-m', 'not the hub']);
}

for (const bare of [false, true]) {
  test(`a cluster branch force-moved to an unrelated commit is put back by the next pass (${bare ? 'bare' : 'work tree'})`, async () => {
    const repo = exampleFleetRepo({ bare });
    rendered(await hubPass(repo));
    const last = hubRefs(repo).get(ref)!;
    const hijack = unrelatedCommit(repo);
    git(repo, ['update-ref', ref, hijack]);
    const result = rendered(await hubPass(repo));
    assert.equal(result.clusters['aws-eu-prod']?.type, 'updated');
    assert.deepEqual(result.diagnostics, []);
    const expected = await renderedByCli(repo);
    assert.deepEqual(branchFiles(repo, ref), expected.get('aws-eu-prod'));
    const message = git(repo, ['log', '-1', '--format=%B', ref]);
    assert.match(message, new RegExp(`found at ${hijack}, not at ${last}`));
    assert.match(message, new RegExp(`^Gitfleet-Restored-From: ${hijack}$`, 'm'));
    // A fast-forward of what was there: the foreign commit stays in the history, named.
    assert.equal(git(repo, ['rev-parse', `${ref}^`]), hijack);
    const others = [...hubRefs(repo)].filter(([r]) => r !== ref && r.includes('/clusters/'));
    assert.ok(others.length >= 4);
    git(repo, ['fsck', '--strict']);
    // Converged: the next pass has nothing to do.
    const refs = hubRefs(repo);
    assert.equal((await hubPass(repo)).type, 'upToDate');
    assert.deepEqual(hubRefs(repo), refs);
  });
}

test('a hand edit on a cluster branch is undone: the branch gets the render again', async () => {
  const repo = exampleFleetRepo({ bare: false });
  rendered(await hubPass(repo));
  const path = 'shop/Deployment.apps/api.yaml';
  const before = branchFiles(repo, ref);
  const blob = git(repo, ['hash-object', '-w', '--stdin'], { input: 'edited by hand\n' });
  // In an index of its own, so the work tree's is not touched.
  const env = { GIT_INDEX_FILE: join(repo.gitdir, 'hand-edit-index') };
  git(repo, ['read-tree', ref], { env });
  git(repo, ['update-index', '--cacheinfo', `100644,${blob},${path}`], { env });
  const tree = git(repo, ['write-tree'], { env });
  git(repo, ['update-ref', ref, git(repo, ['commit-tree', tree, '-p', ref, '-m', 'hand edit'])]);
  const result = rendered(await hubPass(repo));
  assert.equal(result.clusters['aws-eu-prod']?.type, 'updated');
  assert.deepEqual(branchFiles(repo, ref), before);
});
