// Benchmark: the hub pass over a generated fleet (default 2,000 templates × 50 clusters) in a
// real git repository. Not a test: the figures go to the README.
//
//   npx tsc -p tsconfig.json && node build/bench/hub-pass.js [--templates N] [--clusters M] [--json] [--fsck]
//                                                             [--skip-restart]
//
// 1. commit the generated fleet on main with `git fast-import`;
// 2. first pass: every cluster branch and the bindings branch written from nothing;
// 3. incremental pass: one template changed (an image tag), committed with git, pass again
//    with the cache a running hub keeps between passes;
// 4. the same after a restart: another template changed, one pass in a fresh process
//    (`--restart-in GITDIR`) that starts from the hub memo the last pass left
//    (src/loops/hub/hub-memo.ts); then a third template changed, a fresh process again with the
//    memo off (`--no-memo`): a restart as it was before the memo;
// 5. a pass over the same commit (nothing to do);
// (--skip-restart leaves step 4 out: at 1,000 clusters the hub-scale scenario times the first and
// the warm incremental pass, and a second full render would only double its run time)
// with each pass's phases and the process's peak RSS. With --rollout, a ClusterRolloutStrategy
// selecting every Deployment (the first 5 clusters, then the rest) is committed after the first
// pass, so the incremental passes also run the rollout stage: each bump starts a rollout. With
// --admission N, N ValidatingAdmissionPolicies (bench/admission-policies.ts) are committed with
// the fleet: the first pass checks every object, the incremental ones what changed.
// First, as in bin/gitfleet.js: the hub's thread pool size.
import '../src/cli/size-thread-pool.js';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { SourceFile } from '../src/core/load/load-fleet.js';
import { createHubPassCache, type HubPassCache } from '../src/loops/hub/hub-pass-cache.js';
import { runHubPass } from '../src/loops/hub/hub-pass.js';
import { saveHubMemo } from '../src/loops/hub/hub-memo.js';
import { hubMemoPath } from '../src/loops/hub/hub-memo-file.js';
import type { HubPassResult } from '../src/loops/hub/hub-pass-result.js';
import { localHubRepo } from '../src/adapters/remote/hub-repo.js';
import { silentLogger, type Logger } from '../src/loops/runtime/logger.js';
import { admissionPolicies } from './admission-policies.js';
import { generateFleet } from './generate-fleet.js';
import { fastImportStream } from './lib/fast-import-stream.js';

const { values } = parseArgs({
  options: {
    templates: { type: 'string', default: '2000' },
    clusters: { type: 'string', default: '50' },
    json: { type: 'boolean', default: false },
    fsck: { type: 'boolean', default: false },
    rollout: { type: 'boolean', default: false },
    admission: { type: 'string', default: '0' },
    'skip-restart': { type: 'boolean', default: false },
    /** Run one pass over this repository with a cold cache, print its figures, and exit. */
    'restart-in': { type: 'string' },
    /** Neither read nor write the hub memo. */
    'no-memo': { type: 'boolean', default: false },
    /** Print the passes' log lines (the hub memo's, among others) on stderr. */
    verbose: { type: 'boolean', default: false },
  },
});
const shape = { templates: Number(values.templates), clusters: Number(values.clusters) };
const restartIn = values['restart-in'];
const dir = restartIn ? undefined : mkdtempSync(join(tmpdir(), 'gitfleet-bench-hub-'));
const gitdir = restartIn ?? join(dir!, 'fleet.git');
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
const git = (args: string[], input?: string) =>
  execFileSync('git', ['--git-dir', gitdir, ...args], {
    env,
    input: input ?? '',
    maxBuffer: 1 << 28,
  }).toString();

/** Commits the files on main (on top of the current main when there is one) with git fast-import. */
function commitFiles(files: readonly SourceFile[], message: string, parent: boolean): void {
  git(['fast-import', '--quiet'], fastImportStream(files, message, parent));
}

/** Returns the file with one Deployment's image tag bumped. */
function bumpImage(files: readonly SourceFile[], app: number): SourceFile {
  const file = files.find((f) => f.path === `apps/app${app}/templates.yaml`)!;
  const content = file.content.replace(`/app${app}/svc0:1.0.0`, `/app${app}/svc0:1.0.1`);
  if (content === file.content) throw new Error(`no image to bump in ${file.path}`);
  return { path: file.path, content };
}

/** A ClusterRolloutStrategy for every Deployment: the first 5 clusters, then the others. */
function rolloutStrategy(clusters: number): SourceFile {
  const first = Array.from({ length: Math.min(5, clusters) }, (_, i) => `member${i}`);
  return {
    path: 'policies/rollout.yaml',
    content: [
      'apiVersion: gitfleet.io/v1alpha1',
      'kind: ClusterRolloutStrategy',
      'metadata: {name: deployments}',
      'spec:',
      '  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]',
      '  steps:',
      `  - clusters: {clusterNames: [${first.join(', ')}]}`,
      '  - clusters: {}',
      '',
    ].join('\n'),
  };
}

const stderrLogger: Logger = {
  info: (m) => console.error(`info: ${m}`),
  warn: (m) => console.error(`warn: ${m}`),
  error: (m) => console.error(`error: ${m}`),
};

async function pass(cache: HubPassCache): Promise<HubPassResult> {
  return runHubPass({
    // The memo is written by timedPass, after the pass, to time it on its own.
    persistMemo: values['no-memo'] ? false : 'readOnly',
    repo: localHubRepo(gitdir),
    sourceRef: 'main',
    identity: { name: 'gitfleet', email: 'hub@gitfleet.invalid' },
    now: () => new Date(1_700_000_000_000),
    log: values.verbose ? stderrLogger : silentLogger(),
    cache,
  });
}

/**
 * Returns a pass's figures, with the process's CPU time (user + system) during it, and what
 * writing the hub memo after it cost (wall and CPU), as a running hub writes it.
 */
async function timedPass(cache: HubPassCache) {
  const cpu = process.cpuUsage();
  const result = await pass(cache);
  const used = process.cpuUsage(cpu);
  // No restart to measure (--skip-restart): no memo to write.
  const keep = result.type === 'rendered' && !values['no-memo'] && !values['skip-restart'];
  const memo = keep ? await timedMemoWrite(cache) : {};
  const written = result.type === 'rendered' ? result.written : undefined;
  const updated =
    result.type === 'rendered'
      ? Object.values(result.clusters).filter((c) => c.type === 'updated').length
      : 0;
  const cpuMs = Math.round((used.user + used.system) / 1000);
  return { type: result.type, ...result.timings, cpuMs, ...memo, ...written, clustersUpdated: updated };
}

async function timedMemoWrite(
  cache: HubPassCache,
): Promise<{ memoMs: number; memoCpuMs: number; memoMiB: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await saveHubMemo(cache, {
    gitdir,
    prefix: 'gitfleet/',
    log: values.verbose ? stderrLogger : silentLogger(),
  });
  const used = process.cpuUsage(cpu);
  return {
    memoMs: Math.round(performance.now() - start),
    memoCpuMs: Math.round((used.user + used.system) / 1000),
    memoMiB: Math.round((statSync(hubMemoPath(gitdir)).size / 2 ** 20) * 10) / 10,
  };
}

type Figures = Awaited<ReturnType<typeof timedPass>>;

/** Returns the figures of one pass with a cold cache in a fresh process (a hub just started). */
function passInFreshProcess(memo: boolean): Figures {
  const args = [process.argv[1]!, '--restart-in', gitdir, ...(memo ? [] : ['--no-memo'])];
  const out = execFileSync(process.execPath, [...args, ...(values.verbose ? ['--verbose'] : [])], {
    env,
    maxBuffer: 1 << 24,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out.toString()) as Figures;
}

if (restartIn) {
  console.log(JSON.stringify(await timedPass(createHubPassCache())));
  process.exit(0);
}

try {
  execFileSync('git', ['init', '-q', '--bare', gitdir], { env });
  const files = generateFleet(shape);
  commitFiles([...files, ...admissionPolicies(Number(values.admission))], 'generated fleet', false);
  const cache = createHubPassCache();
  const first = await timedPass(cache);
  // What the running hub holds after its first pass (its cache included): memory per cluster.
  const heapAfterFirstMiB = Math.round(process.memoryUsage().heapUsed / 2 ** 20);
  if (values.rollout) {
    commitFiles([rolloutStrategy(shape.clusters)], 'roll out every Deployment in two steps', true);
    const added = await pass(cache);
    if (added.type !== 'rendered') throw new Error(`the strategy's pass: ${added.type}`);
  }
  commitFiles([bumpImage(files, 0)], 'bump app0/svc0', true);
  const incremental = await timedPass(cache);
  let afterRestart: Figures | null = null;
  let afterRestartNoMemo: Figures | null = null;
  if (!values['skip-restart']) {
    commitFiles([bumpImage(files, 1)], 'bump app1/svc0', true);
    afterRestart = passInFreshProcess(!values['no-memo']);
    commitFiles([bumpImage(files, 2)], 'bump app2/svc0', true);
    afterRestartNoMemo = passInFreshProcess(false);
  }
  const noop = await timedPass(cache);
  if (values.fsck) git(['fsck', '--strict', '--no-dangling']);
  const report = {
    scenario: values.rollout ? 'hub pass with a rollout strategy' : 'hub pass',
    parameters: { ...shape, admissionPolicies: Number(values.admission) },
    first,
    incremental,
    incrementalAfterRestart: afterRestart,
    incrementalAfterRestartNoMemo: afterRestartNoMemo,
    noop,
    speedup: Math.round((first.totalMs / incremental.totalMs) * 10) / 10,
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    heapAfterFirstMiB,
    repoSize: git(['count-objects', '-vH']).match(/size-pack: (.*)/)?.[1],
  };
  console.log(values.json ? JSON.stringify(report) : report);
} finally {
  rmSync(dir!, { recursive: true, force: true });
}
