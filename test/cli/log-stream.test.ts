// gitfleet log as a stream over real repositories built with git's plumbing (log-fixture.ts):
// kubectl's names for a kind, -n that stops the walk, entries printed before the walk is over,
// the JSON document, and the same history read through git's commit-graph.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup } from '../adapters/source/git-fixture.js';
import { runCli } from './run-cli.js';
import { logFixture, run, WEB, type LogFixture } from './log-fixture.js';

after(cleanup);

let fx: LogFixture;
before(() => {
  fx = logFixture();
});

async function commitsOf(...args: string[]): Promise<string[]> {
  const result = await runCli(['log', '--repo', fx.repo, '--output', 'json', ...args]);
  assert.equal(result.code, 0, result.stderr);
  return (JSON.parse(result.stdout) as { entries: { commit: string }[] }).entries.map((e) => e.commit);
}

test('kubectl’s short, plural and lowercase names and kind.group resolve to the kind', async () => {
  const want = await commitsOf('Deployment/shop/web');
  assert.equal(want.length, 5);
  for (const typed of [
    'deploy',
    'deployments',
    'deployment',
    'deployment.apps',
    'deployments.apps',
    'DEPLOY',
  ])
    assert.deepEqual(await commitsOf(`${typed}/shop/web`), want, typed);
  assert.deepEqual(await commitsOf('cm/shop/web-config'), await commitsOf('ConfigMap/shop/web-config'));
  assert.deepEqual(await commitsOf('ns/shop'), [fx.ids.m1]);
});

test('a kind nobody knows is an error naming the kind and the nearest one, never “no render commit touched it”', async () => {
  const typo = await runCli(['log', '--repo', fx.repo, 'deplyo/shop/web']);
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /'deplyo' names no kind: .*; did you mean Deployment\?/);
  assert.doesNotMatch(typo.stdout + typo.stderr, /no render commit touched/);
  const far = await runCli(['log', '--repo', fx.repo, 'zzzzzz/shop/web']);
  assert.equal(far.code, 2);
  assert.match(far.stderr, /'zzzzzz' names no kind/);
});

test('a known kind with no such object says which object no render commit touched', async () => {
  const none = await runCli(['log', '--repo', fx.repo, 'svc/shop/web']);
  assert.equal(none.code, 0, none.stderr);
  assert.equal(none.stdout.trim(), 'no render commit touched Service/shop/web');
});

test('-n N prints the N newest entries across the clusters; -n 0 none; a bad count is a usage error', async () => {
  const all = await commitsOf('Deployment/shop/web');
  assert.deepEqual(await commitsOf('-n', '2', 'Deployment/shop/web'), all.slice(0, 2));
  assert.deepEqual(await commitsOf('--max-count', '1', '--cluster', 'member1', WEB_SPEC), [fx.ids.m3]);
  assert.deepEqual(await commitsOf('-n', '0'), []);
  const bad = await runCli(['log', '--repo', fx.repo, '-n', 'ten']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--max-count must be a whole number, not 'ten'/);
});

const WEB_SPEC = 'Deployment/shop/web';

test('--output json is still one document {branches, entries}, entries one a line', async () => {
  const result = await runCli(['log', '--repo', fx.repo, '--output', 'json', WEB_SPEC]);
  const doc = JSON.parse(result.stdout) as { branches: { cluster: string }[]; entries: unknown[] };
  assert.deepEqual(
    doc.branches.map((b) => b.cluster),
    ['member1', 'member2'],
  );
  assert.equal(result.stdout.trim().split('\n').length, doc.entries.length + 2);
});

test('entries are printed as they are found: -n stops before damaged old history, and without it the newest came out first', async () => {
  const damaged = logFixture();
  // The oldest commit of member1 is gone: anything that needs it fails.
  const oid = damaged.ids.m1!;
  rmSync(join(damaged.repo, '.git', 'objects', oid.slice(0, 2), oid.slice(2)));
  const newest = await runCli(['log', '--repo', damaged.repo, '--cluster', 'member1', '-n', '1', WEB_SPEC]);
  assert.equal(newest.code, 0, newest.stderr);
  assert.match(newest.stdout, new RegExp(`member1  ${damaged.ids.m3!.slice(0, 7)}  removed +${WEB}`));
  const all = await runCli(['log', '--repo', damaged.repo, '--cluster', 'member1', WEB_SPEC]);
  assert.equal(all.code, 1);
  assert.match(
    all.stdout,
    new RegExp(`^\\S+ \\S+  member1  ${damaged.ids.m3!.slice(0, 7)}  removed`),
    'printed before the walk failed',
  );
  assert.match(all.stderr, new RegExp(oid));
});

test('the history read through a commit-graph with changed-path filters is the history read without', async () => {
  const plain = logFixture();
  const read = async () => {
    const r = await runCli(['log', '--repo', plain.repo, '--output', 'json', WEB_SPEC]);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as unknown;
  };
  const before = await read();
  run(plain.repo, ['commit-graph', 'write', '--reachable', '--changed-paths']);
  assert.deepEqual(await read(), before);
});
