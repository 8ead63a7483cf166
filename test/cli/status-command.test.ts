// gitfleet status against a real repository whose gitfleet branches are built with git's
// plumbing (a temporary index, write-tree, commit-tree, update-ref), their files written by the
// same functions the hub and the agent use.
import { runCli, type CliRun } from './run-cli.js';
import yaml from 'js-yaml';
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Binding } from '../../src/core/model/binding.js';
import type { ObjectRef } from '../../src/core/model/object-ref.js';
import type { RolloutState } from '../../src/core/model/rollout.js';
import { rolloutRecordPath, rolloutRecordText } from '../../src/core/rollout/rollout-record.js';
import { bindingRecord } from '../../src/core/publish/binding-record.js';
import { objectPath } from '../../src/core/format/object-path.js';
import { statusBranchFiles, type AgentReport } from '../../src/core/status/status-branch.js';
import type { StatusRow } from '../../src/core/status/status-table.js';
import { cleanup, git, initRepo, tempDir, writeFiles } from '../adapters/source/git-fixture.js';
import { aPlacement } from '../core/builders.js';

after(cleanup);

const web: ObjectRef = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' };
const settings: ObjectRef = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'settings' };

function aBinding(resource: ObjectRef, replicas: number, clusters: [string, number][]): Binding {
  return {
    name: `${resource.name}-${resource.kind.toLowerCase()}`,
    resource,
    key: `${resource.apiVersion.includes('/') ? 'apps' : ''}/${resource.kind}/shop/${resource.name}`,
    policy: { kind: 'PropagationPolicy', namespace: 'shop', name: 'all' },
    origin: 'policy',
    replicas,
    placement: aPlacement(),
    propagateDeps: false,
    conflictResolution: 'Abort',
    preserveResourcesOnDeletion: false,
    schedule: { type: 'Scheduled', clusters: clusters.map(([name, r]) => ({ name, replicas: r })) },
    requiredBy: [],
    overrides: 'all',
  };
}

/** Commits `files` as the whole tree of `refs/heads/<branch>`; returns the commit id. */
function commitBranch(
  repo: string,
  branch: string,
  files: ReadonlyMap<string, string>,
  message: string,
): string {
  const index = join(tempDir('index'), 'index');
  const env = {
    ...process.env,
    GIT_INDEX_FILE: index,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
  };
  const run = (args: string[], input?: string) =>
    execFileSync('git', ['-C', repo, ...args], {
      env,
      encoding: 'utf8',
      ...(input !== undefined ? { input } : {}),
    }).trim();
  for (const [path, text] of files) {
    const blob = run(['hash-object', '-w', '--stdin'], text);
    run(['update-index', '--add', '--cacheinfo', `100644,${blob},${path}`]);
  }
  const tree = run(['write-tree']);
  const commit = git(repo, 'commit-tree', tree, '-m', message);
  git(repo, 'update-ref', `refs/heads/${branch}`, commit);
  return commit;
}

function buildRepo(): { repo: string; m1Head: string; m2Old: string; m2Head: string } {
  const repo = initRepo();
  writeFiles(repo, {
    'apps/web.yaml':
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\n  labels:\n    app: web\nspec:\n  replicas: 3\n',
    'apps/settings.yaml':
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: shop\ndata:\n  mode: fast\n',
  });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'templates');
  const source = git(repo, 'rev-parse', 'HEAD');
  const bindings = [
    aBinding(web, 3, [
      ['m1', 2],
      ['m2', 1],
    ]),
    aBinding(settings, 0, [['m1', 0]]),
  ];
  commitBranch(
    repo,
    'gitfleet/bindings',
    new Map(bindings.map((b) => [objectPath(b.resource), bindingRecord(b)])),
    `render ${source.slice(0, 7)}: templates\n\nGitfleet-Source-Commit: ${source}\n`,
  );
  const m1Head = commitBranch(
    repo,
    'gitfleet/clusters/m1',
    new Map([[objectPath(web), 'kind: Deployment\n']]),
    'render m1',
  );
  const m2Old = commitBranch(
    repo,
    'gitfleet/clusters/m2',
    new Map([[objectPath(web), 'kind: Deployment\n']]),
    'render m2',
  );
  const m2Head = commitBranch(
    repo,
    'gitfleet/clusters/m2',
    new Map([[objectPath(web), 'kind: Deployment # 2\n']]),
    'render m2 again',
  );
  const m1: AgentReport = {
    cluster: 'm1',
    appliedCommit: m1Head,
    objects: [
      { ref: web, applied: true, health: 'Healthy', status: { replicas: 2 } },
      { ref: settings, applied: true, health: 'Healthy' },
    ],
  };
  const m2: AgentReport = {
    cluster: 'm2',
    appliedCommit: m2Old,
    objects: [{ ref: web, applied: true, health: 'Progressing' }],
  };
  commitBranch(
    repo,
    'gitfleet/status/m1',
    statusBranchFiles(m1),
    `status m1\n\nGitfleet-Applied-Commit: ${m1Head}\n`,
  );
  commitBranch(
    repo,
    'gitfleet/status/m2',
    statusBranchFiles(m2),
    `status m2\n\nGitfleet-Applied-Commit: ${m2Old}\n`,
  );
  return { repo, m1Head, m2Old, m2Head };
}

function run(args: string[]): Promise<CliRun> {
  return runCli(['status', ...args]);
}

const fixture = buildRepo();

test('status --wide --all --output json lists every template on every cluster from the bindings and status branches', async () => {
  const { code, stdout, stderr } = await run(['--repo', fixture.repo, '--wide', '--all', '--output', 'json']);
  assert.equal(code, 0, stderr);
  const rows = (JSON.parse(stdout) as { rows: StatusRow[] }).rows;
  assert.deepEqual(rows, [
    {
      template: 'ConfigMap/shop/settings',
      cluster: 'm1',
      placed: true,
      appliedCommit: fixture.m1Head,
      applied: true,
      health: 'Healthy',
      reason: 'Healthy',
    },
    {
      template: 'ConfigMap/shop/settings',
      cluster: 'm2',
      placed: false,
      appliedCommit: fixture.m2Old,
      applied: false,
      // Each row carries the cell's explanation (docs/status.md#why).
      reason: 'NotSelected',
      why: 'm2: not chosen by PropagationPolicy/shop/all (its clusterAffinity, spread constraints or replica division)',
    },
    {
      template: 'Deployment/shop/web',
      cluster: 'm1',
      placed: true,
      replicas: 2,
      appliedCommit: fixture.m1Head,
      applied: true,
      health: 'Healthy',
      reason: 'Healthy',
    },
    {
      template: 'Deployment/shop/web',
      cluster: 'm2',
      placed: true,
      replicas: 1,
      appliedCommit: fixture.m2Old,
      applied: false,
      health: 'Unknown',
      message: `not yet applied: cluster at ${fixture.m2Old.slice(0, 7)}, rendered ${fixture.m2Head.slice(0, 7)}`,
      reason: 'NotYetApplied',
      why: `m2: its agent applied ${fixture.m2Old.slice(0, 7)}, the hub rendered ${fixture.m2Head.slice(0, 7)}: waiting for its next apply`,
    },
  ]);
});

test('status --wide --all prints an aligned table with short commits', async () => {
  const { code, stdout } = await run(['--repo', fixture.repo, '--wide', '--all']);
  assert.equal(code, 0);
  const [header, blank, ...lines] = stdout.split('\n');
  assert.match(header!, /^fleet at [0-9a-f]{7} .*\(rendered \S+ ago; bindings [0-9a-f]{7}\)$/);
  assert.equal(blank, '');
  assert.match(
    lines[0]!,
    /^TEMPLATE\s+CLUSTER\s+PLACED\s+REPLICAS\s+APPLIED-COMMIT\s+APPLIED\s+HEALTH\s+MESSAGE$/,
  );
  assert.ok(
    lines.some(
      (l) =>
        l.startsWith('Deployment/shop/web') &&
        l.includes(fixture.m1Head.slice(0, 7)) &&
        l.includes('Healthy'),
    ),
  );
  assert.equal(lines.length, 5);
});

test('-l selects templates by the labels of the source commit the bindings came from', async () => {
  const { code, stdout, stderr } = await run([
    '--repo',
    fixture.repo,
    '-l',
    'app=web',
    '--wide',
    '--output',
    'json',
  ]);
  assert.equal(code, 0, stderr);
  const rows = (JSON.parse(stdout) as { rows: StatusRow[] }).rows;
  assert.deepEqual([...new Set(rows.map((r) => r.template))], ['Deployment/shop/web']);
});

test('a bad selector or output is a usage error', async () => {
  assert.equal((await run(['--repo', fixture.repo, '-l', '=nope'])).code, 2);
  assert.equal((await run(['--repo', fixture.repo, '--output', 'xml'])).code, 2);
  assert.equal((await run([])).code, 2);
});

test('a repository without a bindings branch says the hub has not run', async () => {
  const repo = initRepo();
  writeFiles(repo, { 'a.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n' });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'a');
  const { code, stderr } = await run(['--repo', repo]);
  assert.equal(code, 1);
  assert.match(stderr, /no branch gitfleet\/bindings/);
});

test('status shows the eviction tasks of each template and the clusters the monitor judged', async () => {
  const repo = initRepo();
  writeFiles(repo, { 'apps/web.yaml': 'kind: Deployment\n' });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'templates');
  const source = git(repo, 'rev-parse', 'HEAD');
  const b = aBinding(web, 6, [
    ['m1', 3],
    ['m3', 3],
  ]);
  // The eviction helper writes Karmada's field; a task another version wrote without a cluster,
  // or that is not a map, is left out rather than failing the command.
  const record = yaml.load(bindingRecord(b)) as { spec: Record<string, unknown> };
  record.spec['gracefulEvictionTasks'] = [
    {
      fromCluster: 'm2',
      purgeMode: 'Gracefully',
      replicas: 2,
      reason: 'TaintUntolerated',
      message: 'cluster.karmada.io/unreachable:NoExecute',
      producer: 'TaintManager',
      creationTimestamp: '2026-12-01T15:00:00.000Z',
    },
    { reason: 'ApplicationFailure' },
    'garbage',
  ];
  commitBranch(
    repo,
    'gitfleet/bindings',
    new Map([[objectPath(web), yaml.dump(record)]]),
    `render ${source.slice(0, 7)}: templates\n\nGitfleet-Source-Commit: ${source}\nGitfleet-Cluster-Judged: m2=Unknown\n`,
  );
  for (const c of ['m1', 'm2', 'm3'])
    commitBranch(
      repo,
      `gitfleet/clusters/${c}`,
      new Map([[objectPath(web), 'kind: Deployment\n']]),
      `render ${c}`,
    );
  const json = await run(['--repo', repo, '--output', 'json']);
  assert.equal(json.code, 0, json.stderr);
  const parsed = JSON.parse(json.stdout) as { evictions: unknown[]; judged: string[] };
  assert.deepEqual(parsed.evictions, [
    {
      template: 'Deployment/shop/web',
      cluster: 'm2',
      reason: 'TaintUntolerated',
      producer: 'TaintManager',
      purgeMode: 'Gracefully',
      since: '2026-12-01T15:00:00.000Z',
      message: 'cluster.karmada.io/unreachable:NoExecute',
    },
  ]);
  assert.deepEqual(parsed.judged, ['m2=Unknown']);
  const text = await run(['--repo', repo]);
  assert.equal(text.code, 0, text.stderr);
  assert.match(
    text.stdout,
    /\n\nTEMPLATE +EVICTED-FROM +REASON +PRODUCER +PURGE-MODE +SINCE +MESSAGE\nDeployment\/shop\/web +m2 +TaintUntolerated +TaintManager +Gracefully +2026-12-01T15:00:00.000Z +cluster.karmada.io\/unreachable:NoExecute\n\njudged by the hub's cluster monitor: m2=Unknown$/,
  );
});

test('status shows every rollout the bindings branch records after the table, and a bad record as unreadable', async () => {
  const repo = initRepo();
  writeFiles(repo, { 'apps/web.yaml': 'kind: Deployment\n' });
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'templates');
  const source = git(repo, 'rev-parse', 'HEAD');
  const b = aBinding(web, 2, [
    ['member1', 1],
    ['member2', 1],
  ]);
  const heads = new Map<string, string>();
  for (const c of ['member1', 'member2'])
    heads.set(
      c,
      commitBranch(
        repo,
        `gitfleet/clusters/${c}`,
        new Map([[objectPath(web), 'kind: Deployment\n']]),
        `render ${c}`,
      ),
    );
  const rollout: RolloutState = {
    strategy: { kind: 'RolloutStrategy', namespace: 'shop', name: 'web' },
    revision: source,
    source,
    phase: 'Progressing',
    step: 1,
    steps: 2,
    stepStartedAt: '2026-12-01T15:00:00.000Z',
    healthySince: '2026-12-01T15:00:30.000Z',
    message: 'step 1: member1 Healthy since 2026-12-01T15:00:30.000Z, soak 300s',
    digests: { member1: 'sha256:aa', member2: 'sha256:bb' },
    clusters: [
      { name: 'member1', step: 1, state: 'Moved', commit: source, lastGood: heads.get('member1')! },
      { name: 'member2', step: 2, state: 'Held', commit: 'abcdef0123456789', message: 'waiting for step 1' },
    ],
  };
  commitBranch(
    repo,
    'gitfleet/bindings',
    new Map([
      [objectPath(web), bindingRecord(b)],
      [rolloutRecordPath(rollout.strategy), rolloutRecordText(rollout)],
      [
        '.gitfleet/rollouts/shop/api.yaml',
        'apiVersion: gitfleet.io/v1alpha1\nkind: RolloutState\nphase: Sideways\n',
      ],
    ]),
    `render ${source.slice(0, 7)}: templates\n\nGitfleet-Source-Commit: ${source}\n`,
  );
  const text = await run(['--repo', repo, '--wide']);
  assert.equal(text.code, 0, text.stderr);
  const [table, section] = text.stdout.split('\n\nRollouts\n');
  assert.equal(
    table!.split('\n').length,
    5,
    'the fleet line, a blank, the table’s header and one row per cluster',
  );
  assert.equal(
    section,
    [
      '.gitfleet/rollouts/shop/api.yaml: not a RolloutState record this version of gitfleet reads: the hub treats it as no record and starts that rollout again from step 1',
      '',
      `shop/web (RolloutStrategy)  Progressing  step 1/2  revision ${source.slice(0, 7)}  since 2026-12-01T15:00:00.000Z  healthy since 2026-12-01T15:00:30.000Z`,
      '  step 1: member1 Healthy since 2026-12-01T15:00:30.000Z, soak 300s',
      '  CLUSTER  STEP  STATE  COMMIT   MESSAGE',
      `  member1  1/2   Moved  ${source.slice(0, 7)}`,
      '  member2  2/2   Held   abcdef0  waiting for step 1',
    ].join('\n'),
  );
  const json = await run(['--repo', repo, '--wide', '--output', 'json']);
  assert.equal(json.code, 0, json.stderr);
  const parsed = JSON.parse(json.stdout) as { rows: StatusRow[]; rollouts: unknown[] };
  assert.equal(parsed.rows.length, 2);
  assert.deepEqual(parsed.rollouts, [
    {
      path: '.gitfleet/rollouts/shop/api.yaml',
      unreadable:
        'not a RolloutState record this version of gitfleet reads: the hub treats it as no record and starts that rollout again from step 1',
    },
    { path: '.gitfleet/rollouts/shop/web.yaml', rollout },
  ]);
});

test('without rollout records the JSON output has no rollouts key', async () => {
  const { code, stdout } = await run(['--repo', fixture.repo, '--wide', '--output', 'json']);
  assert.equal(code, 0);
  assert.deepEqual(Object.keys(JSON.parse(stdout) as object), ['rows', 'evictions', 'judged']);
  const summary = await run(['--repo', fixture.repo, '--output', 'json']);
  assert.deepEqual(Object.keys(JSON.parse(summary.stdout) as object), [
    'bindingsHead',
    'bindingsTime',
    'sourceCommit',
    'sourceSubject',
    'clusters',
    'templates',
    'evictions',
    'judged',
  ]);
});
