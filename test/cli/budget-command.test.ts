import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, makeServedRepo } from '../git-server/git-cli.js';
import { startGitServer } from '../git-server/start-git-server.js';
import { exampleDir } from '../loops/hub/hub-fixture.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';
import { runCli } from './run-cli.js';

after(removeTempDirs);

interface BudgetJson {
  forge: string;
  repositories: {
    url: string;
    role: string;
    readsPerSecond: number;
    pushesPerMinute: number;
    budget: { readsPerSecond: number; pushesPerMinute: number };
    within: boolean;
  }[];
  pushToAppliedSeconds: { p50: number; p99: number };
  notReadyDetectionSeconds: number;
}

async function budgetJson(...args: string[]): Promise<{ code: number; json: BudgetJson }> {
  const run = await runCli(['budget', '--repo', exampleDir, ...args, '-o', 'json']);
  return { code: run.code, json: JSON.parse(run.stdout) as BudgetJson };
}

test('JSON has exactly the contract: forge, repositories with url, role, rates, budget and within, the latencies.', async () => {
  const { code, json } = await budgetJson('--forge', 'github', '--clusters', '100', '--dashboards', '0');
  assert.equal(code, 0);
  assert.deepEqual(Object.keys(json), [
    'forge',
    'repositories',
    'pushToAppliedSeconds',
    'notReadyDetectionSeconds',
    'pacing',
    'work',
  ]);
  assert.equal(json.forge, 'github');
  assert.deepEqual(json.repositories, [
    {
      url: exampleDir,
      role: 'fleet',
      // 100 agents × (1/30 s + 1/5 min), the hub every minute; 100 heartbeats every 20 minutes.
      readsPerSecond: 3.683,
      pushesPerMinute: 5,
      budget: { readsPerSecond: 15, pushesPerMinute: 6 },
      within: true,
    },
  ]);
  assert.deepEqual(Object.keys(json.pushToAppliedSeconds), ['p50', 'p99']);
  assert.ok(json.notReadyDetectionSeconds > 45 * 60);
});

test("The example fleet's five clusters are counted from the repository; --clusters overrides them.", async () => {
  const five = await budgetJson('--forge', 'generic', '--dashboards', '0');
  // Today's defaults: each agent 1 + 1/30 reads a second, the hub 1/30.
  assert.equal(
    five.json.repositories[0]!.readsPerSecond,
    Math.round((5 * (1 + 1 / 30) + 1 / 30) * 1000) / 1000,
  );
  assert.equal(five.json.repositories[0]!.pushesPerMinute, 30);
  const ten = await budgetJson('--forge', 'generic', '--dashboards', '0', '--clusters', '10');
  assert.equal(ten.json.repositories[0]!.pushesPerMinute, 60);
});

test("Today's defaults on github are over budget at 100 clusters: exit 1, and the text says what to change.", async () => {
  const run = await runCli(['budget', '--repo', exampleDir, '--forge', 'generic', '--clusters', '100']);
  assert.equal(run.code, 0, 'generic has no budget');
  const over = await runCli([
    ...['budget', '--repo', exampleDir, '--forge', 'github', '--clusters', '100'],
    ...['--branch-poll', '1s', '--cluster-lease-duration', '40s'],
  ]);
  assert.equal(over.code, 1, over.stdout);
  assert.match(over.stdout, /fleet +fleet +\d+\.\d+ .* OVER/);
  assert.match(over.stdout, /reads: agent --branch-poll \d+s or longer, or the doorbell/);
  assert.match(over.stdout, /over budget$/);
  // The profile's --push-spread holds the 20 s heartbeats to one push per agent in 20 minutes.
  assert.match(over.stdout, /fleet +fleet +[\d.]+ +\([\d.]+\) +15 +5\.00/);
  // Unpaced (a spread of 1 ms), the heartbeats alone are 300 pushes a minute.
  const unpaced = await runCli([
    ...['budget', '--repo', exampleDir, '--forge', 'github', '--clusters', '100', '--push-spread', '1ms'],
    ...['--cluster-lease-duration', '40s'],
  ]);
  assert.match(unpaced.stdout, /pushes: \d+ status repositories, or a heartbeat every \d+s or more/);
});

test('Pacing that holds heartbeats past the grace period is said, since the hub would judge live clusters without beacons.', async () => {
  const run = await runCli([
    ...['budget', '--repo', exampleDir, '--forge', 'github', '--clusters', '100'],
    ...['--cluster-monitor-grace-period', '40s'],
  ]);
  assert.match(
    run.stdout,
    /warning: pacing holds each agent's pushes up to 1200s apart, past the hub's --cluster-monitor-grace-period 40s/,
  );
  const doorbell = await runCli([
    ...['budget', '--repo', exampleDir, '--forge', 'github', '--clusters', '100', '--doorbell'],
  ]);
  assert.doesNotMatch(doorbell.stdout, /warning:/);
});

test('Status repositories appear as repositories of their own, with the heartbeats shared among them.', async () => {
  const { json } = await budgetJson('--forge', 'github', '--clusters', '100', '--status-repositories', '2');
  assert.deepEqual(
    json.repositories.map((r) => [r.url, r.role, r.pushesPerMinute]),
    [
      [exampleDir, 'fleet', 0],
      ['status-1', 'status', 2.5],
      ['status-2', 'status', 2.5],
    ],
  );
});

test('With the doorbell, --status-lag and --fetch-spread price the status and render repositories those latencies take.', async () => {
  const shape = ['--forge', 'github', '--clusters', '1000', '--doorbell', '--webhook', '--dashboards', '0'];
  const { code, json } = await budgetJson(...shape, '--status-lag', '5m', '--fetch-spread', '30s');
  assert.equal(code, 0);
  const count = (role: string, repositories = json.repositories) =>
    repositories.filter((r) => r.role === role).length;
  assert.equal(count('status'), 46);
  const render = count('render');
  assert.ok(render > 1);
  const spread = (j: BudgetJson) => (j as BudgetJson & { pacing: { fetchSpreadSeconds: number } }).pacing;
  assert.ok(spread(json).fetchSpreadSeconds <= 30, `${spread(json).fetchSpreadSeconds} s`);
  const fewer = await budgetJson(...shape, '--status-lag', '5m', '--render-repositories', String(render - 1));
  assert.ok(spread(fewer.json).fetchSpreadSeconds > 30, 'one render repository fewer would not do');
  const alone = await runCli(['budget', '--repo', exampleDir, '--fetch-spread', '30s']);
  assert.equal(alone.code, 2);
  assert.match(alone.stderr, /--fetch-spread needs --doorbell/);
  const both = await runCli([
    'budget',
    '--repo',
    exampleDir,
    '--doorbell',
    '--fetch-spread',
    '30s',
    '--render-repositories',
    '3',
  ]);
  assert.equal(both.code, 2);
  assert.match(both.stderr, /give --fetch-spread or --render-repositories, not both/);
});

test('On gitlab reads and pushes share 600 operations a minute: over it, exit 1.', async () => {
  const within = await budgetJson('--forge', 'gitlab', '--clusters', '100');
  assert.equal(within.code, 0);
  const over = await budgetJson('--forge', 'gitlab', '--clusters', '100', '--branch-poll', '5s');
  assert.equal(over.code, 1);
  assert.ok(over.json.repositories[0]!.readsPerSecond < 30, 'each alone might fit: 20 reads/s is past 10');
});

test('The generic budget is unlimited, written as a large number in JSON.', async () => {
  const { json } = await budgetJson('--forge', 'generic', '--clusters', '10000');
  assert.equal(json.repositories[0]!.within, true);
  assert.ok(json.repositories[0]!.budget.readsPerSecond >= 1e9);
});

test('Bad input is named: a count that is not a number, a fleet that does not load, a path that is no repository.', async () => {
  const count = await runCli(['budget', '--repo', exampleDir, '--clusters', 'many']);
  assert.equal(count.code, 2);
  assert.match(count.stderr, /--clusters must be a whole number of clusters, 0 or more, not 'many'/);
  const churn = await runCli(['budget', '--repo', exampleDir, '--fleet-pushes-per-hour=-3']);
  assert.equal(churn.code, 2);
  assert.match(churn.stderr, /--fleet-pushes-per-hour must be a number an hour/);
  const broken = tempDir('budget-broken');
  cpSync(exampleDir, broken, { recursive: true });
  writeFileSync(join(broken, 'clusters', 'bad.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: [\n');
  const load = await runCli(['budget', '--repo', broken]);
  assert.equal(load.code, 1);
  assert.match(load.stderr, /the fleet does not load: .*clusters\/bad\.yaml/);
  const missing = await runCli(['budget', '--repo', join(broken, 'nothing-here')]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /nothing-here: not a directory/);
});

test('A repository URL is read through a mirror: its clusters are counted, and the URL shows without its credentials.', async () => {
  const root = tempDir('budget-served');
  makeServedRepo(root, 'fleet.git');
  const server = await startGitServer({ root, token: 'budget-token-0123' });
  const cache = tempDir('budget-cache');
  const saved = { token: process.env['GITFLEET_GIT_TOKEN'], cache: process.env['XDG_CACHE_HOME'] };
  try {
    const work = tempDir('budget-work');
    cpSync(exampleDir, work, { recursive: true });
    await git(work, ['-c', 'init.defaultBranch=main', 'init', '-q']);
    await git(work, ['add', '-A']);
    await git(work, ['commit', '-q', '-m', 'fleet']);
    await git(work, [
      '-c',
      'http.extraHeader=Authorization: Bearer budget-token-0123',
      'push',
      '-q',
      server.url('fleet.git'),
      'HEAD:main',
    ]);
    process.env['GITFLEET_GIT_TOKEN'] = 'budget-token-0123';
    process.env['XDG_CACHE_HOME'] = cache;
    const url = server.url('fleet.git').replace('http://', 'http://someone:secret@');
    const run = await runCli([
      'budget',
      '--repo',
      url,
      '--forge',
      'generic',
      '--dashboards',
      '0',
      '-o',
      'json',
    ]);
    assert.equal(run.code, 0, run.stderr);
    const json = JSON.parse(run.stdout) as BudgetJson;
    assert.equal(json.repositories[0]!.pushesPerMinute, 30, 'five clusters, a heartbeat every 10 s each');
    assert.ok(!run.stdout.includes('secret'), run.stdout);
  } finally {
    for (const [key, value] of [
      ['GITFLEET_GIT_TOKEN', saved.token],
      ['XDG_CACHE_HOME', saved.cache],
    ] as const)
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    await server.close();
  }
});

test("Without --status-repositories the FleetConfig's spec.statusRepositories are priced; the flag overrides them.", async () => {
  const dir = tempDir('gitfleet-budget-status-');
  cpSync(exampleDir, dir, { recursive: true });
  const fleetYaml = join(dir, 'fleet.yaml');
  writeFileSync(
    fleetYaml,
    readFileSync(fleetYaml, 'utf8') +
      '  statusRepositories:\n' +
      '    - { name: status-a, url: https://git.example.com/org/status-a.git }\n' +
      '    - { name: status-b, url: https://git.example.com/org/status-b.git }\n',
  );
  const roles = async (...args: string[]) => {
    const run = await runCli(['budget', '--repo', dir, '--forge', 'github', ...args, '-o', 'json']);
    return (JSON.parse(run.stdout) as BudgetJson).repositories.map((r) => r.role);
  };
  assert.deepEqual(await roles(), ['fleet', 'status', 'status']);
  assert.deepEqual(await roles('--status-repositories', '0'), ['fleet']);
});

test("Without --render-repositories the FleetConfig's spec.renderRepositories are priced; the flag overrides them.", async () => {
  const dir = tempDir('gitfleet-budget-render-');
  cpSync(exampleDir, dir, { recursive: true });
  const fleetYaml = join(dir, 'fleet.yaml');
  writeFileSync(
    fleetYaml,
    readFileSync(fleetYaml, 'utf8') +
      '  renderRepositories:\n' +
      '    - { name: render-a, url: https://git.example.com/org/render-a.git }\n' +
      '    - { name: render-b, url: https://git.example.com/org/render-b.git }\n',
  );
  const run = async (...args: string[]) => {
    const out = await runCli(['budget', '--repo', dir, '--forge', 'github', ...args, '-o', 'json']);
    return JSON.parse(out.stdout) as BudgetJson;
  };
  const priced = await run();
  assert.deepEqual(
    priced.repositories.map((r) => r.role),
    ['fleet', 'render', 'render'],
  );
  const alone = await run('--render-repositories', '0');
  assert.deepEqual(
    alone.repositories.map((r) => r.role),
    ['fleet'],
  );
  assert.ok(
    priced.repositories[0]!.readsPerSecond < alone.repositories[0]!.readsPerSecond,
    "the agents' branch polls leave the fleet repository",
  );
  const text = await runCli(['budget', '--repo', dir, '--forge', 'github']);
  assert.match(
    text.stdout,
    /render-1 +render .* 3 +(yes|no)/,
    'refs per repository: render-1 holds 3 of the 5 cluster branches',
  );
});
