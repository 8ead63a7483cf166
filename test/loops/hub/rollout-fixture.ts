// Helpers of the rollout hub tests (hub-pass-rollout*.test.ts): the bundled example with a
// RolloutStrategy for shop/web (Divided over aws-eu-prod, aws-us-prod, gcp-eu-prod), gcp-eu-prod
// first, and agent reports written into the status branches as an agent writes them.
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
import {
  branchFiles,
  commitChange,
  exampleFleetRepo,
  git,
  hubPass,
  rendered,
  type FleetRepo,
} from './hub-fixture.js';

export const webPath = 'shop/Deployment.apps/web.yaml';
export const recordPath = '.gitfleet/rollouts/shop/web.yaml';
export const canary = 'gcp-eu-prod';
export const later = ['aws-eu-prod', 'aws-us-prod'];
export const t0 = 1_700_000_100_000;
export const at = (ms: number) => () => new Date(ms);

export function strategy(
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

export function setImage(work: string, tag: string): void {
  const file = join(work, 'apps/shop/web.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/shop\/web:[0-9.]+/, `shop/web:${tag}`));
}

export function imageOn(repo: FleetRepo, cluster: string): string | undefined {
  const text = branchFiles(repo, `gitfleet/clusters/${cluster}`).get(webPath);
  return text === undefined ? undefined : /shop\/web:([0-9.]+)/.exec(text)?.[1];
}

export function replicasOn(repo: FleetRepo, cluster: string): number | undefined {
  const text = branchFiles(repo, `gitfleet/clusters/${cluster}`).get(webPath);
  return text === undefined ? undefined : (yaml.load(text) as { spec: { replicas: number } }).spec.replicas;
}

export function record(repo: FleetRepo) {
  const text = branchFiles(repo, 'gitfleet/bindings').get(recordPath);
  return text === undefined ? undefined : parseRolloutRecord(text);
}

export function headMessage(repo: FleetRepo, branch: string): string {
  return git(repo, ['log', '-1', '--format=%B', `refs/heads/${branch}`]);
}

/** Writes the cluster's status branch as its agent would: its branch's head applied, shop's Deployments (web) with this health. */
export async function report(
  repo: FleetRepo,
  cluster: string,
  health: HealthStatus,
  message?: string,
  /** The Deployments of shop reported (default: web). */
  names: readonly string[] = ['web'],
): Promise<void> {
  const appliedCommit = git(repo, ['rev-parse', `refs/heads/gitfleet/clusters/${cluster}`]).trim();
  const objects: ObjectStatusRecord[] = names.map((name) => ({
    ref: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name },
    applied: true,
    health,
    ...(message ? { healthMessage: message } : {}),
  }));
  const files = statusBranchFiles({
    cluster,
    appliedCommit,
    clusterStatus: { conditions: [{ type: 'Ready', status: 'True' }] },
    objects,
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
export async function fleetWithStrategy(text: string): Promise<FleetRepo> {
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
