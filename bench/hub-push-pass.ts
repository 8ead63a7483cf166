// Benchmark: the hub's pass over a source push that moves every cluster branch (issue 28), at the
// budget scenario's fleet shape: one ConfigMap on every cluster, the clusters pinned round-robin
// to render repositories (bench/lib/budget-fleet.ts), each render repository a bare repository on
// a local path (no network: what is timed is the hub's own work, the pushes' round trips aside);
// with --served, each served by git's smart-HTTP server in a process of its own and published
// as the hub publishes a URL (its mirror, the copy and the push: what the pass costs the hub
// behind a forge, and what the server's git processes spent beside it on the same cores). Not
// a test: the figures go to the README and docs/git-budget.md#measured.
//
//   npx tsc -p tsconfig.json && node build/bench/hub-push-pass.js [--clusters N] [--render-repositories R]
//                                                                  [--pushes P] [--served] [--json] [--fsck]
//                                                                  [--profile FILE]
//
// 1. commit the fleet on main with `git fast-import`; a first pass writes every branch;
// 2. P times: a source push changes the ConfigMap's value (every branch moves), then one pass
//    with the cache a running hub keeps; its phases, wall and CPU time (user + system) are kept;
// 3. a pass over the same commit (nothing to do).
// The median of the P pushes' passes is the figure; --profile writes a CPU profile of the P push
// passes alone (not the setup, the first pass or the maintenance after each), for DevTools or
// any .cpuprofile reader.
import '../src/cli/size-thread-pool.js';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Session, type Profiler } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { createHubPassCache, type HubPassCache } from '../src/loops/hub/hub-pass-cache.js';
import { runHubPass } from '../src/loops/hub/hub-pass.js';
import { RenderRepositories } from '../src/loops/hub/render-repositories.js';
import { StatusRepositories } from '../src/loops/hub/status-repositories.js';
import { localHubRepo } from '../src/adapters/remote/hub-repo.js';
import { silentLogger } from '../src/loops/runtime/logger.js';
import { systemClock } from '../src/loops/runtime/clock.js';
import { hubRenderRepositories } from '../src/cli/commands/hub-render-repos.js';
import type { RepoMaintenance } from '../src/loops/runtime/repo-maintenance.js';
import { budgetFleetFiles, clusterNames } from './lib/budget-fleet.js';
import { fastImportStream } from './lib/fast-import-stream.js';
import { processCpu } from './lib/cpu-split.js';

const { values } = parseArgs({
  options: {
    clusters: { type: 'string', default: '100' },
    'render-repositories': { type: 'string', default: '9' },
    'status-repositories': { type: 'string', default: '13' },
    pushes: { type: 'string', default: '5' },
    json: { type: 'boolean', default: false },
    served: { type: 'boolean', default: false },
    fsck: { type: 'boolean', default: false },
    profile: { type: 'string' },
  },
});
const shape = {
  clusters: Number(values.clusters),
  renderRepositories: Number(values['render-repositories']),
  statusRepositories: Number(values['status-repositories']),
  pushes: Number(values.pushes),
};
const dir = mkdtempSync(join(tmpdir(), 'gitfleet-bench-hub-push-'));
const gitdir = join(dir, 'fleet.git');
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
const git = (gd: string, args: string[], input?: string) =>
  execFileSync('git', ['--git-dir', gd, ...args], { env, input: input ?? '', maxBuffer: 1 << 28 }).toString();
const repoDirs = (kind: string, count: number) =>
  Array.from({ length: count }, (_, k) => join(dir, `${kind}-${k + 1}.git`));
const renderDirs = repoDirs('render', shape.renderRepositories);
// --served: the render repositories behind git's HTTP server, each published through a mirror.
const server = values.served ? await serveRenderRepositories() : undefined;
const renderUrls = server ? renderDirs.map((d) => server.url(d)) : renderDirs;

/** Starts bench/lib/serve-git.js on the bench's directory; returns the URL of a repository there and a stop. */
async function serveRenderRepositories() {
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL('./lib/serve-git.js', import.meta.url)), dir],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const [first] = (await once(child.stdout!, 'data')) as [Buffer];
  const base = first.toString().trim();
  return {
    url: (gitdir: string) => `${base}${gitdir.slice(dir.length + 1)}`,
    pid: child.pid!,
    stop: () => void child.kill('SIGTERM'),
  };
}
const statusDirs = repoDirs('status', shape.statusRepositories);

/** Commits the fleet with the ConfigMap at `value` on main, on top of main when `parent`. */
function commitFleet(value: string, parent: boolean): void {
  const files = budgetFleetFiles({
    clusters: clusterNames(shape.clusters),
    statusUrls: statusDirs,
    renderUrls,
    value,
  });
  const source = Object.entries(files).map(([path, content]) => ({ path, content }));
  git(gitdir, ['fast-import', '--quiet'], fastImportStream(source, `set the value to ${value}`, parent));
}

const served = server
  ? await hubRenderRepositories(
      // The github profile's --interval: a mirror's read stands that long, as in the hub.
      { cacheDir: join(dir, 'cache'), intervalMs: 60_000 },
      { log: silentLogger(), clock: systemClock() },
    )
  : undefined;
const renderRepositories =
  served?.repositories ?? new RenderRepositories({ open: localHubRepo, log: silentLogger() });
const maintenance: RepoMaintenance | undefined = served?.maintenance;
const statusRepositories = new StatusRepositories({
  open: localHubRepo,
  branchPrefix: () => 'gitfleet/',
  log: silentLogger(),
});
let clock = 1_700_000_000_000;

/** Returns one pass's type, phases, wall and CPU time, and how many branches it moved. */
async function timedPass(cache: HubPassCache) {
  const cpu = process.cpuUsage();
  const forge = server ? processCpu(server.pid) : undefined;
  const result = await runHubPass({
    persistMemo: false,
    repo: localHubRepo(gitdir),
    sourceRef: 'main',
    identity: { name: 'gitfleet', email: 'hub@gitfleet.invalid' },
    // A second a pass: each pass's commits are new ones.
    now: () => new Date((clock += 1000)),
    log: silentLogger(),
    cache,
    renderRepositories,
    statusRepositories,
  });
  const used = process.cpuUsage(cpu);
  const forgeAfter = server ? processCpu(server.pid) : undefined;
  const moved =
    result.type === 'rendered'
      ? Object.values(result.clusters).filter((c) => c.type === 'updated').length
      : 0;
  const objects = result.type === 'rendered' ? result.written.objects : 0;
  return {
    type: result.type,
    ...result.timings,
    cpuMs: Math.round((used.user + used.system) / 1000),
    // --served: the server's git processes (ended children: each push's http-backend,
    // receive-pack and what they start) and its HTTP side, on the same cores as the hub.
    ...(forge && forgeAfter
      ? {
          forgeGitCpuMs: Math.round((forgeAfter.children - forge.children) * 1000),
          forgeHttpCpuMs: Math.round((forgeAfter.own - forge.own) * 1000),
        }
      : {}),
    moved,
    objects,
  };
}

type CpuProfile = Profiler.Profile;
const profiles: CpuProfile[] = [];

/** Returns the passes' profiles as one: each pass's tree under one root, node ids renumbered apart. */
function joinProfiles(parts: readonly CpuProfile[]): CpuProfile {
  const root = { id: 1, callFrame: parts[0]?.nodes[0]?.callFrame, children: [] as number[] };
  const joined = {
    nodes: [root] as Profiler.ProfileNode[],
    samples: [] as number[],
    timeDeltas: [] as number[],
    startTime: 0,
    endTime: 0,
  };
  let offset = 1;
  for (const part of parts) {
    const shift = (id: number) => id + offset;
    joined.nodes.push(
      ...part.nodes.map((n) => ({ ...n, id: shift(n.id), children: n.children?.map(shift) })),
    );
    root.children.push(shift(part.nodes[0]!.id));
    joined.samples.push(...(part.samples ?? []).map(shift));
    joined.timeDeltas.push(...(part.timeDeltas ?? []).map((d, i) => (i === 0 ? 0 : d)));
    joined.endTime += part.endTime - part.startTime;
    offset += Math.max(...part.nodes.map((n) => n.id));
  }
  return joined;
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  mkdirSync(dir, { recursive: true });
  git(gitdir, ['init', '-q', '--bare']);
  for (const d of [...renderDirs, ...statusDirs]) git(d, ['init', '-q', '--bare']);
  for (const d of renderDirs) git(d, ['config', 'http.receivepack', 'true']);
  commitFleet('v0', false);
  const cache = createHubPassCache();
  const first = await timedPass(cache);
  await maintenance?.afterPass();
  const pushes = [];
  const profiler = values.profile ? new Session() : undefined;
  profiler?.connect();
  await profiler?.post('Profiler.enable');
  for (let p = 1; p <= shape.pushes; p++) {
    commitFleet(`v${p}`, true);
    await profiler?.post('Profiler.start');
    const pass = await timedPass(cache);
    await profiler?.post('Profiler.stop').then(({ profile }) => profiles.push(profile));
    await maintenance?.afterPass();
    if (pass.type !== 'rendered' || pass.moved !== shape.clusters)
      throw new Error(
        `push ${p}: the pass was ${pass.type} and moved ${pass.moved} of ${shape.clusters} branches`,
      );
    pushes.push(pass);
  }
  if (values.profile) writeFileSync(values.profile, JSON.stringify(joinProfiles(profiles)));
  const noop = await timedPass(cache);
  if (values.fsck) for (const d of [gitdir, ...renderDirs]) git(d, ['fsck', '--strict', '--no-dangling']);
  const report = {
    scenario: 'hub pass over a source push that moves every branch',
    parameters: shape,
    first,
    push: {
      medianMs: median(pushes.map((p) => p.totalMs)),
      medianCpuMs: median(pushes.map((p) => p.cpuMs)),
      ...(server ? { medianForgeGitCpuMs: median(pushes.map((p) => p.forgeGitCpuMs ?? 0)) } : {}),
    },
    pushes,
    noop,
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
  };
  console.log(values.json ? JSON.stringify(report) : report);
} finally {
  server?.stop();
  rmSync(dir, { recursive: true, force: true });
}
