// Partition (docs/failover.md#partition): an agent cut off from Git keeps running its last
// branch and deletes nothing while the hub evicts its workload; when Git answers again it
// converges to the branch as it is then and prunes what was moved away, behind its own
// mass-deletion guard, which lets the deletions through only because the eviction's allowance
// traces back to the hub (judge-deletion-allowance.ts). The agent's repository is a real remote
// (a git server over smart HTTP) that stops and comes back; the cluster is the fake.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { basename, dirname } from 'node:path';
import { defaultHubIdentity } from '../../../src/core/apply-plan/hub-identity.js';
import { agentMirrorOf, serveFleet } from '../../adapters/remote/remote-fixture.js';
import { startGitServer } from '../../git-server/start-git-server.js';
import { commitClusterBranch, prefix } from '../../support/cluster-branch.js';
import { aConfigMap, aNamespace } from '../../support/kube-objects.js';
import { removeTempDirs } from '../../support/temp-dirs.js';
import { testGitEnv } from '../../git-env.js';
import { fakeAgent } from './fake-agent.js';

after(removeTempDirs);

// Generous: a stopped server refuses at once, and a loaded machine can take seconds to start
// git http-backend for the answer after the reconnect (an idle limit of 300 ms failed it).
const timeouts = { connectMs: 10_000, idleMs: 10_000 };
const web = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'web' };
const eviction = 'v1/ConfigMap/shop/web from m1: TaintUntolerated cluster.karmada.io/unreachable:NoExecute';

/** Commits on the served repository's bindings branch as the hub, recording the cluster commit. */
function recordOnBindings(served: string, clusterCommit: string, trailers: string[]): string {
  const git = (args: string[], input = '') =>
    execFileSync('git', ['--git-dir', served, ...args], {
      env: {
        ...testGitEnv,
        GIT_AUTHOR_NAME: defaultHubIdentity.name,
        GIT_AUTHOR_EMAIL: defaultHubIdentity.email,
        GIT_COMMITTER_NAME: defaultHubIdentity.name,
        GIT_COMMITTER_EMAIL: defaultHubIdentity.email,
      },
      input,
    })
      .toString('utf8')
      .trim();
  const ref = `refs/heads/${prefix}bindings`;
  const tree = git(['hash-object', '-t', 'tree', '-w', '--stdin']);
  let parent: string[] = [];
  try {
    parent = ['-p', git(['rev-parse', '-q', '--verify', ref])];
  } catch {
    // the first bindings commit
  }
  const message = ['render: evict', '', `Gitfleet-Cluster-Commit: m1=${clusterCommit}`, ...trailers, ''].join(
    '\n',
  );
  const oid = git(['commit-tree', tree, ...parent], message);
  git(['update-ref', ref, oid]);
  return oid;
}

async function partitioned(
  t: { after: (fn: () => Promise<void> | void) => void },
  bindingsTrailers: string[],
) {
  const fleet = await serveFleet();
  t.after(() => fleet.server.close().catch(() => undefined));
  const repoAt = (url: string) => agentMirrorOf({ url, cacheDir: fleet.cacheDir, timeouts });
  const agent = fakeAgent({ repo: repoAt(fleet.url) });
  const objects = [
    aNamespace('shop'),
    aConfigMap('shop', 'web', { a: '1' }),
    aConfigMap('shop', 'settings', { a: '1' }),
  ];
  const first = await commitClusterBranch(
    fleet.served,
    'm1',
    objects,
    'render: web\n',
    {},
    defaultHubIdentity,
  );
  recordOnBindings(fleet.served, first, []);
  assert.equal((await agent.pass()).fullyApplied, true);

  // Cut off: the server stops; meanwhile the hub evicts the workload, so the branch is emptied.
  await fleet.server.close();
  const evicted = await commitClusterBranch(
    fleet.served,
    'm1',
    [],
    `render aaaaaaa: web\n\nshop/ConfigMap/web: removed\n\nGitfleet-Allow-Deletions: m1\nGitfleet-Eviction: ${eviction}\n`,
    {},
    defaultHubIdentity,
  );
  recordOnBindings(fleet.served, evicted, bindingsTrailers);
  const down = await agent.pass();
  assert.equal(down.gitReachable, false);
  assert.equal(down.prune, undefined, 'cut off, it cannot be told to delete');
  assert.ok(agent.fake.peek(web), 'it keeps running its last branch');

  // Back (the same repository served again, at a new URL).
  const server = await startGitServer({ root: dirname(fleet.served) });
  t.after(() => server.close());
  const back = await agent.pass({ repo: repoAt(server.url(basename(fleet.served))) });
  assert.equal(back.gitReachable, true);
  return { agent, back };
}

test('a cut-off agent reconnects and prunes what the hub evicted, the allowance traced to the bindings commit', async (t) => {
  const { agent, back } = await partitioned(t, [`Gitfleet-Eviction: ${eviction}`]);
  assert.equal(back.prune?.plan.guardRefusal, undefined);
  assert.deepEqual(back.prune?.deleted.map((r) => `${r.kind}/${r.name}`).sort(), [
    'ConfigMap/settings',
    'ConfigMap/web',
    'Namespace/shop',
  ]);
  assert.equal(agent.fake.peek(web), undefined);
});

test('without the bindings link the same head is a mass deletion its guard refuses, naming the link that failed', async (t) => {
  const { agent, back } = await partitioned(t, []);
  assert.match(
    back.prune?.plan.guardRefusal ?? '',
    /would delete all 3 objects .*not honoured: the bindings commit [0-9a-f]{12} that records it names no eviction from m1/,
  );
  assert.deepEqual(back.prune?.deleted, []);
  assert.ok(agent.fake.peek(web), 'nothing is deleted');
});
