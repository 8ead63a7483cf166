// The hub and agents with status repositories (loops/hub/status-repositories.ts,
// loops/agent/status-target.ts): real repositories, the agent on the fake cluster, the monitor
// on the fake clock. The agent writes where its branch says; the hub reads each cluster from its
// repository; one that cannot be read makes that cluster unreadable, never NotReady.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { localAgentRepo, type AgentRepo } from '../../../src/loops/agent/agent-repo.js';
import { writeHeartbeat } from '../../../src/loops/agent/heartbeat.js';
import type { StatusRepos } from '../../../src/loops/agent/status-target.js';
import { clusterMonitor } from '../../../src/loops/hub/cluster-monitor.js';
import { defaultClusterMonitorSettings } from '../../../src/loops/hub/cluster-monitor-rules.js';
import { StatusRepositories } from '../../../src/loops/hub/status-repositories.js';
import { readFleetStatus } from '../../../src/loops/views/read-fleet-status.js';
import { silentLogger } from '../../../src/loops/runtime/logger.js';
import { localHubRepo } from '../../../src/adapters/remote/hub-repo.js';
import { fakeAgent } from '../agent/fake-agent.js';
import { fakeClock, type FakeClock } from '../runtime/fake-clock.js';
import {
  commitChange,
  commitReadyReport,
  fleetRepoWith,
  git,
  hubPass,
  rendered,
  removeFleetRepos,
  type FleetRepo,
  shopPolicy as policy,
  emptyBareRepo,
} from './hub-fixture.js';

after(removeFleetRepos);

const bareRepo = emptyBareRepo;

const configMap =
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n  namespace: shop\ndata:\n  a: "1"\n';

function cluster(name: string, statusRepository?: string): string {
  const labels = statusRepository
    ? `  labels:\n    gitfleet.io/status-repository: ${statusRepository}\n`
    : '';
  return `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${name}\n${labels}`;
}

function fleetConfig(repos: Record<string, string>): string {
  const list = Object.entries(repos).map(([name, url]) => `    - name: ${name}\n      url: ${url}\n`);
  return `apiVersion: gitfleet.io/v1alpha1\nkind: FleetConfig\nmetadata:\n  name: fleet\nspec:\n  statusRepositories:\n${list.join('')}`;
}

/** member1 on status repository a, member2 on b. */
function fleetOn(a: string, b: string): FleetRepo {
  return fleetRepoWith(
    {
      'fleet.yaml': fleetConfig({ a, b }),
      'apps/shop.yaml': configMap,
      'apps/policy.yaml': policy,
      'apps/ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n',
      'clusters/member1.yaml': cluster('member1', 'a'),
      'clusters/member2.yaml': cluster('member2', 'b'),
    },
    { bare: true },
  );
}

function hubStatus(): StatusRepositories {
  return new StatusRepositories({ open: localHubRepo, branchPrefix: () => 'gitfleet/', log: silentLogger() });
}

const agentRepos: StatusRepos = { open: (url) => Promise.resolve(localAgentRepo(url)) };

function statusTrailers(repo: FleetRepo): string[] {
  const message = git(repo, ['log', '-1', '--format=%B', 'refs/heads/gitfleet/bindings']);
  return message.split('\n').filter((l) => l.startsWith('Gitfleet-Status-Commit:'));
}

function refsUnder(gitdir: string, prefix: string): string[] {
  return execFileSync('git', ['--git-dir', gitdir, 'for-each-ref', '--format=%(refname)', prefix], {
    encoding: 'utf8',
  })
    .split('\n')
    .filter(Boolean);
}

function beat(repo: AgentRepo, cluster: string, clock: FakeClock): Promise<string> {
  return writeHeartbeat({
    repo,
    ref: `refs/heads/gitfleet/heartbeat/${cluster}`,
    cluster,
    author: {
      name: 'agent',
      email: 'agent@gitfleet.invalid',
      time: Math.floor(clock.now() / 1000),
      tzOffsetMinutes: 0,
    },
  });
}

test('each agent writes its status repository, nothing lands in the fleet repository, and the hub reads each report from there', async () => {
  const [a, b] = [bareRepo(), bareRepo()];
  const repo = fleetOn(a, b);
  const status = hubStatus();
  rendered(await hubPass(repo, { statusRepositories: status }));
  const heads = new Map<string, string>();
  for (const [name, where] of [
    ['member1', a],
    ['member2', b],
  ] as const) {
    const agent = fakeAgent({ repo: localAgentRepo(repo.path), cluster: name });
    const result = await agent.pass({ statusRepos: agentRepos });
    assert.equal(result.fullyApplied, true, name);
    assert.equal(result.status.type, 'written', name);
    heads.set(name, git(repo, ['--git-dir', where, 'rev-parse', `refs/heads/gitfleet/status/${name}`]));
  }
  assert.deepEqual(
    refsUnder(repo.gitdir, 'refs/heads/gitfleet/status/'),
    [],
    'no status branch in the fleet repository',
  );
  assert.deepEqual(refsUnder(a, 'refs/heads/gitfleet/status/'), ['refs/heads/gitfleet/status/member1']);
  // A hub process just started (a fresh StatusRepositories) must not take the bindings branch's
  // word that nothing changed: it has to know the assignment first.
  rendered(await hubPass(repo, { statusRepositories: hubStatus() }));
  assert.deepEqual(statusTrailers(repo), [
    `Gitfleet-Status-Commit: member1=${heads.get('member1')}`,
    `Gitfleet-Status-Commit: member2=${heads.get('member2')}`,
  ]);
});

test('a status repository that cannot be read: its cluster is unreadable in the pass, and the monitor never judges it', async () => {
  const a = bareRepo();
  const missing = join(bareRepo(), 'no-such-repository.git');
  const repo = fleetOn(a, missing);
  const status = hubStatus();
  const result = rendered(await hubPass(repo, { statusRepositories: status }));
  assert.match(
    result.statusUnreadable?.['member2'] ?? '',
    /^status repository .*no-such-repository\.git cannot be read: .*not a git repository/,
  );
  assert.equal(result.statusUnreadable?.['member1'], undefined);
  const clock = fakeClock();
  const monitor = clusterMonitor({
    gitdir: repo.gitdir,
    branchPrefix: 'gitfleet/',
    settings: defaultClusterMonitorSettings,
    elapsed: () => clock.now(),
    clock,
    log: silentLogger(),
    statusRepositories: status,
  });
  const member1 = localAgentRepo(a);
  await beat(member1, 'member1', clock);
  await monitor.look();
  for (let s = 5; s <= 600; s += 5) {
    clock.advance(5000);
    if (s % 10 === 0) await beat(member1, 'member1', clock);
    await monitor.look();
  }
  assert.equal(monitor.judging(), true);
  assert.deepEqual(
    [...monitor.verdicts().keys()],
    [],
    'member1 beats in its status repository; member2 is unreadable, not Unknown',
  );
});

test('a cluster moved to a status repository keeps its last report from the fleet repository until its agent writes there', async () => {
  const a = bareRepo();
  const repo = fleetRepoWith(
    {
      'apps/shop.yaml': configMap,
      'apps/policy.yaml': policy,
      'apps/ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n',
      'clusters/member1.yaml': cluster('member1'),
      'clusters/member2.yaml': cluster('member2'),
    },
    { bare: true },
  );
  const status = hubStatus();
  rendered(await hubPass(repo, { statusRepositories: status }));
  await commitReadyReport(repo, 'member1', 'True');
  const before = git(repo, ['rev-parse', 'refs/heads/gitfleet/status/member1']);
  commitChange(repo, 'status to a', (work) => {
    execFileSync('sh', ['-c', `cat > ${join(work, 'fleet.yaml')}`], { input: fleetConfig({ a }) });
  });
  rendered(await hubPass(repo, { statusRepositories: status }));
  assert.ok(
    statusTrailers(repo).includes(`Gitfleet-Status-Commit: member1=${before}`),
    'the old report stands',
  );
  const agent = fakeAgent({ repo: localAgentRepo(repo.path), cluster: 'member1' });
  assert.equal((await agent.pass({ statusRepos: agentRepos })).status.type, 'written');
  const moved = git(repo, ['--git-dir', a, 'rev-parse', 'refs/heads/gitfleet/status/member1']);
  rendered(await hubPass(repo, { statusRepositories: status }));
  assert.ok(
    statusTrailers(repo).includes(`Gitfleet-Status-Commit: member1=${moved}`),
    'the new report counts once written',
  );
});

test('gitfleet status and the dashboard read each cluster from its status repository, and name one that cannot be read', async () => {
  const a = bareRepo();
  const missing = join(bareRepo(), 'gone.git');
  const repo = fleetOn(a, missing);
  const status = hubStatus();
  rendered(await hubPass(repo, { statusRepositories: status }));
  for (const name of ['member1', 'member2']) {
    const agent = fakeAgent({ repo: localAgentRepo(repo.path), cluster: name });
    await agent.pass({ statusRepos: agentRepos });
  }
  const withBeat = localAgentRepo(a);
  await beat(withBeat, 'member1', fakeClock());
  rendered(await hubPass(repo, { statusRepositories: status }));
  for (const branchPrefix of [undefined, 'gitfleet/']) {
    const data = await readFleetStatus({ dir: repo.path, ...(branchPrefix ? { branchPrefix } : {}) });
    assert.equal(
      data.reports.get('member1')?.appliedCommit,
      git(repo, ['rev-parse', 'refs/heads/gitfleet/clusters/member1']),
    );
    assert.ok(data.heartbeatTimes.has('member1'), 'the heartbeat is read from the status repository');
    assert.equal(data.reports.has('member2'), false);
    assert.match(data.unreadable.get('member2') ?? '', /^status repository .*gone\.git cannot be read/);
  }
});

test('the hub says once that a status repository cannot be read, and once that it answers again', async () => {
  const dir = join(bareRepo(), 'later.git');
  const lines: string[] = [];
  const log = {
    info: (m: string) => lines.push(`info ${m}`),
    warn: (m: string) => lines.push(`warn ${m}`),
    error: (m: string) => lines.push(`error ${m}`),
  };
  const status = new StatusRepositories({ open: localHubRepo, branchPrefix: () => 'gitfleet/', log });
  status.assign(new Map([['member1', dir]]));
  for (let i = 0; i < 3; i++) await status.refresh();
  assert.equal(lines.length, 1, lines.join('\n'));
  assert.match(
    lines[0]!,
    /^warn status repository .*later\.git cannot be read: .*; the status of its clusters is unreadable \(not NotReady\)/,
  );
  assert.deepEqual([...status.unreadable().keys()], ['member1']);
  execFileSync('git', ['init', '-q', '--bare', dir]);
  for (let i = 0; i < 3; i++) await status.refresh();
  assert.deepEqual(lines.slice(1), [`info status repository ${dir} answers again`]);
  assert.equal(status.unreadable().size, 0);
});
