// The fleet the status benchmark reads: a generated fleet (generate-fleet.ts) committed on main,
// rendered by two real hub passes (the second after an image bump, so the clusters that run
// app0 have a cluster branch two commits long), and a status branch per cluster as its agent
// writes one (statusBranchFiles): one record per object of its cluster branch, every record
// naming its cluster in its reflected status so that no two clusters share a blob (the worst
// case for the reader, which reads each blob once), every 40th object Progressing and every
// 97th Degraded; the clusters whose branch moved in the second pass report the first commit,
// one behind. A last hub pass aggregates the reports into the binding records.
import { execFileSync } from 'node:child_process';
import type { SourceFile } from '../src/core/load/load-fleet.js';
import { createHubPassCache } from '../src/loops/hub/hub-pass-cache.js';
import { runHubPass } from '../src/loops/hub/hub-pass.js';
import { localHubRepo } from '../src/adapters/remote/hub-repo.js';
import { silentLogger } from '../src/loops/runtime/logger.js';
import type { ObjectRef } from '../src/core/model/object-ref.js';
import { statusBranchFiles, type ObjectStatusRecord } from '../src/core/status/status-branch.js';
import { generateFleet, type FleetShape } from './generate-fleet.js';

const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

/** Builds the fleet into a new bare repository at `gitdir`; returns how many status records it wrote. */
export async function buildStatusFleet(gitdir: string, shape: FleetShape): Promise<{ records: number }> {
  const git = gitIn(gitdir);
  execFileSync('git', ['init', '-q', '--bare', gitdir], { env });
  const files = generateFleet(shape);
  fastImport(git, 'refs/heads/main', files, 'generated fleet', false);
  const cache = createHubPassCache();
  await pass(gitdir, cache);
  const first = clusterHeads(git);
  const app0 = files.find((f) => f.path === 'apps/app0/templates.yaml')!;
  const bumped = { path: app0.path, content: app0.content.replace('/app0/svc0:1.0.0', '/app0/svc0:1.0.1') };
  fastImport(git, 'refs/heads/main', [bumped], 'bump app0/svc0', true);
  await pass(gitdir, cache);
  let records = 0;
  for (const [cluster, head] of clusterHeads(git)) {
    const applied = first.get(cluster) ?? head;
    const paths = git(['ls-tree', '-r', '--name-only', head])
      .split('\n')
      .filter((p) => p.endsWith('.yaml') && !p.startsWith('.gitfleet/'));
    const objects = paths.map((path, i) => recordOf(path, i, cluster));
    records += objects.length;
    const status = statusBranchFiles({ cluster, appliedCommit: applied, objects, clusterStatus: ready() });
    const branchFiles = [...status].map(([path, content]) => ({ path, content }));
    fastImport(git, `refs/heads/gitfleet/status/${cluster}`, branchFiles, `status ${cluster}`, false);
  }
  // The hub aggregates the new status into the binding records, as a running hub does when a
  // status branch moves.
  await pass(gitdir, cache);
  return { records };
}

/** Returns a runner of git commands in the repository: args (and stdin) in, stdout out. */
export function gitIn(gitdir: string): (args: string[], input?: string) => string {
  return (args, input) =>
    execFileSync('git', ['--git-dir', gitdir, ...args], {
      env,
      input: input ?? '',
      maxBuffer: 1 << 30,
    }).toString();
}

function ready() {
  return {
    kubernetesVersion: 'v1.31.0',
    conditions: [{ type: 'Ready', status: 'True' as const }],
    nodeSummary: { totalNum: 3, readyNum: 3 },
  };
}

// `<namespace>/<Kind>[.<group>]/<name>.yaml` back to a ref: the version does not matter, the
// readers match objects by group, kind, namespace and name.
function recordOf(path: string, i: number, cluster: string): ObjectStatusRecord {
  const [ns, kindGroup, file] = path.split('/') as [string, string, string];
  const dot = kindGroup.indexOf('.');
  const kind = dot < 0 ? kindGroup : kindGroup.slice(0, dot);
  const group = dot < 0 ? '' : kindGroup.slice(dot + 1);
  const ref: ObjectRef = {
    apiVersion: group ? `${group}/v1` : 'v1',
    kind,
    namespace: ns === '_cluster' ? '' : ns,
    name: file.slice(0, -'.yaml'.length),
  };
  const health = i % 97 === 0 ? 'Degraded' : i % 40 === 0 ? 'Progressing' : 'Healthy';
  return { ref, applied: true, health, status: { observedCluster: cluster } };
}

function clusterHeads(git: (args: string[]) => string): Map<string, string> {
  const out = git([
    'for-each-ref',
    '--format=%(refname:lstrip=4) %(objectname)',
    'refs/heads/gitfleet/clusters/',
  ]);
  return new Map(
    out
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(' ') as [string, string]),
  );
}

/** Commits the files on `ref` with git fast-import (on top of its head when `parent`). */
export function fastImport(
  git: (args: string[], input?: string) => string,
  ref: string,
  files: readonly SourceFile[],
  message: string,
  parent: boolean,
): void {
  const parts = [
    `commit ${ref}`,
    'committer Bench <bench@example.com> 1700000000 +0000',
    `data ${Buffer.byteLength(message)}`,
    message,
    ...(parent ? [`from ${ref}^0`] : []),
  ];
  for (const f of files)
    parts.push(`M 100644 inline ${f.path}`, `data ${Buffer.byteLength(f.content)}`, f.content);
  git(['fast-import', '--quiet'], `${parts.join('\n')}\n`);
}

async function pass(gitdir: string, cache: ReturnType<typeof createHubPassCache>): Promise<void> {
  const result = await runHubPass({
    repo: localHubRepo(gitdir),
    sourceRef: 'main',
    identity: { name: 'gitfleet', email: 'hub@gitfleet.invalid' },
    now: () => new Date(1_700_000_000_000),
    log: silentLogger(),
    cache,
  });
  if (result.type !== 'rendered') throw new Error(`the hub pass: ${result.type}`);
}
