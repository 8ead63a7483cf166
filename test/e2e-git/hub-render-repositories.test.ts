// The hub with render repositories over real smart HTTP (git's http-backend, counted per
// repository): the fleet repository and two render repositories served, one of which refuses
// pushes (403). The hub's pass pushes each render repository once, holds the refusing one's
// clusters (their records stay, the bindings branch names them held), publishes the other, and
// once the repository takes pushes again publishes them; `gitfleet status` reads each cluster's
// head from its render repository and names one that cannot be read.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { remoteHubRepo } from '../../src/adapters/remote/remote-hub-repo.js';
import { runHubPass } from '../../src/loops/hub/hub-pass.js';
import type { HubPassResult } from '../../src/loops/hub/hub-pass-result.js';
import { RenderRepositories } from '../../src/loops/hub/render-repositories.js';
import { createHubPassCache } from '../../src/loops/hub/hub-pass-cache.js';
import type { Logger } from '../../src/loops/runtime/logger.js';
import { readFleetStatus } from '../../src/loops/views/read-fleet-status.js';
import { git, makeServedRepo, removeTempDirs, tempDir } from '../git-server/git-cli.js';
import { startGitServer, type GitServer } from '../git-server/start-git-server.js';

after(removeTempDirs);

const token = 'render-token-4711';
const slow = { timeout: 300_000 };

function gitIn(gitdir: string, args: readonly string[]): string {
  return execFileSync('git', ['--git-dir', gitdir, ...args], { encoding: 'utf8', stdio: 'pipe' }).trim();
}

function clusterRefs(gitdir: string): string[] {
  return gitIn(gitdir, ['for-each-ref', '--format=%(refname)', 'refs/heads/gitfleet/clusters/'])
    .split('\n')
    .filter(Boolean);
}

async function serveFleet(): Promise<{ server: GitServer; root: string; url: string; work: string }> {
  const root = tempDir('render-served');
  for (const name of ['fleet.git', 'render-a.git', 'render-b.git']) makeServedRepo(root, name);
  gitIn(join(root, 'render-b.git'), ['config', 'http.receivepack', 'false']);
  const server = await startGitServer({ root, token });
  const cluster = (name: string, repo: string) =>
    `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${name}\n  labels: { gitfleet.io/render-repository: ${repo} }\n`;
  const files: Record<string, string> = {
    'fleet.yaml': `apiVersion: gitfleet.io/v1alpha1\nkind: FleetConfig\nmetadata: { name: fleet }\nspec:\n  renderRepositories:\n    - { name: a, url: "${server.url('render-a.git')}" }\n    - { name: b, url: "${server.url('render-b.git')}" }\n`,
    'clusters/member1.yaml': cluster('member1', 'a'),
    'clusters/member2.yaml': cluster('member2', 'b'),
    'apps/app.yaml':
      'apiVersion: v1\nkind: Namespace\nmetadata: { name: shop }\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: { name: web, namespace: shop }\ndata: { a: "1" }\n',
    'apps/policy.yaml':
      'apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: { name: web, namespace: shop }\nspec:\n  resourceSelectors: [{ apiVersion: v1, kind: ConfigMap, name: web }]\n  placement: { clusterAffinity: { clusterNames: [member1, member2] } }\n',
  };
  const work = tempDir('render-work');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(work, path, '..'), { recursive: true });
    writeFileSync(join(work, path), content);
  }
  await git(work, ['-c', 'init.defaultBranch=main', 'init', '-q']);
  await git(work, ['add', '-A']);
  await git(work, ['commit', '-q', '-m', 'the fleet']);
  const url = server.url('fleet.git');
  await git(work, ['-c', `http.extraHeader=Authorization: Bearer ${token}`, 'push', '-q', url, 'HEAD:main']);
  return { server, root, url, work };
}

/** Commits the ConfigMap's value `a` in the work tree and pushes it to the served fleet repository. */
async function pushValue(work: string, url: string, value: string): Promise<void> {
  const app = join(work, 'apps/app.yaml');
  writeFileSync(app, readFileSync(app, 'utf8').replace(/data: \{ a: "[^"]*" \}/, `data: { a: "${value}" }`));
  await git(work, ['commit', '-q', '-am', `a = ${value}`]);
  await git(work, ['-c', `http.extraHeader=Authorization: Bearer ${token}`, 'push', '-q', url, 'HEAD:main']);
}

/** Reads (upload-pack requests: advertisements and POSTs) of a served repository since `from`. */
function readsOf(server: GitServer, repo: string, from: number): number {
  return server.requests
    .slice(from)
    .filter((r) => r.path.startsWith(`/${repo}/`) && `${r.path}${r.query}`.includes('git-upload-pack'))
    .length;
}

function recording(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
}

/** Pushes (receive-pack POSTs) to a served repository since `from`. */
function pushesTo(server: GitServer, repo: string, from: number): number {
  return server.requests
    .slice(from)
    .filter((r) => r.method === 'POST' && r.path === `/${repo}/git-receive-pack`).length;
}

/** Requests to a served repository's receive-pack (its advertisement or a push) since `from`. */
function pushRequestsTo(server: GitServer, repo: string, from: number): number {
  return server.requests
    .slice(from)
    .filter((r) => r.path.startsWith(`/${repo}/`) && `${r.path}${r.query}`.includes('git-receive-pack'))
    .length;
}

/**
 * The hub over the served fleet: its render repositories through mirrors in a new cache
 * directory (a read standing `trustMs`, by `now`), and one pass at `now` with the cache a running
 * hub keeps.
 */
function servedHub(url: string, opts: { log: Logger; trustMs?: number; now?: () => number }) {
  const cacheDir = tempDir('render-cache');
  const now = opts.now ?? (() => 1_700_000_100_000);
  const renders = new RenderRepositories({
    open: (u) =>
      remoteHubRepo({
        url: u,
        cacheDir,
        token,
        mirrorKey: 'hub render',
        sourceRef: 'main',
        sourceOptional: true,
        branchPrefix: 'gitfleet/',
      }),
    log: opts.log,
    ...(opts.trustMs !== undefined ? { trustMs: opts.trustMs, now } : {}),
  });
  const cache = createHubPassCache();
  const pass = (): Promise<HubPassResult> =>
    runHubPass({
      repo: remoteHubRepo({ url, cacheDir, token, sourceRef: 'main', branchPrefix: 'gitfleet/' }),
      sourceRef: 'main',
      identity: { name: 'gitfleet', email: 'hub@gitfleet.invalid' },
      now: () => new Date(now()),
      log: opts.log,
      cache,
      renderRepositories: renders,
    });
  return { cacheDir, pass };
}

test(
  'the hub pushes each render repository once per pass, holds the one that refuses writes, and publishes it once it takes them',
  slow,
  async () => {
    const { server, root, url } = await serveFleet();
    try {
      const log = recording();
      const { cacheDir, pass } = servedHub(url, { log });
      const before = server.requests.length;
      const first = await pass();
      assert.equal(first.type, 'rendered', JSON.stringify(first));
      if (first.type !== 'rendered') return;
      assert.equal(first.clusters['member1']?.type, 'updated');
      assert.equal(first.clusters['member2']?.type, 'held');
      const held = first.diagnostics.find((d) => d.code === 'RenderRepositoryUnavailable');
      assert.match(held?.message ?? '', /render repository .*render-b\.git refused the write: .*403/);
      assert.ok(!JSON.stringify(first).includes(token), 'the token is never printed');
      assert.deepEqual(clusterRefs(join(root, 'render-a.git')), ['refs/heads/gitfleet/clusters/member1']);
      assert.deepEqual(clusterRefs(join(root, 'render-b.git')), []);
      assert.deepEqual(clusterRefs(join(root, 'fleet.git')), [], 'no cluster branch in the fleet repository');
      const fleet = join(root, 'fleet.git');
      assert.equal(
        gitIn(fleet, ['show', 'gitfleet/bindings:.gitfleet/render-repositories/member1']),
        server.url('render-a.git'),
      );
      assert.throws(() => gitIn(fleet, ['show', 'gitfleet/bindings:.gitfleet/render-repositories/member2']));
      assert.throws(
        () => gitIn(fleet, ['show', 'gitfleet/bindings:shop/ConfigMap/web.yaml']),
        'no record of what member2 did not get',
      );
      assert.match(
        gitIn(fleet, ['log', '-1', '--format=%B', 'gitfleet/bindings']),
        /Gitfleet-Render-Held: member2: /,
      );
      assert.equal(pushesTo(server, 'render-a.git', before), 1, 'one push to render-a');
      assert.equal(pushRequestsTo(server, 'render-b.git', before), 1, 'one refused push to render-b (403)');
      assert.equal(
        log.lines.filter((l) => /render repository .*render-b\.git refused the write/.test(l)).length,
        1,
      );
      // `gitfleet status` reads member1's head from render-a (through a mirror), and says member2 has no branch.
      const status = await readFleetStatus({
        dir: join(root, 'fleet.git'),
        branchPrefix: 'gitfleet/',
        openRenderRepository: async (u) => {
          const mirror = remoteHubRepo({
            url: u,
            cacheDir,
            token,
            mirrorKey: 'status',
            sourceRef: 'main',
            sourceOptional: true,
            branchPrefix: 'gitfleet/',
          });
          await mirror.refresh();
          return mirror.gitdir;
        },
      });
      assert.equal(
        status.renderedHeads.get('member1'),
        gitIn(join(root, 'render-a.git'), ['rev-parse', 'gitfleet/clusters/member1']),
      );
      assert.equal(status.renderedHeads.has('member2'), false);
      // Held: the next pass tries again (and is refused again, said no more); then render-b takes pushes.
      const again = await pass();
      assert.equal(again.type === 'rendered' && again.clusters['member2']?.type, 'held');
      assert.equal(log.lines.filter((l) => l.includes('refused the write')).length, 1, 'said once');
      gitIn(join(root, 'render-b.git'), ['config', 'http.receivepack', 'true']);
      const back = await pass();
      assert.equal(back.type === 'rendered' && back.clusters['member2']?.type, 'updated');
      assert.deepEqual(clusterRefs(join(root, 'render-b.git')), ['refs/heads/gitfleet/clusters/member2']);
      gitIn(fleet, ['show', 'gitfleet/bindings:shop/ConfigMap/web.yaml']);
      assert.doesNotMatch(
        gitIn(fleet, ['log', '-1', '--format=%B', 'gitfleet/bindings']),
        /Gitfleet-Render-Held/,
      );
      assert.ok(log.lines.some((l) => /render repository .*render-b\.git accepts writes again/.test(l)));
      const quiet = server.requests.length;
      assert.equal((await pass()).type, 'upToDate');
      const reads = server.requests.slice(quiet);
      assert.equal(
        reads.filter((r) => r.path.includes('receive-pack')).length,
        0,
        'an idle pass pushes nothing',
      );
      for (const repo of ['fleet.git', 'render-a.git', 'render-b.git'])
        assert.equal(reads.filter((r) => r.path.startsWith(`/${repo}/`)).length, 1, `one read of ${repo}`);
    } finally {
      await server.close();
    }
  },
);

test(
  'an unreadable render repository is named by gitfleet status, and the other clusters still read',
  slow,
  async () => {
    const { server, root, url } = await serveFleet();
    try {
      gitIn(join(root, 'render-b.git'), ['config', 'http.receivepack', 'true']);
      const { cacheDir, pass } = servedHub(url, { log: recording() });
      const result = await pass();
      assert.equal(result.type === 'rendered' && result.clusters['member2']?.type, 'updated');
      const status = await readFleetStatus({
        dir: join(root, 'fleet.git'),
        branchPrefix: 'gitfleet/',
        openRenderRepository: async (u) => {
          if (u.endsWith('render-b.git')) throw new Error('403 Forbidden');
          const mirror = remoteHubRepo({
            url: u,
            cacheDir,
            token,
            mirrorKey: 'status',
            sourceRef: 'main',
            sourceOptional: true,
            branchPrefix: 'gitfleet/',
          });
          await mirror.refresh();
          return mirror.gitdir;
        },
      });
      assert.ok(status.renderedHeads.has('member1'));
      assert.match(
        status.unreadable.get('member2') ?? '',
        /^render repository .*render-b\.git cannot be read: 403 Forbidden/,
      );
    } finally {
      await server.close();
    }
  },
);

test(
  "a render repository's read stands for the hub's interval: a source push's pass reads none, a push refused by another writer's move reads it again, and so does the first pass after the interval",
  slow,
  async () => {
    const { server, root, url, work } = await serveFleet();
    try {
      gitIn(join(root, 'render-b.git'), ['config', 'http.receivepack', 'true']);
      const log = recording();
      let now = 1_700_000_000_000;
      const { pass } = servedHub(url, { log, trustMs: 60_000, now: () => now });
      const member1 = () => gitIn(join(root, 'render-a.git'), ['rev-parse', 'gitfleet/clusters/member1']);
      let from = server.requests.length;
      const first = await pass();
      assert.equal(first.type === 'rendered' && first.clusters['member1']?.type, 'updated');
      assert.equal(
        readsOf(server, 'render-a.git', from),
        1,
        'the first pass reads render-a (its advertisement)',
      );

      // A source push 10 s later: published without reading either render repository.
      now += 10_000;
      await pushValue(work, url, '2');
      from = server.requests.length;
      const second = await pass();
      assert.equal(second.type === 'rendered' && second.clusters['member1']?.type, 'updated');
      assert.equal(readsOf(server, 'render-a.git', from), 0, 'render-a is not read');
      assert.equal(readsOf(server, 'render-b.git', from), 0, 'render-b is not read');
      assert.equal(pushesTo(server, 'render-a.git', from), 1);
      assert.equal(pushesTo(server, 'render-b.git', from), 1);
      assert.match(
        gitIn(join(root, 'render-a.git'), ['show', `${member1()}:shop/ConfigMap/web.yaml`]),
        /a: "2"/,
      );

      // Someone else moves member1's branch in render-a: the hub's push is refused, it reads again and wins.
      const foreign = gitIn(join(root, 'render-a.git'), [
        'commit-tree',
        '-p',
        member1(),
        '-m',
        'not the hub',
        `${member1()}^{tree}`,
      ]);
      gitIn(join(root, 'render-a.git'), ['update-ref', 'refs/heads/gitfleet/clusters/member1', foreign]);
      now += 10_000;
      await pushValue(work, url, '3');
      from = server.requests.length;
      const third = await pass();
      assert.equal(
        third.type === 'rendered' && third.clusters['member1']?.type,
        'updated',
        JSON.stringify(third),
      );
      assert.equal(third.type === 'rendered' && third.attempts, 2, 'the lost race ran the pass again');
      assert.ok(readsOf(server, 'render-a.git', from) >= 1, 'render-a is read again after the refused push');
      assert.equal(readsOf(server, 'render-b.git', from), 0, 'render-b still stands');
      assert.equal(gitIn(join(root, 'render-a.git'), ['rev-parse', `${member1()}^`]), foreign);
      assert.ok(log.lines.some((l) => /another writer moved it first; reading again/.test(l)));

      // Past the interval, the first pass reads every render repository again (nothing to publish).
      now += 61_000;
      from = server.requests.length;
      assert.equal((await pass()).type, 'upToDate');
      assert.equal(readsOf(server, 'render-a.git', from), 1);
      assert.equal(readsOf(server, 'render-b.git', from), 1);
    } finally {
      await server.close();
    }
  },
);
