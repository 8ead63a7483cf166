// Progressive rollout across hub passes on a real repository (docs/rollout.md): the bundled
// example, shop/web (Divided over aws-eu-prod, aws-us-prod, gcp-eu-prod) rolled out by a
// RolloutStrategy with gcp-eu-prod first. The agents' reports are written into the status
// branches as an agent writes them; the hub's clock is injected.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHubPassCache } from '../../../src/loops/hub/hub-pass-cache.js';
import { runCli } from '../../cli/run-cli.js';
import { branchFiles, commitChange, git, hubPass, removeFleetRepos, rendered } from './hub-fixture.js';
import {
  at,
  canary,
  fleetWithStrategy,
  headMessage,
  imageOn,
  later,
  record,
  replicasOn,
  report,
  setImage,
  strategy,
  t0,
} from './rollout-fixture.js';

after(removeFleetRepos);

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
  // `gitfleet log` says why each cluster got it when it did.
  const log = await runCli(['log', '--repo', repo.path, '--output', 'json', 'Deployment/shop/web']);
  assert.equal(log.code, 0, log.stderr);
  const entries = (JSON.parse(log.stdout) as { entries: { cluster: string; decisions?: string[] }[] })
    .entries;
  const why = (cluster: string) => entries.find((e) => e.cluster === cluster)?.decisions ?? [];
  assert.ok(
    why(canary).includes(`Gitfleet-Rollout: shop/web step 1/2 moved to ${bump}`),
    why(canary).join('\n'),
  );
  assert.ok(why('aws-eu-prod').some((l) => l.startsWith('Gitfleet-Rollout: shop/web: step 1/2 passed')));
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

test('a template new to the fleet reaches a later step only in its turn, pass after pass', async () => {
  const repo = await fleetWithStrategy(
    strategy().replace(
      '{apiVersion: apps/v1, kind: Deployment, name: web}',
      '{apiVersion: apps/v1, kind: Deployment}',
    ),
  );
  const extraPath = 'shop/Deployment.apps/extra.yaml';
  commitChange(repo, 'a new Deployment shop/extra on the prod clusters', (work) => {
    const web = readFileSync(join(work, 'apps/shop/web.yaml'), 'utf8').split('---\n')[0]!;
    writeFileSync(join(work, 'apps/shop/extra.yaml'), web.replace(/name: web$/m, 'name: extra'));
    writeFileSync(
      join(work, 'policies/extra.yaml'),
      'apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: extra, namespace: shop}\nspec:\n  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: extra}]\n  placement:\n    clusterAffinity: {labelSelector: {matchLabels: {env: prod}}}\n    replicaScheduling: {replicaSchedulingType: Duplicated}\n',
    );
  });
  const has = (cluster: string) => branchFiles(repo, `gitfleet/clusters/${cluster}`).has(extraPath);
  rendered(await hubPass(repo, { now: at(t0) }));
  assert.ok(has(canary));
  for (const c of later) assert.ok(!has(c), `${c} waits for step 2`);
  assert.deepEqual(record(repo)!.newObjects, [extraPath]);
  // A pass for another reason (the canary's agent reports, not yet Healthy): still not there.
  await report(repo, canary, 'Progressing');
  rendered(await hubPass(repo, { now: at(t0 + 1_000) }));
  for (const c of later) assert.ok(!has(c), `${c} still waits`);
  await report(repo, canary, 'Healthy', undefined, ['web', 'extra', 'api']);
  rendered(await hubPass(repo, { now: at(t0 + 2_000) }));
  for (const c of later) assert.ok(has(c), `${c} got it in step 2`);
});

test('a rollback after a halted rollout restores what ran before the halted change, not the halted change', async () => {
  const repo = await fleetWithStrategy(strategy());
  commitChange(repo, 'web 2.0.0', (work) => setImage(work, '2.0.0'));
  rendered(await hubPass(repo, { now: at(t0) }));
  await report(repo, canary, 'Degraded', 'bad');
  rendered(await hubPass(repo, { now: at(t0 + 1_000) }));
  assert.equal(record(repo)!.phase, 'Halted');
  assert.equal(imageOn(repo, canary), '2.0.0');
  commitChange(repo, 'web 3.0.0, rolled back on failure', (work) => {
    setImage(work, '3.0.0');
    writeFileSync(join(work, 'policies/web-rollout.yaml'), strategy({ onFailure: 'Rollback' }));
  });
  rendered(await hubPass(repo, { now: at(t0 + 2_000) }));
  assert.equal(imageOn(repo, canary), '3.0.0');
  await report(repo, canary, 'Degraded', 'still bad');
  rendered(await hubPass(repo, { now: at(t0 + 3_000) }));
  const state = record(repo)!;
  assert.equal(state.phase, 'RolledBack');
  assert.equal(imageOn(repo, canary), '1.8.0', 'the last good image, from before the halted change');
  const member = state.clusters.find((c) => c.name === canary)!;
  assert.equal(member.state, 'RolledBack');
  assert.equal(member.commit, member.lastGoodCommit, 'it runs the source commit of its last good objects');
  for (const c of later) assert.equal(imageOn(repo, c), '1.8.0');
});
