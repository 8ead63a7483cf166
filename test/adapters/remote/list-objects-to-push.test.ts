import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { listObjectsToPush } from '../../../src/adapters/remote/list-objects-to-push.js';
import { openObjectReader } from '../../../src/adapters/remote/object-reader.js';
import { git, removeTempDirs, tempDir } from '../../git-server/git-cli.js';

after(removeTempDirs);

type Step = Record<string, string | null>;

/** Commits each step's file changes (null deletes) in order on main; returns the commit ids. */
async function history(dir: string, steps: Step[]): Promise<string[]> {
  await git(dir, ['-c', 'init.defaultBranch=main', 'init', '-q']);
  const commits: string[] = [];
  for (const [i, step] of steps.entries()) {
    for (const [path, text] of Object.entries(step)) {
      const file = join(dir, path);
      if (text === null) rmSync(file);
      else {
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, text);
      }
    }
    await git(dir, ['add', '-A']);
    await git(dir, ['commit', '-q', '--allow-empty', '-m', `step ${i}`]);
    commits.push(await git(dir, ['rev-parse', 'HEAD']));
  }
  return commits;
}

const base: Step = {
  'a/x/one.yaml': 'one\n',
  'a/x/two.yaml': 'two\n',
  'a/y/three.yaml': 'three\n',
  'b/four.yaml': 'four\n',
};

const cases: { name: string; given: { steps: Step[]; remoteAt: number | null }; want: 'as git' }[] = [
  {
    name: 'A root commit sends its whole tree, as git does.',
    given: { steps: [base], remoteAt: null },
    want: 'as git',
  },
  {
    name: 'One changed file deep in the tree sends only the trees on its path and the new blob, as git does.',
    given: { steps: [base, { 'a/x/two.yaml': 'two, changed\n' }], remoteAt: 0 },
    want: 'as git',
  },
  {
    name: 'Several commits ahead of the remote send every commit and every new object, as git does.',
    given: {
      steps: [base, { 'b/five.yaml': 'five\n' }, { 'a/y/three.yaml': null }, { 'c/six.yaml': 'six\n' }],
      remoteAt: 1,
    },
    want: 'as git',
  },
  {
    name: 'A removed directory sends only the trees above it, as git does.',
    given: { steps: [base, { 'a/y/three.yaml': null }], remoteAt: 0 },
    want: 'as git',
  },
  {
    name: 'A commit that changes nothing sends only itself, as git does.',
    given: { steps: [base, {}], remoteAt: 0 },
    want: 'as git',
  },
];

for (const { name, given } of cases) {
  test(name, async () => {
    const dir = tempDir('objects');
    const commits = await history(dir, given.steps);
    const tip = commits[commits.length - 1]!;
    const remote = given.remoteAt === null ? [] : [commits[given.remoteAt]!];
    const reader = await openObjectReader(join(dir, '.git'));
    try {
      const ours = await listObjectsToPush({ reader, tips: [tip], remoteHas: new Set(remote) });
      const theirs = (await git(dir, ['rev-list', '--objects', tip, ...remote.map((c) => `^${c}`)]))
        .split('\n')
        .filter(Boolean)
        .map((l) => l.slice(0, 40));
      assert.deepEqual([...ours].sort(), [...theirs].sort());
      assert.equal(new Set(ours).size, ours.length, 'each object once');
    } finally {
      await reader.close();
    }
  });
}

test('Two tips sharing history and blobs list each object once, and never what the remote has.', async () => {
  const dir = tempDir('objects');
  const [c0, c1] = await history(dir, [base, { 'b/five.yaml': 'five\n' }]);
  await git(dir, ['checkout', '-q', '-b', 'other', c0!]);
  writeFileSync(join(dir, 'b/five.yaml'), 'five\n');
  writeFileSync(join(dir, 'b/seven.yaml'), 'seven\n');
  await git(dir, ['add', '-A']);
  await git(dir, ['commit', '-q', '-m', 'other']);
  const c2 = await git(dir, ['rev-parse', 'HEAD']);
  const reader = await openObjectReader(join(dir, '.git'));
  try {
    const ours = await listObjectsToPush({ reader, tips: [c1!, c2], remoteHas: new Set([c0!]) });
    const theirs = (await git(dir, ['rev-list', '--objects', c1!, c2, `^${c0!}`]))
      .split('\n')
      .map((l) => l.slice(0, 40));
    assert.deepEqual([...ours].sort(), [...theirs].sort());
  } finally {
    await reader.close();
  }
});
