// The fetch of a head a doorbell named (adapters/remote/fetch-known-head.ts) against git's own
// http-backend, through the proxy that names each request: a mirror holding one branch (an
// agent's mirror of its render repository) fetches an announced head with one v2 fetch and no
// ls-refs; a head the server does not have, an older commit of the branch (a replay) and
// another branch's commit are refused, said once, and the same refresh asks where the branch
// is; a first fetch, a v0 server and a mirror of several branches ask the usual way.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { remoteHubRepo, type RemoteHubRepo } from '../../../src/adapters/remote/remote-hub-repo.js';
import { git, gitFails, removeTempDirs } from '../../git-server/git-cli.js';
import { startAgentMirrorProxy, type AgentMirrorProxy } from './agent-mirror-proxy.js';
import { agentMirrorOf, commitWorkFile, serveFleet, type ServedFleet } from './remote-fixture.js';

after(removeTempDirs);

const slow = { timeout: 120_000 };
const m1 = 'gitfleet/clusters/m1';
const m2 = 'gitfleet/clusters/m2';

/** The mirror of one branch, m1's cluster branch, as an agent keeps of its render repository. */
function renderMirrorOf(fleet: ServedFleet, url: string): RemoteHubRepo {
  return remoteHubRepo({
    url,
    cacheDir: fleet.cacheDir,
    mirrorKey: 'agent m1 render',
    sourceRef: m1,
    branchPrefix: 'gitfleet/',
    onlyRefs: [],
  });
}

/** Commits on a branch of the work tree and pushes it; returns the commit. */
async function pushTo(fleet: ServedFleet, branch: string, text: string): Promise<string> {
  await git(fleet.work, ['checkout', '-q', branch]);
  const oid = await commitWorkFile(fleet.work, `apps/${branch.split('/').pop()}.yaml`, text, text);
  await git(fleet.work, ['push', '-q', fleet.url, branch]);
  return oid;
}

/** A served repository with m1's branch, a proxy before it, and m1's render mirror that fetched once. */
async function served(opts: { v0?: boolean } = {}) {
  const fleet = await serveFleet({ branches: [m1] });
  const proxy = await startAgentMirrorProxy(fleet.url);
  if (opts.v0 === true) proxy.set({ v0: true });
  const mirror = renderMirrorOf(fleet, proxy.url('fleet.git'));
  await mirror.refresh();
  return { fleet, proxy, mirror, close: () => Promise.all([proxy.close(), fleet.server.close()]) };
}

/** Announces `head`, refreshes, and returns the requests that refresh made and what was refused. */
async function ringAndRefresh(mirror: RemoteHubRepo, proxy: AgentMirrorProxy, head: string) {
  const refused: string[] = [];
  const from = proxy.seen.length;
  mirror.announceHead(head, (why) => refused.push(why));
  await mirror.refresh();
  return { requests: proxy.seen.slice(from), refused };
}

const headOf = (gitdir: string) => git(gitdir, ['rev-parse', `refs/heads/${m1}`]);

test(
  'an announced head that is a fast-forward is fetched with one v2 fetch and no ls-refs',
  slow,
  async () => {
    const { fleet, proxy, mirror, close } = await served();
    try {
      const moved = await pushTo(fleet, m1, 'kind: ConfigMap\n');
      const { requests, refused } = await ringAndRefresh(mirror, proxy, moved);
      assert.deepEqual(requests, ['POST fetch'], 'one read');
      assert.deepEqual(refused, []);
      assert.equal(await headOf(mirror.gitdir), moved);
      assert.equal(await git(mirror.gitdir, ['show', `${moved}:apps/m1.yaml`]), 'kind: ConfigMap');
      await git(mirror.gitdir, ['fsck', '--strict', '--no-dangling']);

      // The head it holds already: no request at all; the next refresh without a ring asks as always.
      assert.deepEqual((await ringAndRefresh(mirror, proxy, moved)).requests, []);
      const from = proxy.seen.length;
      await mirror.refresh();
      assert.deepEqual(proxy.seen.slice(from), ['POST ls-refs'], 'the announcement was taken once');
    } finally {
      await close();
    }
  },
);

test(
  'a head the server does not have is refused ("not our ref") and the same refresh reads the branch',
  slow,
  async () => {
    const { fleet, proxy, mirror, close } = await served();
    try {
      const moved = await pushTo(fleet, m1, 'kind: Secret\n');
      const { requests, refused } = await ringAndRefresh(mirror, proxy, 'f'.repeat(40));
      assert.deepEqual(requests, ['POST fetch', 'POST ls-refs', 'POST fetch']);
      assert.equal(refused.length, 1, 'said once');
      assert.match(refused[0]!, /not our ref/);
      assert.equal(await headOf(mirror.gitdir), moved, "the branch's head, from the usual way");
    } finally {
      await close();
    }
  },
);

test(
  'an older commit of the branch (a replaying doorbell) is refused without a request; the branch stays',
  slow,
  async () => {
    const { fleet, proxy, mirror, close } = await served();
    try {
      const old = await headOf(mirror.gitdir);
      const moved = await pushTo(fleet, m1, 'kind: ConfigMap\n');
      await mirror.refresh();
      const { requests, refused } = await ringAndRefresh(mirror, proxy, old);
      assert.deepEqual(requests, ['POST ls-refs'], 'the ls-refs of the usual way alone');
      assert.match(refused[0] ?? '', /not a fast-forward/);
      assert.equal(await headOf(mirror.gitdir), moved);
    } finally {
      await close();
    }
  },
);

test(
  "another branch's commit is refused after its fetch, its objects discarded; the branch's head is taken",
  slow,
  async () => {
    const { fleet, proxy, mirror, close } = await served();
    try {
      await git(fleet.work, ['checkout', '-q', '--orphan', m2]);
      const other = await commitWorkFile(fleet.work, 'apps/m2.yaml', 'kind: Other\n', 'm2');
      await git(fleet.work, ['push', '-q', fleet.url, m2]);
      const moved = await pushTo(fleet, m1, 'kind: ConfigMap\n');
      const { requests, refused } = await ringAndRefresh(mirror, proxy, other);
      assert.deepEqual(requests, ['POST fetch', 'POST ls-refs', 'POST fetch']);
      assert.match(refused[0] ?? '', /not a fast-forward/);
      assert.equal(await headOf(mirror.gitdir), moved);
      assert.notEqual(
        (await gitFails(mirror.gitdir, ['cat-file', '-e', other])).status,
        0,
        'its pack discarded',
      );
      await git(mirror.gitdir, ['fsck', '--strict', '--no-dangling']);
    } finally {
      await close();
    }
  },
);

test(
  'a first fetch, a v0 server and a mirror of several branches ask where the branch is',
  slow,
  async () => {
    const { fleet, proxy, mirror, close } = await served({ v0: true });
    try {
      const moved = await pushTo(fleet, m1, 'kind: ConfigMap\n');
      const v0 = await ringAndRefresh(mirror, proxy, moved);
      assert.deepEqual(v0.requests, ['POST v0', 'GET info/refs', 'POST v0'], 'a v0 server: as before');
      assert.equal(await headOf(mirror.gitdir), moved);

      proxy.set({ v0: false });
      const fresh = renderMirrorOf({ ...fleet, cacheDir: `${fleet.cacheDir}-fresh` }, proxy.url('fleet.git'));
      assert.deepEqual((await ringAndRefresh(fresh, proxy, moved)).requests, ['POST ls-refs', 'POST fetch']);

      const agent = agentMirrorOf({ url: proxy.url('fleet.git'), cacheDir: fleet.cacheDir });
      await agent.refresh();
      const next = await pushTo(fleet, m1, 'kind: Secret\n');
      const several = await ringAndRefresh(agent, proxy, next);
      assert.deepEqual(
        several.requests,
        ['POST ls-refs', 'POST fetch'],
        'the fleet mirror keeps its ls-refs',
      );
      assert.deepEqual(several.refused, []);
    } finally {
      await close();
    }
  },
);
