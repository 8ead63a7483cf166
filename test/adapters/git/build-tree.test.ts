import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTree, type TreeChange } from '../../../src/adapters/git/build-tree.js';
import { buildTreeFromScratch } from '../../../src/adapters/git/build-tree-from-scratch.js';
import { emptyTreeOid } from '../../../src/adapters/git/git-object.js';
import { GitWriteError } from '../../../src/adapters/git/git-write-error.js';
import { toGitObject } from '../../../src/adapters/git/hash-object.js';
import { writePack } from '../../../src/adapters/git/write-pack.js';
import { git, gitTreeOf, makeRepo, removeRepos, type TestRepo } from './git-repo-fixture.js';

after(removeRepos);

const blob = (text: string): string => toGitObject('blob', Buffer.from(text)).oid;

/** A cluster-branch layout: <namespace>/<Kind>/<name>.yaml, 3 namespaces x 2 kinds x 50 names. */
function clusterFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const ns of ['default', 'shop', 'team-a']) {
    for (const kind of ['ConfigMap', 'Deployment.apps']) {
      for (let i = 0; i < 50; i++) files.set(`${ns}/${kind}/app-${i}.yaml`, blob(`${ns} ${kind} ${i}\n`));
    }
  }
  return files;
}

/** Writes the tree of the files into a fresh repository and returns both. */
async function repoWithTree(files: ReadonlyMap<string, string>): Promise<{ repo: TestRepo; root: string }> {
  const repo = makeRepo({ bare: false });
  const built = buildTreeFromScratch(files);
  await writePack({ gitdir: repo.gitdir, objects: built.newObjects });
  return { repo, root: built.root };
}

/** Every tree under a root, path -> id, as git lists them. */
function subtrees(repo: TestRepo, root: string): Map<string, string> {
  const lines = git(repo, ['ls-tree', '-r', '-t', '-d', root]).split('\n').filter(Boolean);
  return new Map(lines.map((l) => [l.split('\t')[1]!, l.split(' ')[2]!.split('\t')[0]!]));
}

const orderCases: { name: string; given: string[] }[] = [
  {
    name: 'Entries are ordered as git orders them: a directory compares as if its name ended in "/".',
    given: ['a.b', 'a/b', 'a-b', 'a0', 'a/c/d', 'A', 'z', 'a/b.c', 'a/b-c'],
  },
  {
    name: 'Non-ASCII names are ordered by their UTF-8 bytes, characters beyond U+FFFF after U+FF5A.',
    given: ['ｚ.yaml', '😀.yaml', 'é.yaml', 'e.yaml', 'ｚ/x', '😀/y'],
  },
  { name: 'A single file at the root builds the tree git builds.', given: ['README.yaml'] },
  { name: 'A realistic cluster layout builds the tree git builds.', given: [...clusterFiles().keys()] },
];

for (const { name, given } of orderCases) {
  test(name, () => {
    const files = new Map(given.map((path) => [path, blob(path)]));
    assert.equal(buildTreeFromScratch(files).root, gitTreeOf(makeRepo({ bare: false }), files));
  });
}

test('An empty file set builds the empty tree.', () => {
  assert.equal(buildTreeFromScratch(new Map()).root, emptyTreeOid);
});

test('Changing one file rewrites only the trees on its path and reuses every other subtree.', async () => {
  const files = clusterFiles();
  const { repo, root } = await repoWithTree(files);
  const change = { path: 'shop/ConfigMap/app-7.yaml', oid: blob('changed\n') };
  const built = await buildTree({ gitdir: repo.gitdir, base: root, changes: [change] });
  files.set(change.path, change.oid);
  assert.equal(built.root, gitTreeOf(repo, files));
  assert.equal(built.newObjects.length, 3);
  await writePack({ gitdir: repo.gitdir, objects: built.newObjects });
  const [before, after] = [subtrees(repo, root), subtrees(repo, built.root)];
  const rewritten = [...after.keys()].filter((path) => after.get(path) !== before.get(path));
  assert.deepEqual(rewritten, ['shop', 'shop/ConfigMap']);
  assert.equal(after.size, before.size);
});

test('Deleting the last file of a directory removes the directory, and its parent when that empties too.', async () => {
  const files = new Map([
    ['shop/ConfigMap/only.yaml', blob('1')],
    ['team-a/Service/a.yaml', blob('2')],
    ['team-a/ConfigMap/b.yaml', blob('3')],
  ]);
  const { repo, root } = await repoWithTree(files);
  const built = await buildTree({
    gitdir: repo.gitdir,
    base: root,
    changes: [
      { path: 'shop/ConfigMap/only.yaml', oid: null },
      { path: 'team-a/Service/a.yaml', oid: null },
    ],
  });
  assert.equal(built.root, buildTreeFromScratch(new Map([['team-a/ConfigMap/b.yaml', blob('3')]])).root);
  await writePack({ gitdir: repo.gitdir, objects: built.newObjects });
  assert.equal(
    git(repo, ['ls-tree', '-r', '-t', '--name-only', built.root]),
    'team-a\nteam-a/ConfigMap\nteam-a/ConfigMap/b.yaml',
  );
});

test('Deleting every file leaves the empty tree, which is written so readers find it.', async () => {
  const files = new Map([
    ['a/b.yaml', blob('1')],
    ['c.yaml', blob('2')],
  ]);
  const { repo, root } = await repoWithTree(files);
  const built = await buildTree({
    gitdir: repo.gitdir,
    base: root,
    changes: [...files.keys()].map((path) => ({ path, oid: null })),
  });
  assert.equal(built.root, emptyTreeOid);
  assert.deepEqual(
    built.newObjects.map((o) => o.oid),
    [emptyTreeOid],
  );
  await writePack({ gitdir: repo.gitdir, objects: built.newObjects });
  assert.equal(git(repo, ['cat-file', '-t', emptyTreeOid]), 'tree');
});

const noOpCases: { name: string; given: (files: Map<string, string>) => TreeChange[] }[] = [
  {
    name: 'Setting files to the ids they already have gives back the same root and no objects.',
    given: (f) => [...f].slice(0, 5).map(([path, oid]) => ({ path, oid })),
  },
  {
    name: 'Deleting files that do not exist gives back the same root and no objects.',
    given: () => [
      { path: 'nope/ConfigMap/x.yaml', oid: null },
      { path: 'shop/nope.yaml', oid: null },
    ],
  },
  { name: 'An empty change list gives back the same root and no objects.', given: () => [] },
];

for (const { name, given } of noOpCases) {
  test(name, async () => {
    const files = clusterFiles();
    const { repo, root } = await repoWithTree(files);
    assert.deepEqual(await buildTree({ gitdir: repo.gitdir, base: root, changes: given(files) }), {
      root,
      newObjects: [],
    });
  });
}

test('Deleting a directory by its path removes everything under it.', async () => {
  const files = clusterFiles();
  const { repo, root } = await repoWithTree(files);
  const built = await buildTree({
    gitdir: repo.gitdir,
    base: root,
    changes: [{ path: 'team-a', oid: null }],
  });
  for (const path of [...files.keys()]) if (path.startsWith('team-a/')) files.delete(path);
  assert.equal(built.root, buildTreeFromScratch(files).root);
});

test('A file can replace a directory and a directory a file.', async () => {
  const files = new Map([
    ['a/x.yaml', blob('1')],
    ['b', blob('2')],
  ]);
  const { repo, root } = await repoWithTree(files);
  const changes = [
    { path: 'a', oid: blob('3') },
    { path: 'b/y.yaml', oid: blob('4') },
  ];
  const built = await buildTree({ gitdir: repo.gitdir, base: root, changes });
  assert.equal(
    built.root,
    buildTreeFromScratch(
      new Map([
        ['a', blob('3')],
        ['b/y.yaml', blob('4')],
      ]),
    ).root,
  );
});

test('Without a base, the changes alone build the same tree as a build from scratch.', async () => {
  const files = clusterFiles();
  const changes = [...files].map(([path, oid]) => ({ path, oid }));
  const built = await buildTree({ gitdir: makeRepo({ bare: true }).gitdir, base: null, changes });
  assert.equal(built.root, buildTreeFromScratch(files).root);
});

test('Entries of other modes in an unchanged part of a directory keep their mode.', async () => {
  const repo = makeRepo({ bare: false });
  const script = git(repo, ['hash-object', '-w', '--stdin'], '#!/bin/sh\n');
  const target = git(repo, ['hash-object', '-w', '--stdin'], 'target');
  const root = git(repo, ['mktree'], `100755 blob ${script}\trun.sh\n120000 blob ${target}\tlink\n`);
  const built = await buildTree({
    gitdir: repo.gitdir,
    base: root,
    changes: [{ path: 'new.yaml', oid: blob('n') }],
  });
  await writePack({
    gitdir: repo.gitdir,
    objects: [...built.newObjects, toGitObject('blob', Buffer.from('n'))],
  });
  assert.equal(
    git(repo, ['ls-tree', built.root]),
    `120000 blob ${target}\tlink\n100644 blob ${blob('n')}\tnew.yaml\n100755 blob ${script}\trun.sh`,
  );
});

const errorCases: { name: string; given: TreeChange[]; want: string }[] = [
  {
    name: 'The same path changed twice is a conflict.',
    given: [
      { path: 'a.yaml', oid: blob('1') },
      { path: 'a.yaml', oid: null },
    ],
    want: 'PathConflict',
  },
  {
    name: 'A path used as both a file and a directory is a conflict.',
    given: [
      { path: 'a', oid: blob('1') },
      { path: 'a/b', oid: blob('2') },
    ],
    want: 'PathConflict',
  },
  {
    name: 'A directory that is later also a file is a conflict.',
    given: [
      { path: 'a/b', oid: blob('1') },
      { path: 'a', oid: blob('2') },
    ],
    want: 'PathConflict',
  },
  ...['', '/a', 'a/', 'a//b', '../x', 'a/./b', '.git/config', 'x/.GIT/y', 'nul\0byte', 'lone\uD800'].map(
    (path) => ({
      name: `The path ${JSON.stringify(path)} is refused.`,
      given: [{ path, oid: blob('1') }],
      want: 'InvalidPath',
    }),
  ),
];

for (const { name, given, want } of errorCases) {
  test(name, async () => {
    const gitdir = makeRepo({ bare: true }).gitdir;
    const isWant = (e: GitWriteError): boolean => e.code === want;
    await assert.rejects(buildTree({ gitdir, base: null, changes: given }), isWant);
    const paths = given.map((c) => c.path);
    if (given.every((c) => c.oid !== null) && new Set(paths).size === paths.length) {
      assert.throws(() => buildTreeFromScratch(new Map(given.map((c) => [c.path, c.oid!]))), isWant);
    }
  });
}

test('A base that is not a tree, or is missing, is refused with the object named.', async () => {
  const repo = makeRepo({ bare: true });
  const blobOid = git(repo, ['hash-object', '-w', '--stdin'], 'x');
  await assert.rejects(
    buildTree({ gitdir: repo.gitdir, base: blobOid, changes: [{ path: 'a/b', oid: blobOid }] }),
    (e: GitWriteError) => e.code === 'WrongObjectType' && e.message.startsWith(blobOid),
  );
  const missing = 'ab'.repeat(20);
  await assert.rejects(
    buildTree({ gitdir: repo.gitdir, base: missing, changes: [{ path: 'a', oid: blobOid }] }),
    (e: GitWriteError) => e.code === 'MissingObject' && e.message.startsWith(missing),
  );
});
