// The agent's half of "a hand-pushed commit allowed mass deletions": the proof is read from a
// real repository, made with the git command line the way a person (or the hub) makes commits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultHubIdentity } from '../../../src/core/apply-plan/hub-identity.js';
import { readDeletionAllowance } from '../../../src/loops/agent/read-deletion-allowance.js';
import { testGitEnv } from '../../git-env.js';

const emptyTree = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

function repo(): { dir: string; git: (args: string[], env?: NodeJS.ProcessEnv, input?: string) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'gitfleet-allowance-'));
  const git = (args: string[], env: NodeJS.ProcessEnv = {}, input = '') =>
    execFileSync('git', args, { cwd: dir, env: { ...testGitEnv, ...env }, input })
      .toString('utf8')
      .trim();
  git(['init', '-q', '--bare']);
  git(['hash-object', '-t', 'tree', '-w', '--stdin'], {}, '');
  return { dir, git };
}

const as = (who: { name: string; email: string }) => ({
  GIT_AUTHOR_NAME: who.name,
  GIT_AUTHOR_EMAIL: who.email,
  GIT_COMMITTER_NAME: who.name,
  GIT_COMMITTER_EMAIL: who.email,
});

test('a deletion allowance is honoured only on a hub commit whose source commit the bindings branch records', async (t) => {
  const { dir, git } = repo();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const commit = (message: string, env: NodeJS.ProcessEnv, ref: string) => {
    const oid = git(['commit-tree', emptyTree, '-m', message], env);
    git(['update-ref', ref, oid]);
    return oid;
  };
  const source = commit('drop shop\n\nGitfleet-Allow-Deletions: member1', {}, 'refs/heads/main');
  const unrecorded = commit('not rendered\n\nGitfleet-Allow-Deletions: member1', {}, 'refs/heads/other');
  commit(
    `render: drop shop\n\nGitfleet-Source-Commit: ${source}`,
    as(defaultHubIdentity),
    'refs/heads/gitfleet/bindings',
  );
  const read = (oid: string) =>
    readDeletionAllowance({
      gitdir: dir,
      branchPrefix: 'gitfleet/',
      cluster: 'member1',
      commit: oid,
      message: git(['cat-file', 'commit', oid]).split('\n\n').slice(1).join('\n\n'),
      hub: defaultHubIdentity,
      trusted: new Set(),
    });
  const hubMessage = (s: string) =>
    `render aaaaaaa: drop shop\n\nGitfleet-Source-Commit: ${s}\nGitfleet-Source-Ref: refs/heads/main\nGitfleet-Allow-Deletions: member1`;
  const ref = 'refs/heads/gitfleet/clusters/member1';
  const cases = [
    {
      name: "the hub's own commit",
      oid: commit(hubMessage(source), as(defaultHubIdentity), ref),
      want: { type: 'trusted' },
    },
    {
      name: 'an empty commit pushed by hand with the trailer',
      oid: commit(
        'wipe\n\nGitfleet-Allow-Deletions: member1',
        as({ name: 'Mallory', email: 'm@example.com' }),
        ref,
      ),
      want: {
        type: 'untrusted',
        reason: 'its author is Mallory <m@example.com>, not the hub (gitfleet <hub@gitfleet.invalid>)',
      },
    },
    {
      name: 'a hand-made commit posing as the hub, naming a source commit the hub never rendered',
      oid: commit(hubMessage(unrecorded), as(defaultHubIdentity), ref),
      want: {
        type: 'untrusted',
        reason: `the bindings branch does not record its source commit ${unrecorded.slice(0, 12)}`,
      },
    },
    {
      name: 'a hand-made commit posing as the hub, naming a source commit that does not exist',
      oid: commit(hubMessage('b'.repeat(40)), as(defaultHubIdentity), ref),
      want: {
        type: 'untrusted',
        reason: 'the bindings branch does not record its source commit bbbbbbbbbbbb',
      },
    },
    {
      name: 'a commit without the trailer',
      oid: commit('render: nothing special', as(defaultHubIdentity), ref),
      want: { type: 'none' },
    },
  ];
  for (const c of cases) assert.deepEqual(await read(c.oid), c.want, c.name);
});

test("an eviction's allowance is honoured only when the bindings commit that recorded the head names the eviction", async (t) => {
  const { dir, git } = repo();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const commit = (message: string, env: NodeJS.ProcessEnv, ref: string) => {
    const parent = (() => {
      try {
        return ['-p', git(['rev-parse', '-q', '--verify', ref])];
      } catch {
        return [];
      }
    })();
    const oid = git(['commit-tree', emptyTree, ...parent, '-m', message], env);
    git(['update-ref', ref, oid]);
    return oid;
  };
  const hub = as(defaultHubIdentity);
  const source = commit('add api', {}, 'refs/heads/main');
  const eviction =
    'apps/Deployment/shop/web from member1: TaintUntolerated cluster.karmada.io/unreachable:NoExecute';
  const ref = 'refs/heads/gitfleet/clusters/member1';
  const bindings = 'refs/heads/gitfleet/bindings';
  const clusterCommit = (trailer: string) =>
    commit(
      `render aaaaaaa: add api\n\nshop/Deployment.apps/web: removed\n\nGitfleet-Source-Commit: ${source}\nGitfleet-Source-Ref: refs/heads/main\nGitfleet-Allow-Deletions: member1\n${trailer}`,
      hub,
      ref,
    );
  const record = (head: string, trailers: string) =>
    commit(
      `render aaaaaaa: add api\n\nGitfleet-Source-Commit: ${source}\nGitfleet-Cluster-Commit: member1=${head}\n${trailers}`,
      hub,
      bindings,
    );
  const read = (oid: string) =>
    readDeletionAllowance({
      gitdir: dir,
      branchPrefix: 'gitfleet/',
      cluster: 'member1',
      commit: oid,
      message: git(['cat-file', 'commit', oid]).split('\n\n').slice(1).join('\n\n'),
      hub: defaultHubIdentity,
      trusted: new Set(),
    });

  // The pass that evicted: its bindings commit records the head and the eviction; a later pass
  // (a status change) names the same head again with no decision.
  const evicted = clusterCommit(`Gitfleet-Eviction: ${eviction}`);
  record(evicted, `Gitfleet-Eviction: ${eviction}\n`);
  record(evicted, '');
  assert.deepEqual(await read(evicted), { type: 'trusted' });

  // A head posing as the hub's eviction that no bindings commit records.
  const unrecorded = clusterCommit(`Gitfleet-Eviction: ${eviction}`);
  assert.deepEqual(await read(unrecorded), {
    type: 'untrusted',
    reason: 'no bindings commit records it (Gitfleet-Cluster-Commit: member1=<its id>)',
  });

  // Recorded by a commit without the eviction; a later commit naming the same head carries one
  // (another pass's decision): the recording commit is what counts.
  const later = clusterCommit(`Gitfleet-Eviction: ${eviction}`);
  const recordedBy = record(later, '');
  record(later, `Gitfleet-Eviction: ${eviction}\n`);
  assert.deepEqual(await read(later), {
    type: 'untrusted',
    reason: `the bindings commit ${recordedBy.slice(0, 12)} that records it names no eviction from member1 (Gitfleet-Eviction, Gitfleet-Eviction-Done)`,
  });
});
