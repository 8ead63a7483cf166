// The preview of a change (`gitfleet diff`, previewDiff) is what merging it does: after a real
// hub pass, a new commit is pushed; the head side of its preview must equal, byte for byte, what
// the following hub pass writes to every cluster branch, and the text diff applied to the branches
// as they were must give the branches as they are. Run on the example fleet and on a fleet whose
// placement depends on the recorded state: dynamic weights from the clusters' reported resources,
// Aggregated division, a NotReady cluster.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { statusBranchFiles } from '../../../src/core/status/status-branch.js';
import { previewDiff } from '../../../src/loops/preview/preview-diff.js';
import { readRecordedState } from '../../../src/loops/preview/read-recorded-state.js';
import { renderAsHub } from '../../../src/loops/preview/render-as-hub.js';
import { loadFleet } from '../../../src/core/load/load-fleet.js';
import { readGitSource } from '../../../src/adapters/source/read-git-commit.js';
import {
  branchFiles,
  commitChange,
  commitStatusBranch,
  exampleFleetRepo,
  fleetRepoWith,
  git,
  gitEnv,
  hubPass,
  hubRefs,
  rendered,
  removeFleetRepos,
  type FleetRepo,
} from './hub-fixture.js';
import { at, canary, fleetWithStrategy, record, report, setImage, strategy, t0 } from './rollout-fixture.js';

const scratch: string[] = [];
after(() => {
  removeFleetRepos();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

const now = () => new Date(1_700_000_100_000);

/** Every cluster branch: cluster → path → content. */
function clusterBranches(repo: FleetRepo): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const ref of hubRefs(repo).keys()) {
    const m = /^refs\/heads\/gitfleet\/clusters\/(.+)$/.exec(ref);
    if (m) out.set(m[1]!, branchFiles(repo, ref));
  }
  return out;
}

/** The head side of the preview, as renderAsHub makes it for previewDiff. */
async function headSide(
  repo: FleetRepo,
  revision: string,
  at: () => Date = now,
): Promise<Map<string, Map<string, string>>> {
  const read = await readGitSource({ dir: repo.path, ref: revision });
  const loaded = loadFleet(read.files);
  assert.ok(loaded.ok);
  const recorded = await readRecordedState(repo.gitdir, loaded.fleet.config.branchPrefix);
  assert.ok(recorded, 'the repository holds the hub state');
  const side = await renderAsHub({ recorded, fleet: loaded.fleet, commit: read.commit, now: at() });
  return new Map([...side.render.clusters].map(([c, o]) => [c, new Map(o.files)]));
}

/** Writes the branches into a directory, applies the patch there with git apply, and reads them back. */
function applyPatch(
  branches: Map<string, Map<string, string>>,
  patch: string,
): Map<string, Map<string, string>> {
  const dir = mkdtempSync(join(tmpdir(), 'gitfleet-preview-'));
  scratch.push(dir);
  for (const [cluster, files] of branches) {
    for (const [path, text] of files) {
      mkdirSync(dirname(join(dir, cluster, path)), { recursive: true });
      writeFileSync(join(dir, cluster, path), text);
    }
  }
  writeFileSync(join(dir, '..', `${dir.split('/').pop()}.patch`), `${patch}\n`);
  execFileSync('git', ['apply', join(dir, '..', `${dir.split('/').pop()}.patch`)], { cwd: dir, env: gitEnv });
  const out = new Map<string, Map<string, string>>();
  for (const [cluster] of branches) out.set(cluster, new Map());
  const files = execFileSync('find', ['.', '-type', 'f'], { cwd: dir })
    .toString()
    .split('\n')
    .filter(Boolean);
  for (const file of files.sort()) {
    const [cluster, ...rest] = file.slice(2).split('/');
    const map = out.get(cluster!) ?? new Map<string, string>();
    map.set(rest.join('/'), readFileSync(join(dir, file), 'utf8'));
    out.set(cluster!, map);
  }
  return out;
}

function sorted(map: Map<string, Map<string, string>>): [string, [string, string][]][] {
  return [...map]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([c, files]) => [c, [...files].sort(([a], [b]) => (a < b ? -1 : 1))]);
}

/** Checks the preview of main against what the next hub pass writes; returns the preview. */
async function assertPreviewIsWhatTheHubWrites(repo: FleetRepo, base: string, at: () => Date = now) {
  const before = clusterBranches(repo);
  const preview = await previewDiff({ dir: repo.path, base, head: 'main', now: at });
  const head = await headSide(repo, 'main', at);
  rendered(await hubPass(repo, { now: at }));
  const after = clusterBranches(repo);
  assert.deepEqual(sorted(head), sorted(after), 'the head side is what the hub wrote, byte for byte');
  assert.deepEqual(
    sorted(applyPatch(before, preview.text)),
    sorted(after),
    'the diff takes the branches there',
  );
  return preview;
}

test('on the example fleet, the preview of a pushed commit is what the following hub pass writes', async () => {
  const repo = exampleFleetRepo({ bare: false });
  rendered(await hubPass(repo));
  const base = git(repo, ['rev-parse', 'main']);
  commitChange(repo, 'scale web, new us mirror', (work) => {
    const edit = (path: string, from: string, to: string) => {
      const text = readFileSync(join(work, path), 'utf8');
      assert.ok(text.includes(from));
      writeFileSync(join(work, path), text.replace(from, to));
    };
    edit('apps/shop/web.yaml', 'replicas: 10', 'replicas: 13');
    edit('overrides/registry-mirrors.yaml', 'mirror-us-east-1.example.com', 'mirror2-us-east-1.example.com');
  });
  const preview = await assertPreviewIsWhatTheHubWrites(repo, base);
  assert.equal(preview.state.used, true);
  assert.equal(preview.state.bindingsCommit?.length, 40);
  assert.match(preview.state.note, /^hub state: bindings gitfleet\/bindings at [0-9a-f]{12} \(recorded /);
  assert.ok(preview.verdict.changed > 0);
  // Now the hub has rendered the head: a preview from the old base renders that base on the state.
  const again = await previewDiff({ dir: repo.path, base, head: 'main', now });
  assert.match(
    again.state.note,
    /; base side: rendered on the same state \(the hub last rendered another commit\)$/,
  );
  assert.deepEqual(again.diff, preview.diff);
});

const member = (name: string) => `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: ${name}}
spec: {}
`;

const workload = (name: string, replicas: number, scheduling: string) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: shop}
spec:
  replicas: ${replicas}
  template:
    spec:
      containers:
        - name: ${name}
          image: ${name}:1
          resources: {requests: {cpu: 500m, memory: 256Mi}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: ${name}, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: ${name}}]
  placement:
    clusterAffinity: {clusterNames: [m1, m2, m3]}
    replicaScheduling:
${scheduling}
`;

const dynamic = `      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference: {dynamicWeight: AvailableReplicas}`;
const aggregated = `      replicaSchedulingType: Divided
      replicaDivisionPreference: Aggregated`;

async function reportStatus(repo: FleetRepo, cluster: string, ready: 'True' | 'False', cpu: string) {
  const appliedCommit = git(repo, ['rev-parse', `refs/heads/gitfleet/clusters/${cluster}`]);
  const clusterStatus = {
    conditions: [{ type: 'Ready' as const, status: ready }],
    resourceSummary: { allocatable: { cpu, memory: '64Gi', pods: '110' } },
  };
  await commitStatusBranch(
    repo,
    cluster,
    statusBranchFiles({ cluster, appliedCommit, clusterStatus, objects: [] }),
  );
}

test('with dynamic weights, Aggregated division and a NotReady cluster, the preview is what the hub writes, and a first-pass render is not', async () => {
  const repo = fleetRepoWith(
    {
      'clusters/m1.yaml': member('m1'),
      'clusters/m2.yaml': member('m2'),
      'clusters/m3.yaml': member('m3'),
      'apps/web.yaml': workload('web', 6, dynamic),
      'apps/api.yaml': workload('api', 3, aggregated),
    },
    { bare: true },
  );
  rendered(await hubPass(repo));
  // m1 can take 4 replicas of 500m, m2 16, m3 is NotReady.
  await reportStatus(repo, 'm1', 'True', '2');
  await reportStatus(repo, 'm2', 'True', '8');
  await reportStatus(repo, 'm3', 'False', '8');
  rendered(await hubPass(repo));
  const base = git(repo, ['rev-parse', 'main']);
  commitChange(repo, 'more web and api', (work) => {
    writeFileSync(join(work, 'apps/web.yaml'), workload('web', 10, dynamic));
    writeFileSync(join(work, 'apps/api.yaml'), workload('api', 5, aggregated));
  });
  const preview = await assertPreviewIsWhatTheHubWrites(repo, base);
  assert.match(preview.state.note, /status of 3 clusters \(recorded /);
  // What a first pass would show differs: the recorded state changes the outcome here.
  const fresh = await previewDiff({ dir: repo.path, base, head: 'main', hubState: 'none', now });
  assert.equal(fresh.state.used, false);
  assert.equal(fresh.state.note, 'no hub state (--no-hub-state): rendered as a first pass');
  assert.notDeepEqual(
    fresh.diff.clusters.map((c) => c.files.map((f) => f.diff)),
    preview.diff.clusters.map((c) => c.files.map((f) => f.diff)),
  );
});

test('during a rollout, the preview holds the later steps as the hub does, then releases them once the canary is Healthy', async () => {
  const repo = await fleetWithStrategy(strategy());
  const base = git(repo, ['rev-parse', 'main']);
  commitChange(repo, 'web 1.9.0', (work) => setImage(work, '1.9.0'));
  const first = await assertPreviewIsWhatTheHubWrites(repo, base, at(t0));
  assert.deepEqual(
    first.diff.clusters
      .filter((c) => c.files.some((f) => f.path === 'shop/Deployment.apps/web.yaml'))
      .map((c) => c.cluster),
    [canary],
    'only the canary gets the new image; the later step is held',
  );
  assert.equal(record(repo)?.phase, 'Progressing');
  await report(repo, canary, 'Healthy');
  const second = git(repo, ['rev-parse', 'main']);
  commitChange(repo, 'web 1.9.1', (work) => setImage(work, '1.9.1'));
  const next = await assertPreviewIsWhatTheHubWrites(repo, second, at(t0 + 60_000));
  assert.match(next.state.note, /; base side: the cluster branches as the hub last wrote them for it$/);
  // The new revision starts the rollout again: the later step keeps 1.8.0, so nothing changes there.
  assert.deepEqual(
    next.diff.clusters.map((c) => c.cluster),
    [canary],
  );
});
