// Real fleet repositories for the hub tests, made and inspected with the git command line: the
// bundled example committed on main, with a work tree or bare (then changes are made in a
// clone and pushed, as users do).
import { buildTreeFromScratch } from '../../../src/adapters/git/build-tree-from-scratch.js';
import { toGitObject } from '../../../src/adapters/git/hash-object.js';
import { makeCommit } from '../../../src/adapters/git/make-commit.js';
import { updateRefs } from '../../../src/adapters/git/update-ref.js';
import { writeObjects } from '../../../src/adapters/git/write-objects.js';
import { execFileSync } from 'node:child_process';
import { addSignature, splitSignedCommit } from '../../../src/adapters/signing/commit-payload.js';
import { signCommit, type CommitSigner } from '../../../src/adapters/signing/commit-signer.js';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { createHubPassCache, type HubPassCache } from '../../../src/loops/hub/hub-pass-cache.js';
import { runHubPass, type HubPassOptions } from '../../../src/loops/hub/hub-pass.js';
import type { HubPassResult } from '../../../src/loops/hub/hub-pass-result.js';
import { localHubRepo } from '../../../src/adapters/remote/hub-repo.js';
import { silentLogger } from '../../../src/loops/runtime/logger.js';
import { runCli } from '../../cli/run-cli.js';
import { runGit } from '../../support/run-git.js';
import { statusBranchFiles } from '../../../src/core/status/status-branch.js';
import yaml from 'js-yaml';
import { emitYaml } from '../../../src/core/format/emit-yaml.js';
import type { GracefulEvictionTask } from '../../../src/core/model/failover.js';

export const repoRoot = join(new URL('.', import.meta.url).pathname, '../../../..');
export const exampleDir = join(repoRoot, 'examples/fleet-repo');

export const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Fleet Author',
  GIT_AUTHOR_EMAIL: 'author@example.com',
  GIT_AUTHOR_DATE: '1700000000 +0000',
  GIT_COMMITTER_NAME: 'Fleet Author',
  GIT_COMMITTER_EMAIL: 'author@example.com',
  GIT_COMMITTER_DATE: '1700000000 +0000',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

/** A fleet repository under test: where users edit (`work`) and what the hub is given (`path`). */
export interface FleetRepo {
  /** The work tree users edit and commit in. */
  work: string;
  /** The path given to the hub: `work` itself, or a bare repository `work` pushes to. */
  path: string;
  gitdir: string;
  bare: boolean;
}

const made: string[] = [];

/** A PropagationPolicy placing every ConfigMap of namespace shop on member1 and member2. */
export const shopPolicy = [
  'apiVersion: policy.karmada.io/v1alpha1',
  'kind: PropagationPolicy',
  'metadata: { name: shop, namespace: shop }',
  'spec:',
  '  resourceSelectors: [{ apiVersion: v1, kind: ConfigMap }]',
  '  placement: { clusterAffinity: { clusterNames: [member1, member2] } }',
  '',
].join('\n');

/** Returns a repository holding the bundled example fleet committed on main. */
export function exampleFleetRepo(opts: { bare: boolean }): FleetRepo {
  return fleetRepo({ ...opts, fill: (work) => cpSync(exampleDir, work, { recursive: true }) });
}

/** Returns a repository holding the given files (path → content) committed on main. */
export function fleetRepoWith(files: Record<string, string>, opts: { bare: boolean }): FleetRepo {
  return fleetRepo({
    ...opts,
    fill: (work) => {
      for (const [path, content] of Object.entries(files)) {
        mkdirSync(dirname(join(work, path)), { recursive: true });
        writeFileSync(join(work, path), content);
      }
    },
  });
}

function fleetRepo(opts: { bare: boolean; fill: (work: string) => void }): FleetRepo {
  const dir = mkdtempSync(join(tmpdir(), 'gitfleet-hub-'));
  made.push(dir);
  const work = join(dir, 'work');
  mkdirSync(work);
  opts.fill(work);
  run(work, ['-c', 'init.defaultBranch=main', 'init', '-q']);
  run(work, ['add', '-A']);
  run(work, ['commit', '-qm', 'initial fleet']);
  if (!opts.bare) return { work, path: work, gitdir: join(work, '.git'), bare: false };
  const bare = join(dir, 'fleet.git');
  run(dir, ['clone', '-q', '--bare', work, bare]);
  run(work, ['remote', 'add', 'origin', bare]);
  return { work, path: bare, gitdir: bare, bare: true };
}

/** Returns an empty bare repository (a status or render repository), removed with the fleet repositories. */
export function emptyBareRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gitfleet-side-'));
  made.push(dir);
  execFileSync('git', ['init', '-q', '--bare', dir]);
  return dir;
}

/** Removes every repository made by this module. */
export function removeFleetRepos(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Runs git in a directory and returns its output, trailing newline trimmed. */
export function run(
  cwd: string,
  args: readonly string[],
  opts: { input?: string; env?: Record<string, string> } = {},
): string {
  return runGit(args, {
    cwd,
    env: { ...gitEnv, ...opts.env },
    ...(opts.input !== undefined ? { input: opts.input } : {}),
  });
}

/** Runs git on the hub's git directory (stdin from `input`, extra environment from `env`). */
export function git(
  repo: FleetRepo,
  args: readonly string[],
  opts: { input?: string; env?: Record<string, string> } = {},
): string {
  return run(repo.path, ['--git-dir', repo.gitdir, ...args], opts);
}

/** Edits the work tree, commits every change on main with the message, pushes when bare, and returns the commit. */
export function commitChange(repo: FleetRepo, message: string, edit: (work: string) => void): string {
  edit(repo.work);
  run(repo.work, ['add', '-A']);
  run(repo.work, ['commit', '-q', '--allow-empty', '-m', message]);
  if (repo.bare) run(repo.work, ['push', '-q', 'origin', 'main']);
  return run(repo.work, ['rev-parse', 'HEAD']);
}

/** Returns every ref under refs/heads/gitfleet/ and its commit. */
export function hubRefs(repo: FleetRepo): Map<string, string> {
  const out = git(repo, ['for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads/gitfleet/']);
  return new Map(
    out
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(' ') as [string, string]),
  );
}

/** Returns the ids of every object in the repository, loose or packed. */
export function allObjects(repo: FleetRepo): Set<string> {
  const out = git(repo, ['cat-file', '--batch-all-objects', '--batch-check=%(objectname)']);
  return new Set(out.split('\n').filter(Boolean));
}

/** Returns the files of a branch: path → content. */
export function branchFiles(repo: FleetRepo, branch: string): Map<string, string> {
  // Two git processes whatever the branch holds: the tree's blobs listed, then all read at once.
  const entries = git(repo, ['ls-tree', '-r', '-z', branch])
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const tab = line.indexOf('\t');
      return { oid: line.slice(0, tab).split(' ')[2]!, path: line.slice(tab + 1) };
    });
  const out = execFileSync('git', ['--git-dir', repo.gitdir, 'cat-file', '--batch'], {
    env: gitEnv,
    input: entries.map((e) => `${e.oid}\n`).join(''),
    maxBuffer: 1 << 30,
  });
  const files = new Map<string, string>();
  let at = 0;
  for (const { path } of entries) {
    const header = out.indexOf(0x0a, at);
    const size = Number(out.subarray(at, header).toString('utf8').split(' ')[2]);
    files.set(path, out.subarray(header + 1, header + 1 + size).toString('utf8'));
    at = header + 1 + size + 1;
  }
  return files;
}

/** Returns what `gitfleet render <work> --ref main` writes: cluster → path → content. */
export async function renderedByCli(repo: FleetRepo): Promise<Map<string, Map<string, string>>> {
  const dir = mkdtempSync(join(tmpdir(), 'gitfleet-hub-render-'));
  made.push(dir);
  const out = join(dir, 'out');
  const result = await runCli(['render', repo.path, '--ref', 'main', '--out', out]);
  if (result.code !== 0) throw new Error(`render failed: ${result.stderr}`);
  const clusters = new Map<string, Map<string, string>>();
  for (const cluster of readdirSync(out)) {
    if (!statSync(join(out, cluster)).isDirectory()) continue;
    clusters.set(cluster, readFiles(join(out, cluster)));
  }
  return clusters;
}

function readFiles(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else files.set(relative(dir, p), readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return new Map([...files].sort((a, b) => (a[0] < b[0] ? -1 : 1)));
}

/** Runs one hub pass on the repository with a fixed identity and time. */
export function hubPass(
  repo: FleetRepo,
  extra: Partial<HubPassOptions> & { cache?: HubPassCache } = {},
): Promise<HubPassResult> {
  return runHubPass({
    repo: localHubRepo(repo.path),
    sourceRef: 'main',
    identity: { name: 'gitfleet', email: 'hub@gitfleet.invalid' },
    now: () => new Date(1_700_000_100_000),
    log: silentLogger(),
    cache: createHubPassCache(),
    ...extra,
  });
}

/** Narrows a pass result to a rendered one, or throws with what it was. */
export function rendered(result: HubPassResult): Extract<HubPassResult, { type: 'rendered' }> {
  if (result.type !== 'rendered') throw new Error(`expected a rendered pass, got ${JSON.stringify(result)}`);
  return result;
}

/** Commits these files as a cluster's first status branch commit, as its agent would (signed with `signer` when given). */
export async function commitStatusBranch(
  repo: FleetRepo,
  cluster: string,
  files: ReadonlyMap<string, string>,
  message = `status of ${cluster}\n`,
  signer?: CommitSigner,
): Promise<void> {
  const blobs = [...files].map(([path, text]) => [path, toGitObject('blob', Buffer.from(text))] as const);
  const tree = buildTreeFromScratch(new Map(blobs.map(([path, blob]) => [path, blob.oid])));
  const who = { name: 'agent', email: 'agent@gitfleet.invalid', time: 1_700_000_200, tzOffsetMinutes: 0 };
  const unsigned = makeCommit({ tree: tree.root, parents: [], author: who, message });
  const commit = signer ? await signCommit(unsigned, signer) : unsigned;
  await writeObjects({
    gitdir: repo.gitdir,
    objects: [...blobs.map(([, b]) => b), ...tree.newObjects, commit],
  });
  await updateRefs({
    gitdir: repo.gitdir,
    updates: [{ ref: `refs/heads/gitfleet/status/${cluster}`, newOid: commit.oid, expectedOld: null }],
  });
}

/**
 * Commits a status report of the cluster whose Ready condition has the given status, as its
 * agent would, about the cluster branch's head (or the given applied commit; null: none yet).
 */
export async function commitReadyReport(
  repo: FleetRepo,
  cluster: string,
  status: 'True' | 'False',
  opts: { appliedCommit?: string | null; kubernetesVersion?: string } = {},
): Promise<void> {
  const appliedCommit =
    opts.appliedCommit !== undefined
      ? opts.appliedCommit
      : git(repo, ['rev-parse', `refs/heads/gitfleet/clusters/${cluster}`]).trim();
  const clusterStatus = {
    conditions: [{ type: 'Ready', status }],
    ...(opts.kubernetesVersion !== undefined ? { kubernetesVersion: opts.kubernetesVersion } : {}),
  };
  await commitStatusBranch(
    repo,
    cluster,
    statusBranchFiles({ cluster, appliedCommit, clusterStatus, objects: [] }),
  );
}

/**
 * Evicts a binding from a cluster in its record on the bindings branch, as Karmada's
 * GracefulEvictCluster leaves it (the cluster out of spec.clusters, the task in
 * spec.gracefulEvictionTasks), in a commit of its own.
 */
export function evictInBindingRecord(repo: FleetRepo, recordPath: string, task: GracefulEvictionTask): void {
  const bindings = 'gitfleet/bindings';
  const record = yaml.load(branchFiles(repo, bindings).get(recordPath)!) as {
    spec: { clusters: { name: string }[]; gracefulEvictionTasks?: unknown[] };
  };
  record.spec.clusters = record.spec.clusters.filter((c) => c.name !== task.fromCluster);
  record.spec.gracefulEvictionTasks = [task];
  const blob = git(repo, ['hash-object', '-w', '--stdin'], { input: emitYaml(record) });
  const env = { GIT_INDEX_FILE: join(mkdtempSync(join(tmpdir(), 'gitfleet-index-')), 'index') };
  git(repo, ['read-tree', bindings], { env });
  git(repo, ['update-index', '--cacheinfo', `100644,${blob},${recordPath}`], { env });
  const tree = git(repo, ['write-tree'], { env });
  const head = git(repo, ['rev-parse', bindings]);
  const commit = git(repo, [
    'commit-tree',
    tree,
    '-p',
    head,
    '-m',
    `evict ${recordPath} from ${task.fromCluster}`,
  ]);
  git(repo, ['update-ref', `refs/heads/${bindings}`, commit, head]);
}

/** Edits the work tree and commits every change on the current branch, signed with the SSH key `signingKey` (a `.pub` file) as `git commit -S` signs, or unsigned; returns the commit. */
export function commitSigned(
  repo: FleetRepo,
  signingKey: string | undefined,
  message: string,
  edit: (work: string) => void = () => undefined,
): string {
  edit(repo.work);
  run(repo.work, ['add', '-A']);
  const sign = signingKey
    ? ['-c', 'gpg.format=ssh', '-c', `user.signingkey=${signingKey}`, 'commit', '-S']
    : ['commit'];
  run(repo.work, [...sign, '-q', '--allow-empty', '-m', message]);
  return run(repo.work, ['rev-parse', 'HEAD']);
}

/** Writes `commit` again carrying the signature of `from`, copied as it is (a forgery); returns the forged commit. */
export function withCopiedSignature(repo: FleetRepo, commit: string, from: string): string {
  const read = (oid: string) => Buffer.from(`${git(repo, ['cat-file', 'commit', oid])}\n`);
  const { signature } = splitSignedCommit(read(from));
  if (signature === undefined) throw new Error(`${from} is not signed: no signature to copy`);
  const forged = addSignature(read(commit), signature);
  return git(repo, ['hash-object', '-t', 'commit', '-w', '--stdin'], {
    input: Buffer.from(forged.content).toString('latin1'),
  });
}
