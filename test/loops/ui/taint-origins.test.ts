// Who put a taint on a cluster, read from real git history: the bindings commit whose
// Gitfleet-Taint trailer added a hub taint (the newest, when it was added, removed and added
// again), and the source commit that wrote a spec taint into a Cluster's registration (not a
// later commit that only touched the file). A walk stops at its limit and says nothing rather
// than naming the wrong commit.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { join } from 'node:path';
import { hubTaintOrigins, specTaintOrigin } from '../../../src/loops/ui/taint-origins.js';
import { cleanup, commitAll, git, initRepo, writeFiles } from '../../adapters/source/git-fixture.js';

after(cleanup);

const down = { key: 'example.com/down', effect: 'NoExecute' as const };

function commitMessage(dir: string, message: string): string {
  git(dir, 'commit', '-q', '--allow-empty', '-m', message);
  return git(dir, 'rev-parse', 'HEAD');
}

test('a hub taint is found on the newest bindings commit whose Gitfleet-Taint trailer added it', () => {
  const dir = initRepo();
  const trailer = (change: string) =>
    `render\n\nGitfleet-Taint: member2 ${change}example.com/down:NoExecute: Ready=False matches addOnConditions of ClusterTaintPolicy/down`;
  commitMessage(dir, trailer('+'));
  commitMessage(dir, trailer('-'));
  const again = commitMessage(dir, trailer('+'));
  commitMessage(dir, 'render\n\nGitfleet-Taint: member1 +example.com/down:NoExecute: another cluster');
  const head = commitMessage(dir, 'a pass that changed nothing about taints');
  const found = hubTaintOrigins({
    gitdir: join(dir, '.git'),
    bindingsHead: head,
    cluster: 'member2',
    taints: [down],
  });
  const origin = found.get('example.com/down:NoExecute');
  assert.equal(origin?.commit, again);
  assert.match(origin?.message ?? '', /^member2 \+example\.com\/down:NoExecute: .*ClusterTaintPolicy\/down$/);
  assert.match(origin?.time ?? '', /^\d{4}-\d\d-\d\dT/);
  const short = hubTaintOrigins({
    gitdir: join(dir, '.git'),
    bindingsHead: head,
    cluster: 'member2',
    taints: [down],
    limit: 2,
  });
  assert.equal(short.size, 0, 'past its limit, a walk names no commit');
});

test('a spec taint is found on the source commit that wrote it, not on a later edit of the file', () => {
  const dir = initRepo();
  const cluster = (taints: string) =>
    `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: member2}\nspec:\n  syncMode: Pull\n${taints}`;
  writeFiles(dir, { 'clusters/member2.yaml': cluster('') });
  commitAll(dir, 'register member2');
  writeFiles(dir, {
    'clusters/member2.yaml': cluster('  taints: [{key: example.com/down, effect: NoExecute}]\n'),
  });
  const wrote = commitAll(dir, 'keep workloads off member2');
  writeFiles(dir, {
    'clusters/member2.yaml': `# a comment\n${cluster('  taints: [{key: example.com/down, effect: NoExecute}]\n')}`,
  });
  commitAll(dir, 'comment member2');
  writeFiles(dir, { 'README.md': 'unrelated\n' });
  const head = commitAll(dir, 'readme');
  const input = {
    gitdir: join(dir, '.git'),
    sourceCommit: head,
    file: 'clusters/member2.yaml',
    cluster: 'member2',
    taint: down,
  };
  const origin = specTaintOrigin(input);
  assert.equal(origin?.commit, wrote);
  assert.equal(origin?.message, 'keep workloads off member2');
  assert.equal(origin?.author, 'Test Author');
  assert.equal(specTaintOrigin({ ...input, limit: 2 }), undefined, 'past its limit, a walk names no commit');
});
