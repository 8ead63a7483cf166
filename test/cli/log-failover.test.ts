// gitfleet log says why a workload moved: the eviction trailers of a cluster commit and the
// decisions of the bindings commit that recorded it, on branches built with git's plumbing in
// the hub's format.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { cleanup, initRepo, tempDir } from '../adapters/source/git-fixture.js';
import { runCli } from './run-cli.js';

after(cleanup);

const T0 = Date.UTC(2026, 11, 1) / 1000;

function run(repo: string, args: string[], env: Record<string, string> = {}, input?: string): string {
  return execFileSync('git', ['-C', repo, ...args], {
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', ...env },
    encoding: 'utf8',
    ...(input !== undefined ? { input } : {}),
  }).trim();
}

const hubAt = (time: number) => ({
  GIT_AUTHOR_NAME: 'gitfleet',
  GIT_AUTHOR_EMAIL: 'hub@gitfleet.invalid',
  GIT_AUTHOR_DATE: `@${time} +0000`,
  GIT_COMMITTER_NAME: 'gitfleet',
  GIT_COMMITTER_EMAIL: 'hub@gitfleet.invalid',
  GIT_COMMITTER_DATE: `@${time} +0000`,
});

/** Commits `files` as the whole tree of `ref` on top of its head; returns the commit id. */
function commitOn(
  repo: string,
  ref: string,
  files: Record<string, string>,
  message: string,
  time: number,
): string {
  const index = join(tempDir('index'), 'index');
  for (const [path, content] of Object.entries(files)) {
    const blob = run(repo, ['hash-object', '-w', '--stdin'], {}, content);
    run(repo, ['update-index', '--add', '--cacheinfo', `100644,${blob},${path}`], { GIT_INDEX_FILE: index });
  }
  const tree = run(repo, ['write-tree'], { GIT_INDEX_FILE: index });
  let parent: string[] = [];
  try {
    parent = ['-p', run(repo, ['rev-parse', '--verify', '-q', ref])];
  } catch {
    // a new branch
  }
  const commit = run(repo, ['commit-tree', tree, ...parent], hubAt(time), message);
  run(repo, ['update-ref', ref, commit]);
  return commit;
}

const WEB = 'shop/Deployment.apps/web.yaml';
const eviction =
  'apps/Deployment/shop/web from member2: TaintUntolerated cluster.karmada.io/unreachable:NoExecute';
const done = 'apps/Deployment/shop/web from member2: HealthyOnNewClusters';
// Another object the same passes evicted: its lines are not web's.
const apiEviction =
  'Deployment/shop/api from member2: TaintUntolerated cluster.karmada.io/unreachable:NoExecute';
const apiDone = 'Deployment/shop/api from member2: HealthyOnNewClusters';
// A cluster no line about web names: its taint is no reason for web.
const otherTaint = 'member3 +example.com/maintenance:NoSchedule: ClusterTaintPolicy maintenance';
const taint =
  'member2 +cluster.karmada.io/unreachable:NoExecute: ClusterTaintPolicy unreachable (Ready=Unknown)';
let repo = '';
const ids: Record<string, string> = {};

// The source adds web; member1 and member2 get it. Then member2 is judged Unknown and tainted:
// web is evicted gracefully (member1 gets all replicas, member2 keeps its copy), and a later
// pass finds the task done and takes member2's copy away.
before(() => {
  repo = initRepo();
  const source = run(
    repo,
    ['commit-tree', '4b825dc642cb6eb9a060e54bf8d69288fbee4904', '-m', 'add web'],
    hubAt(T0),
  );
  const trailers = (lines: string[]) =>
    ['', `Gitfleet-Source-Commit: ${source}`, 'Gitfleet-Source-Ref: refs/heads/main', ...lines, ''].join(
      '\n',
    );
  const cluster = (c: string, files: Record<string, string>, body: string, lines: string[], time: number) =>
    commitOn(
      repo,
      `refs/heads/gitfleet/clusters/${c}`,
      files,
      `render ${source.slice(0, 7)}: add web\n\n${body}\n${trailers(lines)}`,
      time,
    );
  const bindings = (heads: Record<string, string>, lines: string[], time: number) =>
    commitOn(
      repo,
      'refs/heads/gitfleet/bindings',
      { [WEB]: `# ${time}\n` },
      `render ${source.slice(0, 7)}: add web\n${trailers([
        ...Object.entries(heads).map(([c, oid]) => `Gitfleet-Cluster-Commit: ${c}=${oid}`),
        ...lines,
      ])}`,
      time,
    );
  ids.m1 = cluster('member1', { [WEB]: 'replicas: 3\n' }, 'shop/Deployment.apps/web: added', [], T0 + 10);
  ids.n1 = cluster('member2', { [WEB]: 'replicas: 3\n' }, 'shop/Deployment.apps/web: added', [], T0 + 11);
  bindings({ member1: ids.m1, member2: ids.n1 }, [], T0 + 11);
  ids.m2 = cluster('member1', { [WEB]: 'replicas: 6\n' }, 'shop/Deployment.apps/web: changed', [], T0 + 20);
  bindings(
    { member1: ids.m2, member2: ids.n1 },
    [
      'Gitfleet-Taint: ' + taint,
      'Gitfleet-Eviction: ' + eviction,
      'Gitfleet-Eviction: ' + apiEviction,
      'Gitfleet-Taint: ' + otherTaint,
      'Gitfleet-Cluster-Judged: member2=Unknown',
    ],
    T0 + 20,
  );
  // A status-only bindings commit names the same heads again, with no decision.
  bindings({ member1: ids.m2, member2: ids.n1 }, ['Gitfleet-Cluster-Judged: member2=Unknown'], T0 + 25);
  ids.n2 = cluster(
    'member2',
    { '.gitfleet/keep': '' },
    'shop/Deployment.apps/web: removed',
    [
      'Gitfleet-Allow-Deletions: member2',
      'Gitfleet-Eviction-Done: ' + done,
      'Gitfleet-Eviction-Done: ' + apiDone,
    ],
    T0 + 30,
  );
  bindings(
    { member1: ids.m2, member2: ids.n2 },
    [
      'Gitfleet-Eviction-Done: ' + done,
      'Gitfleet-Eviction-Done: ' + apiDone,
      'Gitfleet-Cluster-Judged: member2=Unknown',
    ],
    T0 + 30,
  );
});

interface Entry {
  cluster: string;
  commit: string;
  decisions?: string[];
}

test('log names the decisions behind each commit a failover made, from the commit and its bindings commit, about this object only', async () => {
  const result = await runCli(['log', '--repo', repo, '--output', 'json', 'Deployment/shop/web']);
  assert.equal(result.code, 0, result.stderr);
  const entries = (JSON.parse(result.stdout) as { entries: Entry[] }).entries;
  assert.deepEqual(
    entries.map((e) => [e.cluster, e.commit, e.decisions]),
    [
      ['member2', ids.n2, ['Gitfleet-Eviction-Done: ' + done, 'Gitfleet-Cluster-Judged: member2=Unknown']],
      [
        'member1',
        ids.m2,
        [
          'Gitfleet-Cluster-Judged: member2=Unknown',
          'Gitfleet-Taint: ' + taint,
          'Gitfleet-Eviction: ' + eviction,
        ],
      ],
      ['member2', ids.n1, undefined],
      ['member1', ids.m1, undefined],
    ],
  );
});

test('the text form prints one why: line per decision under the entry', async () => {
  const result = await runCli(['log', '--repo', repo, '--cluster', 'member2', 'deploy/shop/web']);
  assert.equal(result.code, 0, result.stderr);
  const lines = result.stdout.split('\n');
  const at = lines.findIndex((l) => l.includes(ids.n2!.slice(0, 7)));
  assert.ok(at >= 0, result.stdout);
  assert.deepEqual(lines.slice(at + 2, at + 4), [
    `    why: Gitfleet-Eviction-Done: ${done}`,
    '    why: Gitfleet-Cluster-Judged: member2=Unknown',
  ]);
});

test('without an object, every decision of the commit and its bindings commit is listed, other objects’ too', async () => {
  const result = await runCli(['log', '--repo', repo, '--output', 'json', '--cluster', 'member1']);
  assert.equal(result.code, 0, result.stderr);
  const entries = (JSON.parse(result.stdout) as { entries: Entry[] }).entries;
  const m2 = entries.find((e) => e.commit === ids.m2);
  assert.ok(m2?.decisions?.includes('Gitfleet-Eviction: ' + apiEviction), JSON.stringify(m2));
});
