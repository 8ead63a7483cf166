// Fault: the hub restarts while a graceful eviction is in its grace period (issue 27). member2 is
// judged Unknown, a ClusterTaintPolicy taints it unreachable:NoExecute and `web` (Divided over
// member1..member3, no toleration left) is evicted Gracefully: its copy stays on member2 while
// the task, recorded on the bindings branch, waits for the new copies. Then the hub process is
// killed with SIGKILL in the middle of a pass, and a new one (`gitfleet hub --once`, no monitor,
// no memory) runs to its end. The eviction must go on as if nothing had happened: the same one
// task, the copy still on member2, no second eviction, the branches only fast-forward. When
// member2 reports Ready again the task goes on, and it ends (HealthyOnNewClusters) once member1
// and member3 report `web` Healthy: then the copy leaves member2, and `web` does not flap back.
//
// The hubs before and after the process run in this test on injected clocks; the process runs on
// the wall clock, so the grace period is long enough to hold from the first to the last.
import { noExecuteTaintPolicyDoc } from '../support/fleet-docs.js';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, watch } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { buildTreeFromScratch } from '../../src/adapters/git/build-tree-from-scratch.js';
import { toGitObject } from '../../src/adapters/git/hash-object.js';
import { makeCommit } from '../../src/adapters/git/make-commit.js';
import { updateRefs } from '../../src/adapters/git/update-ref.js';
import { writeObjects } from '../../src/adapters/git/write-objects.js';
import { statusBranchFiles, type ObjectStatusRecord } from '../../src/core/status/status-branch.js';
import { defaultFailoverSettings } from '../../src/core/model/failover.js';
import type { ClusterVerdict } from '../../src/core/failover/monitored-status.js';
import { newFailoverMemory } from '../../src/core/failover/eviction-request.js';
import type { HubFailover } from '../../src/loops/hub/hub-failover.js';
import { createHubPassCache } from '../../src/loops/hub/hub-pass-cache.js';
import {
  branchFiles,
  commitReadyReport,
  fleetRepoWith,
  git,
  hubPass,
  hubRefs,
  removeFleetRepos,
  rendered,
  type FleetRepo,
} from '../loops/hub/hub-fixture.js';
import { exitOf, leftoverLocks, runCliProcess, startCli } from './fault-fixture.js';

after(removeFleetRepos);

const clusters = ['member1', 'member2', 'member3'];
const webPath = 'shop/Deployment.apps/web.yaml';
const bindings = 'gitfleet/bindings';
/** The grace period: 100,000 h, from the injected clock of 2023 past the wall clock's today. */
const graceHours = 100_000;
const before = (s: number) => () => new Date(1_700_000_100_000 + s * 1000);
/** The resumed hub's clock: after the wall clock the process ran on, inside the grace period. */
const resumed = (s: number) => () => new Date(1_900_000_000_000 + s * 1000);

/** The fleet; `web` may run on the clusters named. */
const fleetFiles = (names: string): Record<string, string> => ({
  'fleet.yaml':
    'apiVersion: gitfleet.io/v1alpha1\nkind: FleetConfig\nmetadata: {name: fleet}\nspec: {allowNoExecuteTaintPolicy: true}\n',
  'clusters.yaml': clusters
    .map((c) => `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: ${c}}\nspec: {}\n`)
    .join('---\n'),
  'taints.yaml': noExecuteTaintPolicyDoc(),
  'apps/web.yaml': `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 6
  template:
    spec:
      containers: [{name: web, image: web:1}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement:
    clusterAffinity: {clusterNames: [${names}]}
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList: [{targetCluster: {clusterNames: [member1, member2, member3]}, weight: 1}]
    clusterTolerations:
      - {key: cluster.karmada.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 0}
`,
});

const unknown: ClusterVerdict = {
  status: 'Unknown',
  reason: 'ClusterStatusUnknown',
  message: 'the agent stopped reporting',
};

/** A hub's failover: eviction on, a fresh memory, the verdicts given. */
function failoverWith(verdicts: ReadonlyMap<string, ClusterVerdict>): HubFailover {
  return {
    settings: {
      ...defaultFailoverSettings,
      enableNoExecuteTaintEviction: true,
      resourceEvictionRate: 1000,
      gracefulEvictionTimeoutSeconds: graceHours * 3600,
    },
    memory: newFailoverMemory(),
    verdicts: () => verdicts,
  };
}

const hubArgs = (repo: FleetRepo) => [
  'hub',
  '--repo',
  repo.path,
  '--once',
  '--enable-no-execute-taint-eviction',
  '--resource-eviction-rate',
  '1000',
  '--graceful-eviction-timeout',
  `${graceHours}h`,
];

interface Task {
  fromCluster: string;
  creationTimestamp: string;
}

function record(repo: FleetRepo) {
  return yaml.load(branchFiles(repo, bindings).get(webPath)!) as {
    spec: { clusters?: { name: string; replicas?: number }[]; gracefulEvictionTasks?: Task[] };
  };
}

const webOn = (repo: FleetRepo, cluster: string) =>
  branchFiles(repo, `gitfleet/clusters/${cluster}`).get(webPath);

/** How many lines of the bindings branch's history carry this trailer. */
function trailerCount(repo: FleetRepo, trailer: string): number {
  const log = git(repo, ['log', '--format=%B', `refs/heads/${bindings}`]);
  return log.split('\n').filter((line) => line.startsWith(`${trailer}: `)).length;
}

/** Asserts that every hub ref of `was` still exists and only moved forward. */
function assertFastForwards(repo: FleetRepo, was: ReadonlyMap<string, string>, when: string): void {
  const now = hubRefs(repo);
  for (const [ref, oid] of was) {
    if (ref.includes('/status/')) continue; // the agents' (here the test's) branches
    const head = now.get(ref);
    assert.ok(head, `${when}: ${ref} still exists`);
    assert.equal(git(repo, ['merge-base', oid, head]), oid, `${when}: ${ref} only moved forward`);
  }
}

/** Commits a status report on top of the cluster's status branch, as its agent would. */
async function report(repo: FleetRepo, cluster: string, objects: ObjectStatusRecord[]): Promise<void> {
  const ref = `refs/heads/gitfleet/status/${cluster}`;
  const parent = git(repo, ['rev-parse', ref]);
  const files = statusBranchFiles({
    cluster,
    appliedCommit: git(repo, ['rev-parse', `refs/heads/gitfleet/clusters/${cluster}`]),
    clusterStatus: { conditions: [{ type: 'Ready', status: 'True' }] },
    objects,
  });
  const blobs = [...files].map(([path, text]) => [path, toGitObject('blob', Buffer.from(text))] as const);
  const tree = buildTreeFromScratch(new Map(blobs.map(([path, blob]) => [path, blob.oid])));
  const who = { name: 'agent', email: 'agent@gitfleet.invalid', time: 1_700_000_300, tzOffsetMinutes: 0 };
  const commit = makeCommit({
    tree: tree.root,
    parents: [parent],
    author: who,
    message: `status of ${cluster}\n`,
  });
  await writeObjects({
    gitdir: repo.gitdir,
    objects: [...blobs.map(([, b]) => b), ...tree.newObjects, commit],
  });
  await updateRefs({ gitdir: repo.gitdir, updates: [{ ref, newOid: commit.oid, expectedOld: parent }] });
}

/** Starts a `hub --once` process and kills it with SIGKILL when its first ref lock appears. */
async function killedMidPass(repo: FleetRepo): Promise<boolean> {
  const hub = startCli(hubArgs(repo));
  const ended = exitOf(hub);
  const watchers = ['refs/heads/gitfleet', 'refs/heads/gitfleet/clusters'].map((dir) =>
    watch(join(repo.gitdir, dir), (_event, name) => {
      if (name?.endsWith('.lock')) hub.kill('SIGKILL');
    }),
  );
  const exit = await ended;
  for (const w of watchers) w.close();
  return exit.signal === 'SIGKILL';
}

/** Runs the hubs before the restart: member2 is judged Unknown and web evicted from it Gracefully. */
async function evictFromMember2(names: string) {
  const repo = fleetRepoWith(fleetFiles(names), { bare: true });
  const verdicts = new Map<string, ClusterVerdict>();
  const first = failoverWith(verdicts);
  rendered(await hubPass(repo, { failover: first, now: before(0) }));
  for (const c of clusters) await commitReadyReport(repo, c, 'True');
  rendered(await hubPass(repo, { failover: first, now: before(1) }));
  assert.ok(webOn(repo, 'member2'), 'web runs on member2');

  // member2 is judged Unknown: the taint evicts web Gracefully; its copy stays during the grace period.
  verdicts.set('member2', unknown);
  const copy = webOn(repo, 'member2');
  const evicted = rendered(await hubPass(repo, { failover: first, now: before(60) }));
  assert.deepEqual(
    evicted.decisions?.filter((d) => d.type === 'Evicted').map((d) => [d.binding, d.cluster]),
    [['apps/Deployment/shop/web', 'member2']],
  );
  const task = record(repo).spec.gracefulEvictionTasks;
  assert.deepEqual(
    task?.map((t) => t.fromCluster),
    ['member2'],
  );
  return { repo, copy, task };
}

/** The story; `memo`: whether the new process finds the memo the last pass left, or starts cold. */
async function restartMidEviction(memo: boolean): Promise<void> {
  const { repo, copy, task } = await evictFromMember2('member1, member2, member3');
  assert.deepEqual(
    record(repo).spec.clusters?.map((c) => c.name),
    ['member1', 'member3'],
  );
  assert.equal(webOn(repo, 'member2'), copy, 'the copy stays on member2');
  const atEviction = hubRefs(repo);

  // The restart: a hub process killed in its pass, then a new one that runs to its end.
  const killed = await killedMidPass(repo);
  process.stderr.write(`the first hub process was ${killed ? 'killed mid-pass' : 'done before its kill'}\n`);
  // Cold, the new process reads every record from the bindings branch, not from the memo.
  if (!memo) rmSync(join(repo.gitdir, 'gitfleet/hub-memo-v2'), { force: true });
  const next = await runCliProcess(hubArgs(repo));
  assert.equal(next.code, 0, next.stderr);
  assert.deepEqual(leftoverLocks(repo.gitdir), [], 'no lock is left');
  assertFastForwards(repo, atEviction, 'after the restart');
  assert.deepEqual(record(repo).spec.gracefulEvictionTasks, task, 'the same one task is recorded');
  assert.deepEqual(
    record(repo).spec.clusters?.map((c) => c.name),
    ['member1', 'member3'],
    'member2 stays out of the schedule',
  );
  assert.equal(webOn(repo, 'member2'), copy, 'the copy is still on member2');
  assert.equal(trailerCount(repo, 'Gitfleet-Eviction'), 1, 'no second eviction');
  assert.equal(trailerCount(repo, 'Gitfleet-Eviction-Done'), 0, 'the task did not end');

  // member2 is back (a new hub in this test, Ready again): the task goes on, its copy stays.
  const afterRestart = hubRefs(repo);
  const third = failoverWith(new Map());
  await report(repo, 'member2', []);
  await hubPass(repo, { failover: third, cache: createHubPassCache(), now: resumed(0) });
  assert.deepEqual(record(repo).spec.gracefulEvictionTasks, task, 'the task waits for the new copies');
  assert.equal(webOn(repo, 'member2'), copy, 'the copy stays until the task ends');

  // member1 and member3 report web Healthy at their heads: the task ends and the copy leaves.
  const web = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' };
  for (const c of ['member1', 'member3'])
    await report(repo, c, [{ ref: web, applied: true, health: 'Healthy' }]);
  const done = rendered(await hubPass(repo, { failover: third, now: resumed(60) }));
  assert.deepEqual(
    done.decisions?.filter((d) => d.type === 'EvictionDone').map((d) => [d.cluster, d.reason]),
    [['member2', 'HealthyOnNewClusters']],
  );
  assert.equal(record(repo).spec.gracefulEvictionTasks, undefined, 'the task is done');
  assert.equal(webOn(repo, 'member2'), undefined, 'the copy left member2 with the task');
  assert.deepEqual(
    record(repo).spec.clusters?.map((c) => c.name),
    ['member1', 'member3'],
    'web does not flap back',
  );
  assert.equal(trailerCount(repo, 'Gitfleet-Eviction'), 1, 'still one eviction');
  assert.equal(trailerCount(repo, 'Gitfleet-Eviction-Done'), 1, 'one end of it');
  assertFastForwards(repo, afterRestart, 'at the end');
}

test('a hub restarted cold (SIGKILL mid-pass, then a new process, no memo) during a graceful eviction continues it to its normal end', () =>
  restartMidEviction(false));

test('a hub restarted with its memo during a graceful eviction continues it to its normal end', () =>
  restartMidEviction(true));

// Found by this test: the restarted hub has no verdicts of its own (no monitor for --once, none
// before a grace period for the loop), so member2's last report, Ready from before its outage,
// stood for its state, and a workload no other cluster can take ended its task ClusterRecovered
// ("member2 is Ready") while its agent was still gone. The judgement the bindings commit recorded
// now stands until member2 reports again (core/failover/carry-recorded-verdicts.ts).
test('a workload only member2 can run keeps its eviction task across a restart while member2 is still quiet', async () => {
  const { repo, copy, task } = await evictFromMember2('member2');
  const next = await runCliProcess(hubArgs(repo));
  assert.equal(next.code, 0, next.stderr);
  assert.equal(webOn(repo, 'member2'), copy, 'the copy stays on member2');
  assert.deepEqual(record(repo).spec.gracefulEvictionTasks, task, 'the task is still recorded');
});
