// The hub and agents with render repositories, on real repositories (local paths) and the fake
// cluster: each agent learns from the fleet repository's bindings branch where its branch lives,
// applies it from there, writes its status to the fleet repository, follows a move without
// applying an older state or pruning, and, pinned to an old repository with --render-repo,
// stops at its tombstone and deletes nothing.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { agentBranchRepo, type AgentBranchRepo } from '../../../src/loops/agent/agent-branch-repo.js';
import { localAgentRepo } from '../../../src/loops/agent/agent-repo.js';
import { RenderRepositories } from '../../../src/loops/hub/render-repositories.js';
import { silentLogger, type Logger } from '../../../src/loops/runtime/logger.js';
import { localHubRepo } from '../../../src/adapters/remote/hub-repo.js';
import { fakeAgent } from '../agent/fake-agent.js';
import { clusterMonitor } from '../../../src/loops/hub/cluster-monitor.js';
import { defaultClusterMonitorSettings } from '../../../src/loops/hub/cluster-monitor-rules.js';
import { fakeClock } from '../runtime/fake-clock.js';
import { commitChange, fleetRepoWith, git, hubPass, rendered, removeFleetRepos } from './hub-fixture.js';

const dirs: string[] = [];
after(() => {
  removeFleetRepos();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function bareRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gitfleet-render-'));
  dirs.push(dir);
  execFileSync('git', ['init', '-q', '--bare', dir]);
  return dir;
}

function headIn(gitdir: string, cluster: string): string {
  return execFileSync('git', ['--git-dir', gitdir, 'rev-parse', `refs/heads/gitfleet/clusters/${cluster}`], {
    encoding: 'utf8',
  }).trim();
}

const files = (a: string, b: string, member1: string) => ({
  'fleet.yaml': `apiVersion: gitfleet.io/v1alpha1\nkind: FleetConfig\nmetadata:\n  name: fleet\nspec:\n  renderRepositories:\n    - name: a\n      url: ${a}\n    - name: b\n      url: ${b}\n`,
  'apps/ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n',
  'apps/shop.yaml':
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  namespace: shop\ndata:\n  a: "1"\n',
  'apps/policy.yaml': [
    'apiVersion: policy.karmada.io/v1alpha1',
    'kind: PropagationPolicy',
    'metadata: { name: shop, namespace: shop }',
    'spec:',
    '  resourceSelectors: [{ apiVersion: v1, kind: ConfigMap }]',
    '  placement: { clusterAffinity: { clusterNames: [member1] } }',
    '',
  ].join('\n'),
  'clusters/member1.yaml': `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: member1\n  labels:\n    gitfleet.io/render-repository: ${member1}\n`,
});

function recording(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
}

function branchRepo(fleet: string, log: Logger, override?: string): Promise<AgentBranchRepo> {
  const repo = localAgentRepo(fleet);
  return agentBranchRepo(
    {
      fleet: repo,
      fleetWithoutBranch: () => repo,
      render: (url) => Promise.resolve(localAgentRepo(url)),
      ...(override ? { override } : {}),
    },
    { branchPrefix: 'gitfleet/', cluster: 'member1', log },
  );
}

const web = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'web' };

test('an agent reads its branch where the bindings branch says, follows a move, and never prunes for it', async () => {
  const [a, b] = [bareRepo(), bareRepo()];
  const repo = fleetRepoWith(files(a, b, 'a'), { bare: true });
  const hub = new RenderRepositories({ open: localHubRepo, log: silentLogger() });
  rendered(await hubPass(repo, { renderRepositories: hub }));
  const log = recording();
  const where = await branchRepo(repo.path, log);
  const agent = fakeAgent({ repo: where, cluster: 'member1' });
  const first = await agent.pass({ fleetRepo: () => where.fleetRepo() });
  assert.equal(first.fullyApplied, true);
  assert.equal(first.commit, headIn(a, 'member1'), 'applied from render repository a');
  assert.equal(where.location(), a);
  assert.ok(agent.fake.peek(web));
  // Read as YAML: an id such as 0b2440… or 1e10… is written quoted, lest it read as a number.
  const report = yaml.load(git(repo, ['show', 'refs/heads/gitfleet/status/member1:cluster.yaml'])) as {
    appliedCommit?: string;
  };
  assert.equal(report.appliedCommit, headIn(a, 'member1'), 'status goes to the fleet repository');
  // The hub moves member1 to b: the agent follows the record, applies the continued branch, prunes nothing.
  commitChange(repo, 'member1 to b', (work) =>
    writeFileSync(join(work, 'clusters/member1.yaml'), files(a, b, 'b')['clusters/member1.yaml']),
  );
  rendered(await hubPass(repo, { renderRepositories: hub }));
  const moved = await agent.pass({ fleetRepo: () => where.fleetRepo() });
  assert.equal(where.location(), b);
  assert.equal(moved.commit, headIn(b, 'member1'));
  assert.equal(moved.fullyApplied, true);
  assert.equal(moved.prune?.deleted.length ?? 0, 0, 'a move deletes nothing');
  assert.ok(agent.fake.peek(web), 'the object stays');
  assert.ok(
    log.lines.some((l) => l.includes(`the hub publishes it in ${b} now, not ${a}`)),
    log.lines.join('\n'),
  );
});

test('an agent pinned with --render-repo to the old repository stops at its tombstone, deletes nothing, and says so once', async () => {
  const [a, b] = [bareRepo(), bareRepo()];
  const repo = fleetRepoWith(files(a, b, 'a'), { bare: true });
  const hub = new RenderRepositories({ open: localHubRepo, log: silentLogger() });
  rendered(await hubPass(repo, { renderRepositories: hub }));
  const log = recording();
  const pinned = await branchRepo(repo.path, log, a);
  const agent = fakeAgent({ repo: pinned, cluster: 'member1' });
  assert.equal((await agent.pass({ fleetRepo: () => pinned.fleetRepo() })).fullyApplied, true);
  commitChange(repo, 'member1 to b', (work) =>
    writeFileSync(
      join(work, 'clusters/member1.yaml'),
      readFileSync(join(work, 'clusters/member1.yaml'), 'utf8').replace(': a\n', ': b\n'),
    ),
  );
  rendered(await hubPass(repo, { renderRepositories: hub }));
  for (let i = 0; i < 2; i++) {
    const stopped = await agent.pass({ fleetRepo: () => pinned.fleetRepo() });
    assert.equal(stopped.type, 'tombstoned');
    assert.equal(stopped.prune, undefined, 'nothing deleted');
  }
  assert.ok(agent.fake.peek(web));
  assert.equal(pinned.location(), a);
  const warned = log.lines.filter((l) => l.startsWith('warn'));
  assert.equal(warned.length, 1, log.lines.join('\n'));
  assert.match(warned[0]!, new RegExp(`the hub publishes it in ${b}, --render-repo says ${a}`));
});

test('the cluster monitor judges a cluster whose branch lives only in a render repository', async () => {
  const [a, b] = [bareRepo(), bareRepo()];
  const repo = fleetRepoWith(files(a, b, 'a'), { bare: true });
  const hub = new RenderRepositories({ open: localHubRepo, log: silentLogger() });
  rendered(await hubPass(repo, { renderRepositories: hub }));
  const clock = fakeClock();
  const monitor = clusterMonitor({
    gitdir: repo.gitdir,
    branchPrefix: 'gitfleet/',
    settings: defaultClusterMonitorSettings,
    elapsed: () => clock.now(),
    clock,
    log: silentLogger(),
    renderRepositories: hub,
  });
  await monitor.look();
  for (let s = 5; s <= 120; s += 5) {
    clock.advance(5000);
    await monitor.look();
  }
  assert.deepEqual(
    [...monitor.verdicts()].map(([c, v]) => `${c}=${v.reason}`),
    ['member1=ClusterStatusNeverUpdated'],
    'member1 has a branch (in render repository a) and never reported',
  );
});
