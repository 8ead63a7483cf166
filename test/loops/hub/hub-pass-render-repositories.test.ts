// The hub with render repositories (loops/hub/render-repositories.ts, place-cluster-branches.ts):
// real repositories on disk, the fleet repository bare, each render repository a bare repository
// of its own. Cluster branches are written where the fleet assigns them and nowhere else; the
// bindings branch records where; a move continues the branch's history in the new repository and
// tombstones the old one; a render repository that cannot be read holds its clusters.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { RenderRepositories } from '../../../src/loops/hub/render-repositories.js';
import { silentLogger } from '../../../src/loops/runtime/logger.js';
import { localHubRepo } from '../../../src/adapters/remote/hub-repo.js';
import {
  commitChange,
  fleetRepoWith,
  gitEnv,
  hubPass,
  rendered,
  removeFleetRepos,
  type FleetRepo,
  shopPolicy as policy,
  emptyBareRepo,
} from './hub-fixture.js';
import { createHubPassCache } from '../../../src/loops/hub/hub-pass-cache.js';
import { writeFileSync } from 'node:fs';
import { runCli } from '../../cli/run-cli.js';

after(removeFleetRepos);

const bareRepo = emptyBareRepo;

function gitIn(gitdir: string, args: readonly string[]): string {
  return execFileSync('git', ['--git-dir', gitdir, ...args], { env: gitEnv })
    .toString('utf8')
    .trim();
}

function refsOf(gitdir: string): Map<string, string> {
  const out = gitIn(gitdir, [
    'for-each-ref',
    '--format=%(refname) %(objectname)',
    'refs/heads/gitfleet/clusters/',
  ]);
  return new Map(
    out
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split(' ') as [string, string]),
  );
}

const configMap = (name: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: shop\ndata:\n  a: "1"\n`;

function cluster(name: string, renderRepository?: string): string {
  const labels = renderRepository
    ? `  labels:\n    gitfleet.io/render-repository: ${renderRepository}\n`
    : '';
  return `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${name}\n${labels}`;
}

function fleetConfig(repos: Record<string, string>): string {
  const list = Object.entries(repos).map(([name, url]) => `    - name: ${name}\n      url: ${url}\n`);
  const spec = list.length > 0 ? `spec:\n  renderRepositories:\n${list.join('')}` : 'spec: {}\n';
  return `apiVersion: gitfleet.io/v1alpha1\nkind: FleetConfig\nmetadata:\n  name: fleet\n${spec}`;
}

/** member1 pinned to render repository a, member2 to b (none listed: both in the fleet repository). */
function fleetFiles(repos: Record<string, string>, labels = { member1: 'a', member2: 'b' }) {
  const listed = Object.keys(repos).length > 0;
  return {
    'fleet.yaml': fleetConfig(repos),
    'apps/shop.yaml': configMap('web'),
    'apps/policy.yaml': policy,
    'apps/ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n',
    'clusters/member1.yaml': cluster('member1', listed ? labels.member1 : undefined),
    'clusters/member2.yaml': cluster('member2', listed ? labels.member2 : undefined),
  };
}

function writeFiles(work: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) writeFileSync(join(work, path), content);
}

function renderRepos(): RenderRepositories {
  return new RenderRepositories({ open: (url) => localHubRepo(url), log: silentLogger() });
}

function pass(repo: FleetRepo, repos: RenderRepositories, cache = createHubPassCache()) {
  return hubPass(repo, { renderRepositories: repos, cache });
}

test('the hub writes each cluster branch to its render repository, none to the fleet repository, and records where', async () => {
  const a = bareRepo();
  const b = bareRepo();
  const repo = fleetRepoWith(fleetFiles({ a, b }), { bare: true });
  const repos = renderRepos();
  const cache = createHubPassCache();
  const first = rendered(await pass(repo, repos, cache));
  assert.equal(first.clusters['member1']?.type, 'updated');
  assert.deepEqual([...refsOf(a).keys()], ['refs/heads/gitfleet/clusters/member1']);
  assert.deepEqual([...refsOf(b).keys()], ['refs/heads/gitfleet/clusters/member2']);
  assert.equal(refsOf(repo.gitdir).size, 0, 'no cluster branch in the fleet repository');
  assert.equal(gitIn(repo.gitdir, ['show', 'gitfleet/bindings:.gitfleet/render-repositories/member1']), a);
  assert.equal(gitIn(repo.gitdir, ['show', 'gitfleet/bindings:.gitfleet/render-repositories/member2']), b);
  const trailers = gitIn(repo.gitdir, ['log', '-1', '--format=%B', 'gitfleet/bindings']);
  assert.ok(
    trailers.includes(
      `Gitfleet-Cluster-Commit: member1=${refsOf(a).get('refs/heads/gitfleet/clusters/member1')}`,
    ),
  );
  assert.ok(
    gitIn(a, ['ls-tree', '-r', '--name-only', 'gitfleet/clusters/member1']).includes(
      'shop/ConfigMap/web.yaml',
    ),
  );
  gitIn(a, ['fsck', '--no-dangling']);
  const second = await pass(repo, repos, cache);
  assert.equal(second.type, 'upToDate');
  const fresh = await pass(repo, renderRepos());
  assert.equal(fresh.type, 'upToDate', 'a fresh hub reads the render repositories and finds nothing to do');
});

test('a cluster moved into a render repository continues its history there; its old branch gets a tombstone', async () => {
  const a = bareRepo();
  const b = bareRepo();
  const repo = fleetRepoWith(fleetFiles({}), { bare: true });
  const repos = renderRepos();
  await pass(repo, repos);
  const before = refsOf(repo.gitdir).get('refs/heads/gitfleet/clusters/member1')!;
  const root = gitIn(repo.gitdir, ['rev-list', '--max-parents=0', before]);
  commitChange(repo, 'render repositories', (work) => writeFiles(work, fleetFiles({ a, b })));
  const moved = rendered(await pass(repo, repos));
  assert.equal(moved.clusters['member1']?.type, 'updated');
  const inA = refsOf(a).get('refs/heads/gitfleet/clusters/member1')!;
  assert.equal(
    gitIn(a, ['rev-parse', `${inA}^`]),
    before,
    'the first commit in the new repository continues from the last one',
  );
  assert.equal(
    gitIn(a, ['rev-list', '--max-parents=0', inA]),
    root,
    'same root: the fleet identity does not change',
  );
  assert.match(
    gitIn(a, ['log', '-1', '--format=%B', inA]),
    new RegExp(`Gitfleet-Moved-From: fleet-repository ${before}`),
  );
  const old = refsOf(repo.gitdir).get('refs/heads/gitfleet/clusters/member1')!;
  assert.equal(gitIn(repo.gitdir, ['rev-parse', `${old}^`]), before);
  assert.deepEqual(gitIn(repo.gitdir, ['ls-tree', '-r', '--name-only', old]), '.gitfleet/tombstone.yaml');
  assert.match(gitIn(repo.gitdir, ['show', `${old}:.gitfleet/tombstone.yaml`]), /reason: Moved/);
  assert.match(gitIn(repo.gitdir, ['log', '-1', '--format=%B', old]), new RegExp(`Gitfleet-Moved-To: ${a}`));
  // member1 moves on to b: b continues from a, a is tombstoned, the fleet repository's tombstone stays.
  commitChange(repo, 'member1 to b', (work) =>
    writeFiles(work, fleetFiles({ a, b }, { member1: 'b', member2: 'b' })),
  );
  rendered(await pass(repo, repos));
  const inB = refsOf(b).get('refs/heads/gitfleet/clusters/member1')!;
  assert.equal(gitIn(b, ['rev-parse', `${inB}^`]), inA);
  assert.equal(gitIn(b, ['rev-list', '--max-parents=0', inB]), root);
  const leftInA = refsOf(a).get('refs/heads/gitfleet/clusters/member1')!;
  assert.match(gitIn(a, ['show', `${leftInA}:.gitfleet/tombstone.yaml`]), /reason: Moved/);
  assert.equal(
    refsOf(repo.gitdir).get('refs/heads/gitfleet/clusters/member1'),
    old,
    'a tombstone is written once',
  );
  assert.equal(gitIn(repo.gitdir, ['show', 'gitfleet/bindings:.gitfleet/render-repositories/member1']), b);
  assert.equal((await pass(repo, repos)).type, 'upToDate');
});

test('a render repository that cannot be read holds its clusters: their branches and records stay, the others are published', async () => {
  const a = bareRepo();
  const b = join(bareRepo(), 'not-yet');
  const repo = fleetRepoWith(fleetFiles({ a, b }), { bare: true });
  const repos = renderRepos();
  const result = rendered(await pass(repo, repos));
  assert.equal(result.clusters['member1']?.type, 'updated');
  assert.equal(result.clusters['member2']?.type, 'held');
  const diagnostic = result.diagnostics.find((d) => d.code === 'RenderRepositoryUnavailable');
  assert.equal(diagnostic?.cluster, 'member2');
  assert.ok(diagnostic?.message.includes(b), diagnostic?.message);
  assert.equal(refsOf(repo.gitdir).size, 0, 'a held cluster is not written to the fleet repository either');
  const records = gitIn(repo.gitdir, ['ls-tree', '-r', '--name-only', 'gitfleet/bindings']);
  assert.ok(!records.includes('render-repositories/member2'), records);
  assert.ok(
    !records.includes('shop/ConfigMap/web.yaml'),
    'no record says member2 runs what was not published',
  );
  assert.match(
    gitIn(repo.gitdir, ['log', '-1', '--format=%B', 'gitfleet/bindings']),
    /Gitfleet-Render-Held: member2: /,
  );
  // Held: every pass tries again. Once the repository exists, member2 is published and the record written.
  assert.equal((await pass(repo, repos)).type, 'rendered');
  execFileSync('git', ['init', '-q', '--bare', b]);
  const back = rendered(await pass(repo, repos));
  assert.equal(back.clusters['member2']?.type, 'updated');
  assert.deepEqual([...refsOf(b).keys()], ['refs/heads/gitfleet/clusters/member2']);
  assert.ok(
    gitIn(repo.gitdir, ['ls-tree', '-r', '--name-only', 'gitfleet/bindings']).includes(
      'shop/ConfigMap/web.yaml',
    ),
  );
  assert.doesNotMatch(
    gitIn(repo.gitdir, ['log', '-1', '--format=%B', 'gitfleet/bindings']),
    /Gitfleet-Render-Held/,
  );
  assert.equal((await pass(repo, repos)).type, 'upToDate');
});

test('gitfleet log reads each cluster branch in its render repository, and names one it cannot read', async () => {
  const a = bareRepo();
  const b = bareRepo();
  const repo = fleetRepoWith(fleetFiles({ a, b }), { bare: true });
  rendered(await pass(repo, renderRepos()));
  const log = await runCli(['log', '--repo', repo.path, '--output', 'json']);
  assert.equal(log.code, 0, log.stderr);
  const { entries } = JSON.parse(log.stdout) as { entries: { cluster: string; commit: string }[] };
  assert.deepEqual(entries.map((e) => [e.cluster, e.commit]).sort(), [
    ['member1', refsOf(a).get('refs/heads/gitfleet/clusters/member1')],
    ['member2', refsOf(b).get('refs/heads/gitfleet/clusters/member2')],
  ]);
  rmSync(b, { recursive: true, force: true });
  const partial = await runCli(['log', '--repo', repo.path]);
  assert.equal(partial.code, 0, partial.stderr);
  assert.match(partial.stderr, new RegExp(`member2: not read: render repository ${b} cannot be read`));
  assert.match(partial.stdout, /member1/);
  const one = await runCli(['log', '--repo', repo.path, '--cluster', 'member2']);
  assert.equal(one.code, 1);
  assert.match(one.stderr, new RegExp(`member2: render repository ${b} cannot be read`));
});
