// Progressive rollout across hub passes on a real repository (docs/rollout.md): the bundled
// example, shop/web (Divided over aws-eu-prod, aws-us-prod, gcp-eu-prod) rolled out by a
// RolloutStrategy with gcp-eu-prod first. The agents' reports are written into the status
// branches as an agent writes them; the hub's clock is injected.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { buildTreeFromScratch } from '../../../src/adapters/git/build-tree-from-scratch.js';
import { toGitObject } from '../../../src/adapters/git/hash-object.js';
import { makeCommit } from '../../../src/adapters/git/make-commit.js';
import { updateRefs } from '../../../src/adapters/git/update-ref.js';
import { writeObjects } from '../../../src/adapters/git/write-objects.js';
import { statusBranchFiles, type ObjectStatusRecord } from '../../../src/core/status/status-branch.js';
import type { HealthStatus } from '../../../src/core/health/health.js';
import { parseRolloutRecord } from '../../../src/core/rollout/rollout-record.js';
import { createHubPassCache } from '../../../src/loops/hub/hub-pass-cache.js';
import {
  branchFiles,
  commitChange,
  exampleFleetRepo,
  git,
  hubPass,
  removeFleetRepos,
  rendered,
  type FleetRepo,
} from './hub-fixture.js';

after(removeFleetRepos);

const webPath = 'shop/Deployment.apps/web.yaml';
const recordPath = '.gitfleet/rollouts/shop/web.yaml';
const canary = 'gcp-eu-prod';
const later = ['aws-eu-prod', 'aws-us-prod'];
const t0 = 1_700_000_100_000;
const at = (ms: number) => () => new Date(ms);

function strategy(
  opts: { soak?: number; manual?: boolean; onFailure?: 'Halt' | 'Rollback'; deadline?: number } = {},
): string {
  return [
    'apiVersion: gitfleet.io/v1alpha1',
    'kind: RolloutStrategy',
    'metadata: {name: web, namespace: shop}',
    'spec:',
    '  resourceSelectors:',
    '  - {apiVersion: apps/v1, kind: Deployment, name: web}',
    '  steps:',
    `  - clusters: {clusterNames: [${canary}]}`,
    `    soakSeconds: ${opts.soak ?? 0}`,
    '  - clusters: {labelSelector: {matchLabels: {env: prod}}}',
    ...(opts.manual ? ['    approval: Manual'] : []),
    `  progressDeadlineSeconds: ${opts.deadline ?? 600}`,
    `  onFailure: ${opts.onFailure ?? 'Halt'}`,
    '',
  ].join('\n');
}

function setImage(work: string, tag: string): void {
  const file = join(work, 'apps/shop/web.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/shop\/web:[0-9.]+/, `shop/web:${tag}`));
}

function imageOn(repo: FleetRepo, cluster: string): string | undefined {
  const text = branchFiles(repo, `gitfleet/clusters/${cluster}`).get(webPath);
  return text === undefined ? undefined : /shop\/web:([0-9.]+)/.exec(text)?.[1];
}

function replicasOn(repo: FleetRepo, cluster: string): number | undefined {
  const text = branchFiles(repo, `gitfleet/clusters/${cluster}`).get(webPath);
  return text === undefined ? undefined : (yaml.load(text) as { spec: { replicas: number } }).spec.replicas;
}

function record(repo: FleetRepo) {
  const text = branchFiles(repo, 'gitfleet/bindings').get(recordPath);
  return text === undefined ? undefined : parseRolloutRecord(text);
}

function headMessage(repo: FleetRepo, branch: string): string {
  return git(repo, ['log', '-1', '--format=%B', `refs/heads/${branch}`]);
}

/** Writes the cluster's status branch as its agent would: its branch's head applied, shop/web with this health. */
async function report(
  repo: FleetRepo,
  cluster: string,
  health: HealthStatus,
  message?: string,
): Promise<void> {
  const appliedCommit = git(repo, ['rev-parse', `refs/heads/gitfleet/clusters/${cluster}`]).trim();
  const web: ObjectStatusRecord = {
    ref: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' },
    applied: true,
    health,
    ...(message ? { healthMessage: message } : {}),
  };
  const files = statusBranchFiles({
    cluster,
    appliedCommit,
    clusterStatus: { conditions: [{ type: 'Ready', status: 'True' }] },
    objects: [web],
  });
  const blobs = [...files].map(([path, text]) => [path, toGitObject('blob', Buffer.from(text))] as const);
  const tree = buildTreeFromScratch(new Map(blobs.map(([path, blob]) => [path, blob.oid])));
  const ref = `refs/heads/gitfleet/status/${cluster}`;
  let old: string | null;
  try {
    old = git(repo, ['rev-parse', '--verify', '-q', ref]).trim() || null;
  } catch {
    old = null;
  }
  const who = { name: 'agent', email: 'agent@gitfleet.invalid', time: 1_700_000_200, tzOffsetMinutes: 0 };
  const commit = makeCommit({
    tree: tree.root,
    parents: old ? [old] : [],
    author: who,
    message: `status of ${cluster}\n\nGitfleet-Applied-Commit: ${appliedCommit}\n`,
  });
  await writeObjects({
    gitdir: repo.gitdir,
    objects: [...blobs.map(([, b]) => b), ...tree.newObjects, commit],
  });
  await updateRefs({ gitdir: repo.gitdir, updates: [{ ref, newOid: commit.oid, expectedOld: old }] });
}

/** The example rendered without a strategy, then the strategy added (no change to roll out yet). */
async function fleetWithStrategy(text: string): Promise<FleetRepo> {
  const repo = exampleFleetRepo({ bare: false });
  rendered(await hubPass(repo));
  commitChange(repo, 'roll out shop/web step by step', (work) =>
    writeFileSync(join(work, 'policies/web-rollout.yaml'), text),
  );
  const pass = rendered(await hubPass(repo));
  for (const outcome of Object.values(pass.clusters)) assert.equal(outcome.type, 'unchanged');
  assert.equal(record(repo), undefined, 'no change yet: no rollout');
  return repo;
}

test('an image change reaches the canary first and the later step only once the canary runs it Healthy', async () => {
  const repo = await fleetWithStrategy(strategy());
  const cache = createHubPassCache();
  const bump = commitChange(repo, 'web 1.9.0', (work) => setImage(work, '1.9.0'));
  const first = rendered(await hubPass(repo, { cache, now: at(t0) }));
  assert.equal(imageOn(repo, canary), '1.9.0');
  for (const c of later) assert.equal(imageOn(repo, c), '1.8.0', `${c} is held`);
  for (const c of later) assert.equal(first.clusters[c]!.type, 'unchanged');
  assert.match(
    headMessage(repo, `gitfleet/clusters/${canary}`),
    new RegExp(`Gitfleet-Rollout: shop/web step 1/2 moved to ${bump}`),
  );
  let state = record(repo)!;
  assert.equal(state.phase, 'Progressing');
  assert.equal(state.step, 1);
  assert.equal(state.revision, bump);
  assert.deepEqual(
    state.clusters.map((c) => [c.name, c.step, c.state]),
    [
      ['aws-eu-prod', 2, 'Held'],
      ['aws-us-prod', 2, 'Held'],
      ['gcp-eu-prod', 1, 'Moved'],
    ],
  );
  assert.match(headMessage(repo, 'gitfleet/bindings'), /Gitfleet-Rollout: shop\/web: rollout started for/);

  // The canary's agent has not applied it yet: a report about an older commit does not pass the gate.
  await report(repo, canary, 'Progressing', 'Waiting for rollout to finish');
  rendered(await hubPass(repo, { cache, now: at(t0 + 5_000) }));
  for (const c of later) assert.equal(imageOn(repo, c), '1.8.0');
  assert.match(record(repo)!.message ?? '', /gcp-eu-prod: shop\/Deployment.apps\/web Progressing/);

  await report(repo, canary, 'Healthy');
  rendered(await hubPass(repo, { cache, now: at(t0 + 10_000) }));
  for (const c of later) {
    assert.equal(imageOn(repo, c), '1.9.0', `${c} moved`);
    assert.match(
      headMessage(repo, `gitfleet/clusters/${c}`),
      new RegExp(`Gitfleet-Rollout: shop/web step 2/2 moved to ${bump}`),
    );
  }
  state = record(repo)!;
  assert.equal(state.step, 2);
  assert.equal(state.phase, 'Progressing');
  for (const c of later) await report(repo, c, 'Healthy');
  rendered(await hubPass(repo, { cache, now: at(t0 + 20_000) }));
  assert.equal(record(repo)!.phase, 'Complete');
  // Replicas are the scheduler's throughout: 3 / 5 / 2 as before.
  assert.deepEqual(
    [canary, ...later].map((c) => replicasOn(repo, c)),
    [3, 5, 2],
  );
});

test('a restart of the hub (a fresh cache) continues the rollout from the record', async () => {
  const repo = await fleetWithStrategy(strategy({ soak: 60 }));
  commitChange(repo, 'web 1.9.0', (work) => setImage(work, '1.9.0'));
  rendered(await hubPass(repo, { now: at(t0) }));
  await report(repo, canary, 'Healthy');
  const soaking = rendered(await hubPass(repo, { now: at(t0 + 1_000) }));
  assert.equal(soaking.wakeAt?.getTime(), t0 + 61_000, 'the hub wakes when the soak ends');
  assert.equal(record(repo)!.healthySince, new Date(t0 + 1_000).toISOString());
  for (const c of later) assert.equal(imageOn(repo, c), '1.8.0');
  // Before the soak ends nothing moves; a pass with nothing new is up to date.
  assert.equal((await hubPass(repo, { now: at(t0 + 30_000) })).type, 'upToDate');
  rendered(await hubPass(repo, { now: at(t0 + 61_000) }));
  for (const c of later) assert.equal(imageOn(repo, c), '1.9.0');
});

test('an object Degraded on the canary halts the rollout; with Rollback the canary gets its last good object back', async () => {
  const repo = await fleetWithStrategy(strategy({ onFailure: 'Rollback' }));
  const good = git(repo, ['rev-parse', `refs/heads/gitfleet/clusters/${canary}`]).trim();
  commitChange(repo, 'web 2.0.0', (work) => setImage(work, '2.0.0'));
  rendered(await hubPass(repo, { now: at(t0) }));
  assert.equal(imageOn(repo, canary), '2.0.0');
  await report(repo, canary, 'Degraded', 'Deployment "web" exceeded its progress deadline');
  const halted = rendered(await hubPass(repo, { now: at(t0 + 5_000) }));
  const state = record(repo)!;
  assert.equal(state.phase, 'RolledBack');
  assert.match(
    state.message!,
    /gcp-eu-prod: shop\/Deployment.apps\/web Degraded: Deployment "web" exceeded its progress deadline/,
  );
  const diagnostic = halted.diagnostics.find((d) => d.code === 'RolloutHalted');
  assert.equal(diagnostic?.cluster, canary);
  assert.equal(imageOn(repo, canary), '1.8.0', 'rolled back');
  assert.match(
    headMessage(repo, `gitfleet/clusters/${canary}`),
    new RegExp(`Gitfleet-Rollback: shop/web step 1/2 restores ${good}`),
  );
  for (const c of later) assert.equal(imageOn(repo, c), '1.8.0', `${c} never moved`);
  // A revert rolls forward to the old state: nothing is left to move, the rollout is complete.
  git(repo, ['revert', '--no-edit', 'HEAD']);
  rendered(await hubPass(repo, { now: at(t0 + 10_000) }));
  assert.equal(record(repo)!.phase, 'Complete');
  for (const c of [canary, ...later]) assert.equal(imageOn(repo, c), '1.8.0');
});

test('with Halt the canary keeps the bad change and a deadline passed halts too; a fix restarts from step 1', async () => {
  const repo = await fleetWithStrategy(strategy({ deadline: 30 }));
  commitChange(repo, 'web 2.0.0', (work) => setImage(work, '2.0.0'));
  rendered(await hubPass(repo, { now: at(t0) }));
  await report(repo, canary, 'Progressing', '0 of 3 updated replicas are available');
  const waiting = rendered(await hubPass(repo, { now: at(t0 + 10_000) }));
  assert.equal(waiting.wakeAt?.getTime(), t0 + 30_000, 'the hub wakes at the deadline');
  rendered(await hubPass(repo, { now: at(t0 + 30_000) }));
  const state = record(repo)!;
  assert.equal(state.phase, 'Halted');
  assert.match(
    state.message!,
    /not Healthy within progressDeadlineSeconds 30: gcp-eu-prod: shop\/Deployment.apps\/web Progressing/,
  );
  assert.equal(imageOn(repo, canary), '2.0.0', 'Halt keeps what moved');
  for (const c of later) assert.equal(imageOn(repo, c), '1.8.0');
  const fix = commitChange(repo, 'web 2.0.1', (work) => setImage(work, '2.0.1'));
  rendered(await hubPass(repo, { now: at(t0 + 40_000) }));
  const again = record(repo)!;
  assert.equal(again.phase, 'Progressing');
  assert.equal(again.revision, fix);
  assert.equal(imageOn(repo, canary), '2.0.1');
  for (const c of later) assert.equal(imageOn(repo, c), '1.8.0');
});

test('a Manual step waits for a Gitfleet-Approve trailer on the source branch', async () => {
  const repo = await fleetWithStrategy(strategy({ manual: true }));
  commitChange(repo, 'web 1.9.0', (work) => setImage(work, '1.9.0'));
  rendered(await hubPass(repo, { now: at(t0) }));
  await report(repo, canary, 'Healthy');
  const waiting = rendered(await hubPass(repo, { now: at(t0 + 1_000) }));
  assert.equal(record(repo)!.phase, 'WaitingApproval');
  assert.ok(
    waiting.diagnostics.some(
      (d) => d.code === 'RolloutWaitingApproval' && /Gitfleet-Approve: shop\/web step 2/.test(d.message),
    ),
  );
  for (const c of later) assert.equal(imageOn(repo, c), '1.8.0');
  // An approval of another step does not count.
  git(repo, ['commit', '--allow-empty', '-q', '-m', 'approve', '-m', 'Gitfleet-Approve: shop/web step 3']);
  rendered(await hubPass(repo, { now: at(t0 + 2_000) }));
  assert.equal(record(repo)!.phase, 'WaitingApproval');
  git(repo, [
    'commit',
    '--allow-empty',
    '-q',
    '-m',
    'approve step 2',
    '-m',
    'Gitfleet-Approve: shop/web step 2',
  ]);
  git(repo, ['commit', '--allow-empty', '-q', '-m', 'an unrelated commit on top']);
  rendered(await hubPass(repo, { now: at(t0 + 3_000) }));
  for (const c of later) assert.equal(imageOn(repo, c), '1.9.0');
  assert.match(headMessage(repo, 'gitfleet/bindings'), /Gitfleet-Rollout: shop\/web: step 2\/2 approved/);
});

test('replicas the scheduler moves during a rollout reach the held clusters at once, with their old content', async () => {
  const repo = await fleetWithStrategy(strategy());
  commitChange(repo, 'web 1.9.0 and weights 1:1:1', (work) => {
    setImage(work, '1.9.0');
    const file = join(work, 'policies/web.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('weight: 2', 'weight: 1'));
  });
  rendered(await hubPass(repo, { now: at(t0) }));
  assert.equal(imageOn(repo, canary), '1.9.0');
  for (const c of later) assert.equal(imageOn(repo, c), '1.8.0');
  // 10 replicas 1:1:1 (Webster): every cluster's new share, the held ones included.
  const replicas = [canary, ...later].map((c) => replicasOn(repo, c)!);
  assert.equal(
    replicas.reduce((a, b) => a + b, 0),
    10,
  );
  assert.ok(
    replicas.every((r) => r >= 3 && r <= 4),
    `1:1:1 shares, got ${replicas.join(', ')}`,
  );
  assert.notEqual(replicasOn(repo, 'aws-eu-prod'), 5, 'the held cluster got its new share');
});

test('objects the strategy does not select are not held', async () => {
  const repo = await fleetWithStrategy(strategy());
  commitChange(repo, 'web 1.9.0 and a config change', (work) => {
    setImage(work, '1.9.0');
    const file = join(work, 'apps/shop/web.yaml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(/(kind: ConfigMap[\s\S]*?data:\n)/, '$1  rollout-test: "yes"\n'),
    );
  });
  rendered(await hubPass(repo, { now: at(t0) }));
  for (const c of later) {
    assert.equal(imageOn(repo, c), '1.8.0');
    const config = branchFiles(repo, `gitfleet/clusters/${c}`).get('shop/ConfigMap/web-config.yaml') ?? '';
    assert.match(config, /rollout-test/, `${c} got the ConfigMap change at once`);
  }
});
