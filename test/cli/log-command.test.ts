// Cluster branches are built here with git's plumbing (a temporary index, write-tree,
// commit-tree, update-ref) in the documented format: one file per object, `render <sha7>:
// <subject>` messages with a change list and the Gitfleet-Source-* trailers.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { cleanup, initRepo, tempDir, writeFiles } from '../adapters/source/git-fixture.js';
import { runCli } from './run-cli.js';

after(cleanup);

const T0 = Date.UTC(2024, 0, 1) / 1000;

function run(repo: string, args: string[], env: Record<string, string> = {}, input?: string): string {
  return execFileSync('git', ['-C', repo, ...args], {
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', ...env },
    encoding: 'utf8',
    ...(input !== undefined ? { input } : {}),
  }).trim();
}

function who(name: string, time: number): Record<string, string> {
  const email = `${name.toLowerCase()}@example.com`;
  const date = `@${time} +0000`;
  return {
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: email,
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: email,
    GIT_COMMITTER_DATE: date,
  };
}

/** Commits on the source branch main as `author`; returns the commit id. */
function sourceCommit(
  repo: string,
  files: Record<string, string>,
  subject: string,
  author: string,
  time: number,
): string {
  writeFiles(repo, files);
  run(repo, ['add', '-A']);
  run(repo, ['commit', '-q', '--allow-empty', '-m', subject], who(author, time));
  return run(repo, ['rev-parse', 'HEAD']);
}

type Tree = Record<string, string>;

/** Commits `tree` on refs/heads/gitfleet/clusters/<cluster> as the hub would; returns the commit id. */
function renderCommit(input: {
  repo: string;
  cluster: string;
  tree: Tree;
  source: string;
  subject: string;
  time: number;
  body: string[];
}): string {
  const { repo } = input;
  const ref = `refs/heads/gitfleet/clusters/${input.cluster}`;
  const index = join(tempDir('index'), 'index');
  for (const [path, content] of Object.entries(input.tree)) {
    const blob = run(repo, ['hash-object', '-w', '--stdin'], {}, content);
    run(repo, ['update-index', '--add', '--cacheinfo', `100644,${blob},${path}`], { GIT_INDEX_FILE: index });
  }
  const tree = run(repo, ['write-tree'], { GIT_INDEX_FILE: index });
  const parent = (() => {
    try {
      return ['-p', run(repo, ['rev-parse', '--verify', '-q', ref])];
    } catch {
      return [];
    }
  })();
  const message = [
    `render ${input.source.slice(0, 7)}: ${input.subject}`,
    '',
    ...input.body,
    '',
    `Gitfleet-Source-Commit: ${input.source}`,
    'Gitfleet-Source-Ref: refs/heads/main',
    '',
  ].join('\n');
  const commit = run(repo, ['commit-tree', tree, ...parent], who('gitfleet hub', input.time), message);
  run(repo, ['update-ref', ref, commit]);
  return commit;
}

const web1 = 'kind: Deployment\nspec:\n  replicas: 1\n';
const web2 = 'kind: Deployment\nspec:\n  replicas: 2\n';
const ns = 'kind: Namespace\n';
const cm1 = 'kind: ConfigMap\ndata: {a: "1"}\n';
const cm2 = 'kind: ConfigMap\ndata: {a: "2"}\n';
const WEB = 'shop/Deployment.apps/web.yaml';
const CM = 'shop/ConfigMap/web-config.yaml';
const NS = '_cluster/Namespace/shop.yaml';

let repo = '';
const ids: Record<string, string> = {};

// Source: S1 add web (Alice), S2 scale web (Bob), S3 remove web (Carol).
// member1: M1 adds web+cm+ns (S1), M2 changes web (S2), M3 removes web (S3).
// member2: N1 adds web+cm (S1), N2 changes only the ConfigMap (S2), N3 changes web from a source
// commit this repository does not have.
before(() => {
  repo = initRepo();
  ids.s1 = sourceCommit(repo, { 'apps/web.yaml': '# web\n' }, 'add web', 'Alice', T0 + 100);
  ids.s2 = sourceCommit(repo, { 'apps/web.yaml': '# web x2\n' }, 'scale web', 'Bob', T0 + 300);
  ids.s3 = sourceCommit(repo, { 'apps/web.yaml': '# gone\n' }, 'remove web', 'Carol', T0 + 500);
  const gone = 'f'.repeat(40);
  const c = (cluster: string, tree: Tree, source: string, subject: string, time: number, body: string[]) =>
    renderCommit({ repo, cluster, tree, source, subject, time, body });
  ids.m1 = c('member1', { [WEB]: web1, [CM]: cm1, [NS]: ns }, ids.s1, 'add web', T0 + 200, [
    '_cluster/Namespace/shop: added',
    'shop/ConfigMap/web-config: added',
    'shop/Deployment.apps/web: added',
  ]);
  ids.n1 = c('member2', { [WEB]: web1, [CM]: cm1 }, ids.s1, 'add web', T0 + 230, [
    'shop/Deployment.apps/web: added',
  ]);
  ids.m2 = c('member1', { [WEB]: web2, [CM]: cm1, [NS]: ns }, ids.s2, 'scale web', T0 + 400, [
    'shop/Deployment.apps/web: changed',
  ]);
  ids.n2 = c('member2', { [WEB]: web1, [CM]: cm2 }, ids.s2, 'scale web', T0 + 430, [
    'shop/ConfigMap/web-config: changed',
  ]);
  ids.m3 = c('member1', { [CM]: cm1, [NS]: ns }, ids.s3, 'remove web', T0 + 600, [
    'shop/Deployment.apps/web: removed',
  ]);
  ids.n3 = c('member2', { [WEB]: web2, [CM]: cm2 }, gone, 'rewritten', T0 + 700, [
    'shop/Deployment.apps/web: changed',
  ]);
});

interface Entry {
  cluster: string;
  commit: string;
  changes: { path: string; change: string }[];
  source: { commit: string; missing: boolean; subject?: string; author?: { name: string } } | null;
}

async function logJson(...args: string[]): Promise<Entry[]> {
  const result = await runCli(['log', '--repo', repo, '--output', 'json', ...args]);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout).entries;
}

test('an object’s history lists every commit that touched it, newest first across clusters', async () => {
  const entries = await logJson('Deployment/shop/web');
  assert.deepEqual(
    entries.map((e) => [e.cluster, e.commit, e.changes.map((c) => `${c.change} ${c.path}`).join()]),
    [
      ['member2', ids.n3, `changed ${WEB}`],
      ['member1', ids.m3, `removed ${WEB}`],
      ['member1', ids.m2, `changed ${WEB}`],
      ['member2', ids.n1, `added ${WEB}`],
      ['member1', ids.m1, `added ${WEB}`],
    ],
    'member2’s ConfigMap-only commit is not listed',
  );
});

test('each entry names its source commit with author and subject, or says the source is missing', async () => {
  const entries = await logJson('Deployment/shop/web');
  assert.deepEqual(
    entries.map(
      (e) => e.source && [e.source.commit, e.source.missing, e.source.author?.name, e.source.subject],
    ),
    [
      ['f'.repeat(40), true, undefined, undefined],
      [ids.s3, false, 'Carol', 'remove web'],
      [ids.s2, false, 'Bob', 'scale web'],
      [ids.s1, false, 'Alice', 'add web'],
      [ids.s1, false, 'Alice', 'add web'],
    ],
  );
  const text = await runCli(['log', '--repo', repo, 'Deployment/shop/web']);
  assert.match(text.stdout, new RegExp(`member1  ${ids.m3!.slice(0, 7)}  removed +${WEB}`));
  assert.match(
    text.stdout,
    new RegExp(`source ${ids.s2!.slice(0, 7)} \\(refs/heads/main\\) Bob <bob@example.com> .*: scale web`),
  );
  assert.match(text.stdout, /not in this repository/);
});

test('--cluster keeps one cluster’s history', async () => {
  const entries = await logJson('--cluster', 'member1', 'Deployment/shop/web');
  assert.deepEqual(
    entries.map((e) => e.commit),
    [ids.m3, ids.m2, ids.m1],
  );
});

test('kinds match case-insensitively, with or without the group; another group matches nothing', async () => {
  const expected = (await logJson('Deployment/shop/web')).map((e) => e.commit);
  assert.deepEqual(
    (await logJson('deployment.apps/shop/web')).map((e) => e.commit),
    expected,
  );
  assert.deepEqual(
    (await logJson('DEPLOYMENT/shop/web')).map((e) => e.commit),
    expected,
  );
  assert.deepEqual(await logJson('Deployment.batch/shop/web'), []);
});

test('a cluster-scoped object is named Kind/name', async () => {
  const entries = await logJson('Namespace/shop');
  assert.deepEqual(
    entries.map((e) => [e.commit, e.changes[0]?.change]),
    [[ids.m1, 'added']],
  );
});

test('without an object every render commit of every cluster is listed with its change list', async () => {
  const entries = await logJson();
  assert.deepEqual(
    entries.map((e) => e.commit),
    [ids.n3, ids.m3, ids.n2, ids.m2, ids.n1, ids.m1],
  );
  assert.equal(entries.at(-1)!.changes.length, 3);
});

test('the branch prefix comes from the FleetConfig at HEAD, even when the rest of the fleet does not load', async () => {
  const other = initRepo();
  const fleetConfig =
    'apiVersion: gitfleet.io/v1alpha1\nkind: FleetConfig\nmetadata: { name: fleet }\nspec: { branchPrefix: ops/ }\n';
  const broken = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: [not closed\n';
  const source = sourceCommit(
    other,
    { 'fleet.yaml': fleetConfig, 'apps/broken.yaml': broken },
    'configure',
    'Dana',
    T0,
  );
  renderCommit({
    repo: other,
    cluster: 'x',
    tree: { [NS]: ns },
    source,
    subject: 'configure',
    time: T0 + 1,
    body: [],
  });
  run(other, [
    'update-ref',
    'refs/heads/ops/clusters/edge',
    run(other, ['rev-parse', 'gitfleet/clusters/x']),
  ]);
  const result = await runCli(['log', '--repo', other, '--output', 'json']);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(
    JSON.parse(result.stdout).branches.map((b: { cluster: string }) => b.cluster),
    ['edge'],
  );
});

test('an unknown cluster fails; a bad object or a missing --repo is a usage error', async () => {
  const unknown = await runCli(['log', '--repo', repo, '--cluster', 'nope']);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /no cluster branch gitfleet\/clusters\/nope/);
  assert.equal((await runCli(['log', '--repo', repo, 'web'])).code, 2);
  assert.equal((await runCli(['log', 'Deployment/shop/web'])).code, 2);
});
