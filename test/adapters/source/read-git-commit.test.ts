import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readDirectorySource } from '../../../src/adapters/source/read-directory.js';
import { GitSourceError, readGitSource } from '../../../src/adapters/source/read-git-commit.js';
import { cleanup, commitAll, git, initRepo, link, tempDir, writeFiles } from './git-fixture.js';

after(cleanup);

const fleetFiles = {
  'apps/web.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\n',
  'apps/api/deploy.yml': 'kind: Deployment\n',
  'clusters/m\u00fc.yaml': 'kind: Cluster # non-ASCII path and text: \u00e9\n',
  'z-last.yaml': '\uFEFFkind: WithByteOrderMark\n',
};
const notFleetFiles = {
  'README.md': '# not fleet\n',
  'apps/values.json': '{}\n',
  '.github/workflows/ci.yaml': 'on: push\n',
  '.gitlab-ci.yml': 'stages: []\n',
  'apps/.hidden/x.yaml': 'kind: Hidden\n',
};
const expected = [
  { path: 'apps/api/deploy.yml', content: 'kind: Deployment\n' },
  { path: 'apps/web.yaml', content: fleetFiles['apps/web.yaml'] },
  { path: 'clusters/m\u00fc.yaml', content: fleetFiles['clusters/m\u00fc.yaml'] },
  { path: 'z-last.yaml', content: 'kind: WithByteOrderMark\n' },
];

/** A repo holding the fleet files, files that are not fleet documents, a link out of the tree and a submodule. */
function fleetRepo(): { dir: string; commit: string } {
  const dir = initRepo();
  writeFiles(dir, { ...fleetFiles, ...notFleetFiles });
  link(dir, 'apps/passwd.yaml', '/etc/passwd');
  link(dir, 'linked-dir', '/etc');
  git(dir, 'add', '-A');
  // A submodule entry (a gitlink) without the submodule itself: it must be skipped, not read.
  git(dir, 'update-index', '--add', '--cacheinfo', `160000,${'1'.repeat(40)},vendor/sub.yaml`);
  git(dir, 'commit', '-q', '-m', 'fleet');
  return { dir, commit: git(dir, 'rev-parse', 'HEAD') };
}

test('A commit of a non-bare repository is read from git objects: fleet files only, sorted, UTF-8 decoded.', async () => {
  const { dir, commit } = fleetRepo();
  const read = await readGitSource({ dir });
  assert.equal(read.commit, commit);
  assert.deepEqual(read.files, expected);
});

test('A bare repository is read the same way, HEAD by default.', async () => {
  const { dir, commit } = fleetRepo();
  const bare = join(tempDir('bare'), 'fleet.git');
  git(dir, 'clone', '-q', '--bare', dir, bare);
  const read = await readGitSource({ dir: bare });
  assert.equal(read.commit, commit);
  assert.deepEqual(read.files, expected);
});

test('The same tree read from its directory gives an identical list of files.', async () => {
  const { dir } = fleetRepo();
  const fromGit = await readGitSource({ dir });
  const fromDirectory = await readDirectorySource(dir);
  assert.deepEqual(fromDirectory, fromGit.files);
});

test('Branches, full refs, tags (light and annotated), full and abbreviated ids all resolve to their commit.', async () => {
  const dir = initRepo();
  writeFiles(dir, { 'a.yaml': 'v: 1\n' });
  const first = commitAll(dir, 'one');
  git(dir, 'tag', 'light');
  git(dir, 'tag', '-a', 'annotated', '-m', 'release');
  git(dir, 'branch', 'old');
  writeFiles(dir, { 'a.yaml': 'v: 2\n' });
  const second = commitAll(dir, 'two');
  const rows: { ref: string; want: string }[] = [
    { ref: 'HEAD', want: second },
    { ref: 'main', want: second },
    { ref: 'refs/heads/old', want: first },
    { ref: 'old', want: first },
    { ref: 'light', want: first },
    { ref: 'annotated', want: first },
    { ref: first, want: first },
    { ref: first.slice(0, 7), want: first },
    { ref: second.slice(0, 10).toUpperCase(), want: second },
  ];
  for (const row of rows) {
    const read = await readGitSource({ dir, ref: row.ref });
    assert.equal(read.commit, row.want, `ref ${row.ref}`);
    assert.deepEqual(
      read.files,
      [{ path: 'a.yaml', content: row.want === first ? 'v: 1\n' : 'v: 2\n' }],
      `ref ${row.ref}`,
    );
  }
});

test('A ref that does not exist is a RefNotFound error naming the ref and the repository.', async () => {
  const dir = initRepo();
  writeFiles(dir, { 'a.yaml': 'v: 1\n' });
  commitAll(dir, 'one');
  for (const ref of ['nope', 'deadbeef', '0'.repeat(40)]) {
    await assert.rejects(readGitSource({ dir, ref }), (e: unknown) => {
      assert.ok(e instanceof GitSourceError);
      assert.equal(e.code, 'RefNotFound');
      assert.ok(e.message.startsWith(`revision '${ref}' in ${dir}: names no commit (`), e.message);
      return true;
    });
  }
});

test('A ref naming something other than a commit is a NotACommit error.', async () => {
  const dir = initRepo();
  writeFiles(dir, { 'a.yaml': 'v: 1\n' });
  commitAll(dir, 'one');
  const tree = git(dir, 'rev-parse', 'HEAD^{tree}');
  await assert.rejects(readGitSource({ dir, ref: tree }), { code: 'NotACommit' });
});

test('A directory that is not a git repository is a NotAGitRepository error.', async () => {
  const dir = tempDir('plain');
  await assert.rejects(readGitSource({ dir }), { code: 'NotAGitRepository' });
});

test('Files stored in packfiles (after git gc) are read too, including an older commit.', async () => {
  const dir = initRepo();
  const many: Record<string, string> = {};
  for (let i = 0; i < 150; i++)
    many[`apps/team-${i % 7}/app-${i}.yaml`] = `kind: ConfigMap\nmetadata: {name: app-${i}}\n`;
  writeFiles(dir, many);
  const first = commitAll(dir, 'many');
  writeFiles(dir, { 'apps/team-0/app-0.yaml': 'changed: true\n' });
  commitAll(dir, 'change one');
  git(dir, 'gc', '-q', '--aggressive', '--prune=now');
  assert.deepEqual(
    readdirSync(join(dir, '.git', 'objects')).filter((d) => /^[0-9a-f]{2}$/.test(d)),
    [],
    'no loose objects left',
  );
  const head = await readGitSource({ dir });
  assert.equal(head.files.length, 150);
  assert.equal(head.files.find((f) => f.path === 'apps/team-0/app-0.yaml')?.content, 'changed: true\n');
  const old = await readGitSource({ dir, ref: first.slice(0, 8) });
  assert.deepEqual(
    old.files,
    Object.entries(many)
      .map(([path, content]) => ({ path, content }))
      .sort((a, b) => (a.path < b.path ? -1 : 1)),
  );
});
