// The commit-graph reader against graphs git itself wrote: every commit's tree, first parent and
// time as `git log` prints them, and changed-path filters that never call a changed path
// unchanged (the one mistake a Bloom filter must not make) and do rule out most others.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CommitGraph } from '../../../src/adapters/git/commit-graph.js';
import { murmur3 } from '../../../src/adapters/git/changed-path-filter.js';
import { git, makeRepo, removeRepos, type TestRepo } from './git-repo-fixture.js';

after(removeRepos);

/** Commits `count` changes on main, each touching one file of ten directories; returns the ids, newest first. */
function history(repo: TestRepo, count: number, from = 0): string[] {
  const lines: string[] = [];
  for (let i = from; i < from + count; i++) {
    const message = `change ${i}\n`;
    lines.push(
      'commit refs/heads/main',
      `committer Dev <dev@example.com> ${1_700_000_000 + i * 60} +0000`,
      `data ${message.length}`,
      message.trimEnd(),
      ...(i === from && from > 0 ? ['from refs/heads/main^0'] : []),
      `M 100644 inline ns${i % 10}/ConfigMap/cm-${i % 7}.yaml`,
      `data ${String(i).length}`,
      String(i),
      '',
    );
  }
  git(repo, ['fast-import', '--quiet'], `${lines.join('\n')}\n`);
  return git(repo, ['rev-list', 'main']).split('\n');
}

function commitsAsGitSees(repo: TestRepo): Map<string, { tree: string; parent?: string; time: number }> {
  const out = new Map<string, { tree: string; parent?: string; time: number }>();
  for (const line of git(repo, ['log', '--format=%H %T %ct %P', 'main']).split('\n')) {
    const [oid, tree, time, parent] = line.split(' ');
    out.set(oid!, { tree: tree!, time: Number(time), ...(parent ? { parent } : {}) });
  }
  return out;
}

test('murmur3 gives the reference values git’s filters are built on', () => {
  assert.equal(murmur3(0, Buffer.from('')), 0);
  assert.equal(murmur3(1, Buffer.from('')), 0x514e28b7);
  assert.equal(murmur3(0, Buffer.from('hello')), 0x248bfa47);
  assert.equal(murmur3(0, Buffer.from('The quick brown fox jumps over the lazy dog')), 0x2e4ff723);
});

test('without a commit-graph there is none; with one, every commit reads as git log prints it', () => {
  const repo = makeRepo({ bare: true });
  history(repo, 40);
  assert.equal(CommitGraph.open(repo.gitdir), undefined);
  git(repo, ['commit-graph', 'write', '--reachable']);
  const graph = CommitGraph.open(repo.gitdir)!;
  for (const [oid, want] of commitsAsGitSees(repo)) {
    const got = graph.commit(oid);
    assert.deepEqual(got, { tree: want.tree, parent: want.parent, time: want.time }, oid);
  }
  assert.equal(graph.commit('0'.repeat(40)), undefined, 'an id it does not hold');
  assert.equal(
    graph.unchanged(git(repo, ['rev-parse', 'main']), 'ns1'),
    false,
    'no filters written: no answer',
  );
});

test('changed-path filters never call a changed path (or its directory) unchanged, and rule out most others', () => {
  const repo = makeRepo({ bare: true });
  const commits = history(repo, 60);
  git(repo, ['commit-graph', 'write', '--reachable', '--changed-paths']);
  const graph = CommitGraph.open(repo.gitdir)!;
  let ruledOut = 0;
  let asked = 0;
  for (const oid of commits) {
    const changed = git(repo, ['diff-tree', '--root', '--no-commit-id', '-r', '--name-only', oid]).split(
      '\n',
    );
    const touched = new Set(
      changed.flatMap((p) => p.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'))),
    );
    for (const path of touched) assert.equal(graph.unchanged(oid, path), false, `${oid}: ${path} changed`);
    for (let d = 0; d < 10; d++) {
      if (touched.has(`ns${d}`)) continue;
      asked++;
      if (graph.unchanged(oid, `ns${d}`)) ruledOut++;
    }
  }
  assert.ok(ruledOut > asked * 0.8, `${ruledOut} of ${asked} untouched directories ruled out`);
});

test('a split graph (a chain of files) holds the commits of every layer, parents across layers included', () => {
  const repo = makeRepo({ bare: true });
  history(repo, 20);
  git(repo, ['commit-graph', 'write', '--reachable', '--split', '--changed-paths']);
  history(repo, 15, 20);
  git(repo, ['commit-graph', 'write', '--reachable', '--split=no-merge', '--changed-paths']);
  const graph = CommitGraph.open(repo.gitdir)!;
  const seen = commitsAsGitSees(repo);
  assert.equal(seen.size, 35);
  for (const [oid, want] of seen)
    assert.deepEqual(graph.commit(oid), { tree: want.tree, parent: want.parent, time: want.time });
});

test('a graph file that does not fit the format is no graph: the commits are read instead', () => {
  const repo = makeRepo({ bare: true });
  history(repo, 5);
  git(repo, ['commit-graph', 'write', '--reachable']);
  const path = join(repo.gitdir, 'objects', 'info', 'commit-graph');
  assert.ok(CommitGraph.open(repo.gitdir));
  // Cut short: the chunks it names no longer fit in it.
  chmodSync(path, 0o644);
  writeFileSync(path, readFileSync(path).subarray(0, 100));
  assert.equal(CommitGraph.open(repo.gitdir), undefined);
});
