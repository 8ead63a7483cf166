// The hub's mass-deletion guard lets an eviction's deletions through and passes the allowance
// on (core/failover/eviction-allowance.ts): planned against a real repository the hub rendered,
// with the branch's own files as the render minus the evicted objects.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { openObjectStore } from '../../../src/adapters/git/object-store.js';
import { defaultDeletionGuard } from '../../../src/core/model/mass-deletion-guard.js';
import { parseTrailers } from '../../../src/core/publish/commit-trailers.js';
import { createHubPassCache } from '../../../src/loops/hub/hub-pass-cache.js';
import type { PassContext } from '../../../src/loops/hub/pass-context.js';
import { planClusterBranch } from '../../../src/loops/hub/plan-cluster-branch.js';
import { readCommitFiles } from '../../../src/loops/hub/read-git-state.js';
import { TextBlobs } from '../../../src/loops/hub/text-blobs.js';
import { branchFiles, exampleFleetRepo, git, hubPass, removeFleetRepos } from './hub-fixture.js';

after(removeFleetRepos);

const cluster = 'aws-eu-prod';
const ref = `refs/heads/gitfleet/clusters/${cluster}`;
const eviction = `Gitfleet-Eviction: shop/Deployment.apps/web from ${cluster}: TaintUntolerated cluster.karmada.io/unreachable:NoExecute`;

async function planWithout(evicted: 'all' | 'some' | 'none', drop: (path: string) => boolean) {
  const repo = exampleFleetRepo({ bare: false });
  await hubPass(repo);
  const head = git(repo, ['rev-parse', ref]);
  const cache = createHubPassCache();
  const ctx: PassContext = {
    store: openObjectStore(repo.gitdir, cache.packs),
    cache,
    blobs: new TextBlobs(cache),
    known: new Set(),
    branches: new Map(),
    author: { name: 'gitfleet', email: 'hub@gitfleet.invalid', time: 1700000000, tzOffsetMinutes: 0 },
    sourceCommit: {
      ref: 'refs/heads/main',
      commit: git(repo, ['rev-parse', 'main']),
      subject: 'x',
      message: 'x',
    },
  };
  const files = branchFiles(repo, ref);
  const removed = [...files.keys()].filter((p) => !p.startsWith('.gitfleet/') && drop(p));
  const kept = new Map([...files].filter(([p]) => !removed.includes(p)));
  const paths = evicted === 'all' ? removed : evicted === 'some' ? removed.slice(0, 1) : [];
  const plan = await planClusterBranch(ctx, {
    cluster,
    ref,
    head,
    current: {
      tree: git(repo, ['rev-parse', `${ref}^{tree}`]),
      files: (await readCommitFiles(ctx, head)).files,
    },
    output: { files: kept, held: new Map() },
    guards: { ...defaultDeletionGuard },
    deletionsAllowed: false,
    ...(evicted === 'none' ? {} : { evictions: { paths: new Set(paths), trailers: [eviction] } }),
  });
  const commit = plan.write?.objects.find((o) => o.type === 'commit');
  const message = commit
    ? Buffer.from(commit.content).toString('utf8').split('\n\n').slice(1).join('\n\n')
    : '';
  return { plan, removed, trailers: parseTrailers(message) };
}

const shop = (p: string) => p.startsWith('shop/');

test('without an eviction, deleting most of a cluster is refused', async () => {
  const { plan, removed } = await planWithout('none', shop);
  assert.ok(removed.length > 5, `the example's shop holds ${removed.length} objects on ${cluster}`);
  assert.equal(plan.outcome.type, 'refused');
});

test("an eviction's deletions pass the guard and the cluster commit says why and passes the allowance on", async () => {
  const { plan, removed, trailers } = await planWithout('all', shop);
  assert.equal(plan.outcome.type, 'updated');
  assert.ok(plan.outcome.type === 'updated' && plan.outcome.removed === removed.length);
  assert.deepEqual(trailers.get('Gitfleet-Allow-Deletions'), [cluster]);
  assert.deepEqual(trailers.get('Gitfleet-Eviction'), [eviction.slice('Gitfleet-Eviction: '.length)]);
});

test('deletions an eviction does not explain are still judged by the guard', async () => {
  const { plan } = await planWithout('some', shop);
  assert.equal(plan.outcome.type, 'refused');
});

test('an eviction that removes nothing passes no allowance on', async () => {
  // A graceful task keeps the copy: the only change is an edit, and no Allow-Deletions is written.
  const { plan, trailers } = await planWithout('all', () => false);
  assert.equal(plan.outcome.type, 'unchanged');
  assert.equal(trailers.get('Gitfleet-Allow-Deletions'), undefined);
});
