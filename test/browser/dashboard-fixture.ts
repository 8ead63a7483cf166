// The fleet the dashboard tests look at: the bundled example, its Secret given a value the tests
// know, rendered by a real `gitfleet hub --once`, and each cluster's status branch written as its
// agent writes it (core/status/status-branch.ts's files, committed on the branch's last commit):
//
//   aws-eu-prod     Ready, v1.31.2, 3/3 nodes; every object Healthy but Deployment shop/web, Degraded
//   aws-us-prod     Ready; every object Healthy but Deployment shop/api, whose apply failed
//   gcp-eu-prod     NotReady, applied nothing yet: every object not yet applied
//   gcp-eu-staging  Ready; every object Progressing
//   onprem-gpu      a status branch that does not parse
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import type { HealthStatus } from '../../src/core/health/health.js';
import type { ObjectRef } from '../../src/core/model/object-ref.js';
import type { ApiEnablement } from '../../src/core/model/cluster.js';
import { refLabel } from '../../src/core/model/object-ref.js';
import { statusBranchFiles, type ObjectStatusRecord } from '../../src/core/status/status-branch.js';
import {
  branchFiles,
  commitChange,
  exampleFleetRepo,
  git,
  gitEnv,
  repoRoot,
  type FleetRepo,
} from '../loops/hub/hub-fixture.js';
import { tempDir } from '../support/temp-dirs.js';

/** The Secret's value in plain text and as the template holds it (base64); no page may show either. */
export const secretValue = 'dashboard-secret-d41d8cd98f';
export const secretBase64 = Buffer.from(secretValue).toString('base64');
/** The value a later commit gives it. */
export const nextSecretValue = 'dashboard-secret-next-9e107d9d';
export const nextSecretBase64 = Buffer.from(nextSecretValue).toString('base64');

/**
 * Runs `gitfleet hub --once` on the repository (with more flags when given), as a user does; a
 * pass written with error diagnostics (exit 3: a template placed nowhere) is a pass too.
 */
export function hubOnce(repo: FleetRepo, flags: readonly string[] = []): void {
  const args = [join(repoRoot, 'bin/gitfleet.js'), 'hub', '--repo', repo.path, '--once', ...flags];
  const run = spawnSync(process.execPath, args, { env: gitEnv, encoding: 'utf8', timeout: 120_000 });
  if (run.status !== 0 && run.status !== 3)
    throw new Error(`gitfleet hub --once exited ${run.status ?? run.signal}: ${run.stdout}${run.stderr}`);
}

/** Returns the example fleet with the known Secret value, rendered by the hub. */
export function renderedExample(): FleetRepo {
  const repo = exampleFleetRepo({ bare: false });
  commitChange(repo, 'a Secret value the dashboard tests know', (work) => setSecret(work, secretBase64));
  hubOnce(repo);
  return repo;
}

/** Replaces the example Secret's session.key with a base64 value. */
export function setSecret(work: string, base64: string): void {
  const path = join(work, 'apps/shop/web.yaml');
  writeFileSync(path, readFileSync(path, 'utf8').replace(/session\.key: \S+/, `session.key: ${base64}`));
}

/** Returns the objects on a cluster branch's head: their refs, by reading each file. */
export function clusterObjects(repo: FleetRepo, cluster: string): ObjectRef[] {
  const files = branchFiles(repo, `refs/heads/gitfleet/clusters/${cluster}`);
  const texts = [...files].filter(([p]) => p.endsWith('.yaml') && !p.startsWith('.gitfleet/'));
  return texts.map(([, text]) => {
    const doc = yaml.load(text) as {
      apiVersion: string;
      kind: string;
      metadata: { name: string; namespace?: string };
    };
    return {
      apiVersion: doc.apiVersion,
      kind: doc.kind,
      namespace: doc.metadata.namespace ?? '',
      name: doc.metadata.name,
    };
  });
}

/**
 * Commits the files as the next commit of a cluster's status branch (the first when there is
 * none), dated `time` (default: the fixture's fixed date).
 */
export function commitStatusFiles(
  repo: FleetRepo,
  cluster: string,
  files: ReadonlyMap<string, string>,
  time?: Date,
): string {
  const index = join(tempDir('status-index'), 'index');
  const date = time ? `${Math.floor(time.getTime() / 1000)} +0000` : undefined;
  const env = {
    GIT_INDEX_FILE: index,
    ...(date ? { GIT_COMMITTER_DATE: date, GIT_AUTHOR_DATE: date } : {}),
  };
  for (const [path, text] of files) {
    const blob = git(repo, ['hash-object', '-w', '--stdin'], { input: text, env });
    git(repo, ['update-index', '--add', '--cacheinfo', `100644,${blob},${path}`], { env });
  }
  const tree = git(repo, ['write-tree'], { env });
  const ref = `refs/heads/gitfleet/status/${cluster}`;
  let parent: string | undefined;
  try {
    parent = git(repo, ['rev-parse', '--verify', '-q', ref]);
  } catch {
    parent = undefined;
  }
  const commit = git(
    repo,
    ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', `status of ${cluster}`],
    { env },
  );
  git(repo, ['update-ref', ref, commit, ...(parent ? [parent] : [])]);
  return commit;
}

/** What a fixture cluster's agent reports. */
export interface ReportShape {
  ready: 'True' | 'False';
  version: string;
  applied: boolean;
  health: (ref: ObjectRef) => HealthStatus;
  failed?: (ref: ObjectRef) => string | undefined;
  /** The health message of an object, when it has one. */
  healthMessage?: (ref: ObjectRef) => string | undefined;
  /** The reflected status fields of an object, when it has them. */
  status?: (ref: ObjectRef) => Record<string, unknown> | undefined;
  /** The Ready condition's reason and message. */
  readyReason?: { reason: string; message: string };
  /** When the agent commits the report (default: the fixture's fixed date). */
  time?: Date;
  /** The APIs the cluster serves, as its agent's discovery lists them (default: none reported). */
  apis?: ApiEnablement[];
}

/** Writes one cluster's report about its branch head (or about nothing applied yet). */
export function writeReport(repo: FleetRepo, cluster: string, shape: ReportShape): ObjectStatusRecord[] {
  const head = git(repo, ['rev-parse', `refs/heads/gitfleet/clusters/${cluster}`]);
  const objects: ObjectStatusRecord[] = shape.applied
    ? clusterObjects(repo, cluster).map((ref) => {
        const failed = shape.failed?.(ref);
        const healthMessage = shape.healthMessage?.(ref);
        const status = shape.status?.(ref);
        return failed !== undefined
          ? { ref, applied: false, message: failed, health: 'Unknown' }
          : {
              ref,
              applied: true,
              health: shape.health(ref),
              ...(healthMessage !== undefined ? { healthMessage } : {}),
              ...(status !== undefined ? { status } : {}),
            };
      })
    : [];
  const files = statusBranchFiles({
    cluster,
    appliedCommit: shape.applied ? head : null,
    clusterStatus: {
      kubernetesVersion: shape.version,
      conditions: [{ type: 'Ready', status: shape.ready, ...shape.readyReason }],
      nodeSummary: { totalNum: 3, readyNum: shape.ready === 'True' ? 3 : 1 },
      resourceSummary: { allocatable: { cpu: '12', memory: '48Gi', pods: '330' } },
      ...(shape.apis ? { apiEnablements: shape.apis } : {}),
    },
    objects,
  });
  commitStatusFiles(repo, cluster, files, shape.time);
  return objects;
}

/** Writes the five clusters' status branches described at the top of this file. */
export function writeFleetStatus(repo: FleetRepo): void {
  writeReport(repo, 'aws-eu-prod', {
    ready: 'True',
    version: 'v1.31.2',
    applied: true,
    health: (ref) => (refLabel(ref) === 'Deployment/shop/web' ? 'Degraded' : 'Healthy'),
  });
  writeReport(repo, 'aws-us-prod', {
    ready: 'True',
    version: 'v1.30.6',
    applied: true,
    health: () => 'Healthy',
    failed: (ref) =>
      refLabel(ref) === 'Deployment/shop/api' ? 'admission webhook "policy" denied the request' : undefined,
  });
  writeReport(repo, 'gcp-eu-prod', {
    ready: 'False',
    version: 'v1.31.0',
    applied: false,
    health: () => 'Unknown',
  });
  writeReport(repo, 'gcp-eu-staging', {
    ready: 'True',
    version: 'v1.31.2',
    applied: true,
    health: () => 'Progressing',
  });
  commitStatusFiles(repo, 'onprem-gpu', new Map([['cluster.yaml', 'metadata: [this is: not, a report\n']]));
}
