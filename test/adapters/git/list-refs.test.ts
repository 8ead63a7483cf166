// Listing refs under a prefix as git sees them, checked against git's own for-each-ref.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listRefNames, listRefs } from '../../../src/adapters/git/list-refs.js';
import { git, makeRepo, removeRepos } from './git-repo-fixture.js';

after(removeRepos);

test('Refs under a prefix are listed loose and packed, sorted, as git lists them; a lock file is no ref, a symbolic ref is listed by name', async () => {
  const repo = makeRepo({ bare: true });
  const commit = git(repo, ['commit-tree', '-m', 'one', git(repo, ['mktree'])]);
  for (const name of ['refs/remotes/origin/b', 'refs/remotes/origin/a/x', 'refs/heads/main'])
    git(repo, ['update-ref', name, commit]);
  git(repo, ['pack-refs', '--all']);
  git(repo, ['update-ref', 'refs/remotes/origin/c', commit]); // loose, beside the packed ones
  git(repo, ['symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/b']);
  writeFileSync(join(repo.gitdir, 'refs/remotes/origin/d.lock'), `${commit}\n`);
  const names = await listRefNames(repo.gitdir, 'refs/remotes/origin/');
  const byGit = git(repo, ['for-each-ref', '--format=%(refname)', 'refs/remotes/origin/']).split('\n');
  assert.deepEqual(names, [...byGit].sort());
  assert.deepEqual(names, [
    'refs/remotes/origin/HEAD',
    'refs/remotes/origin/a/x',
    'refs/remotes/origin/b',
    'refs/remotes/origin/c',
  ]);
  assert.deepEqual([...(await listRefs(repo.gitdir, 'refs/heads/'))], [['refs/heads/main', commit]]);
  assert.deepEqual(await listRefNames(repo.gitdir, 'refs/tags/'), []);
});
