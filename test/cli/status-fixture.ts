// Fleet repositories for the `gitfleet status` tests: cluster and bindings branches written by
// real hub passes, status branches written as an agent writes them (statusBranchFiles, one
// commit on top of the last, stamped with the given time), and `runStatus` run with a fixed
// clock and captured output.
import yaml from 'js-yaml';
import { buildTreeFromScratch } from '../../src/adapters/git/build-tree-from-scratch.js';
import { toGitObject } from '../../src/adapters/git/hash-object.js';
import { makeCommit } from '../../src/adapters/git/make-commit.js';
import { updateRefs } from '../../src/adapters/git/update-ref.js';
import { writeObjects } from '../../src/adapters/git/write-objects.js';
import type { Io } from '../../src/cli/io.js';
import { runStatus, type StatusOptions } from '../../src/cli/commands/status.js';
import type { HealthStatus } from '../../src/core/health/health.js';
import type { ObjectRef } from '../../src/core/model/object-ref.js';
import {
  statusBranchFiles,
  type AgentReport,
  type ObjectStatusRecord,
} from '../../src/core/status/status-branch.js';
import { branchFiles, git, type FleetRepo } from '../loops/hub/hub-fixture.js';

export const clusterDoc = (name: string) =>
  `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: ${name}}\nspec: {}\n`;

/** A Deployment `web` (4 replicas, divided 1:1 over m1 and m2) and a ConfigMap on m1, m2 and m3. */
export function shopFleet(image = 'web:1'): Record<string, string> {
  return {
    'clusters/all.yaml': ['m1', 'm2', 'm3'].map(clusterDoc).join('---\n'),
    'apps/web.yaml': `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop, labels: {tier: front}}
spec:
  replicas: 4
  template:
    spec:
      containers: [{name: web, image: ${image}}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: shop}
data: {mode: fast}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement:
    clusterAffinity: {clusterNames: [m1, m2]}
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
        - {targetCluster: {clusterNames: [m1]}, weight: 1}
        - {targetCluster: {clusterNames: [m2]}, weight: 1}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: settings, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap, name: settings}]
  placement:
    clusterAffinity: {clusterNames: [m1, m2, m3]}
`,
  };
}

/** Returns the head of a branch of the repository. */
export function head(repo: FleetRepo, branch: string): string {
  return git(repo, ['rev-parse', `refs/heads/${branch}`]).trim();
}

/** Returns one applied record per object of a cluster branch commit, Healthy unless `health` says otherwise. */
export function recordsOf(
  repo: FleetRepo,
  commit: string,
  health: Record<string, HealthStatus> = {},
): ObjectStatusRecord[] {
  const records: ObjectStatusRecord[] = [];
  for (const [path, text] of branchFiles(repo, commit)) {
    if (path.startsWith('.gitfleet/')) continue;
    const doc = yaml.load(text) as {
      apiVersion: string;
      kind: string;
      metadata: { name: string; namespace?: string };
    };
    const ref: ObjectRef = {
      apiVersion: doc.apiVersion,
      kind: doc.kind,
      namespace: doc.metadata.namespace ?? '',
      name: doc.metadata.name,
    };
    records.push({ ref, applied: true, health: health[`${ref.kind}/${ref.name}`] ?? 'Healthy' });
  }
  return records;
}

/** Commits a report as the agent of `cluster` does, on top of its status branch, at `time` (seconds). */
export async function commitReport(repo: FleetRepo, report: AgentReport, time: number): Promise<string> {
  return commitStatusFiles(repo, report.cluster, statusBranchFiles(report), time);
}

/** Commits these files as the next commit of a cluster's status branch; returns the commit. */
export async function commitStatusFiles(
  repo: FleetRepo,
  cluster: string,
  files: ReadonlyMap<string, string>,
  time: number,
): Promise<string> {
  const ref = `refs/heads/gitfleet/status/${cluster}`;
  let parent: string | null;
  try {
    parent = git(repo, ['rev-parse', '--verify', '-q', ref]).trim() || null;
  } catch {
    parent = null;
  }
  const blobs = [...files].map(([path, text]) => [path, toGitObject('blob', Buffer.from(text))] as const);
  const tree = buildTreeFromScratch(new Map(blobs.map(([path, blob]) => [path, blob.oid])));
  const who = { name: 'agent', email: 'agent@gitfleet.invalid', time, tzOffsetMinutes: 0 };
  const commit = makeCommit({
    tree: tree.root,
    parents: parent ? [parent] : [],
    author: who,
    message: `status of ${cluster}\n`,
  });
  await writeObjects({
    gitdir: repo.gitdir,
    objects: [...blobs.map(([, b]) => b), ...tree.newObjects, commit],
  });
  await updateRefs({ gitdir: repo.gitdir, updates: [{ ref, newOid: commit.oid, expectedOld: parent }] });
  return commit.oid;
}

/** Runs `gitfleet status` in-process with the given clock; returns its exit code and output. */
export async function statusAt(
  opts: Omit<StatusOptions, 'output'> & { output?: StatusOptions['output'] },
  now: Date,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    untilInterrupted: () => Promise.resolve(),
  };
  const code = await runStatus({ output: 'text', ...opts }, io, { now: () => now });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}
