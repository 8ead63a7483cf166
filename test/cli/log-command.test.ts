// gitfleet log on the repository of log-fixture.ts.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { cleanup, initRepo } from '../adapters/source/git-fixture.js';
import { runCli } from './run-cli.js';
import { logFixture, NS, ns, renderCommit, run, sourceCommit, T0, WEB } from './log-fixture.js';

after(cleanup);

let repo = '';
let ids: Record<string, string> = {};
before(() => {
  ({ repo, ids } = logFixture());
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
