// The soak benchmark's worker (bench/soak.ts runs it in a fresh process): a hub that runs for a
// long time over the generated fleet, one change per pass, with the repository maintenance the
// hub runs between passes (src/loops/runtime/repo-maintenance.ts).
//
//   npx tsc -p tsconfig.json && node build/bench/soak-passes.js [--passes N] [--templates N] [--clusters M]
//
// 1. commit the generated fleet on main with `git fast-import` and make the first pass;
// 2. N times: change one Deployment's image tag (a different one each time), commit it, pass
//    with the running hub's cache, then the maintenance check; the maintenance sees a clock that
//    moves one minute per pass (a hub with a push a minute), so its interval is met as it would
//    be in a real run and the figures show what the repack costs; RSS, memory and the caches'
//    sizes are taken every 500 passes;
// 3. `git fsck --strict` at the end.
// Progress (one line per 100 passes) goes to stderr; the report is one JSON document on stdout.
// First, as in bin/gitfleet.js: the hub's thread pool size.
import '../src/cli/size-thread-pool.js';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cachedPackCount, cachedReaderBytes } from '../src/adapters/git/forget-removed-packs.js';
import { openPackHandleCount } from '../src/adapters/git/pack-file-handles.js';
import { listLooseObjects, listPacks } from '../src/adapters/git/list-packs.js';
import type { SourceFile } from '../src/core/load/load-fleet.js';
import { createHubPassCache, type HubPassCache } from '../src/loops/hub/hub-pass-cache.js';
import { runHubPass } from '../src/loops/hub/hub-pass.js';
import { defaultMaintenanceSettings, repoMaintenance } from '../src/loops/runtime/repo-maintenance.js';
import type { Clock } from '../src/loops/runtime/clock.js';
import { silentLogger } from '../src/loops/runtime/logger.js';
import { localHubRepo } from '../src/adapters/remote/hub-repo.js';
import { generateFleet } from './generate-fleet.js';
import { median } from './lib/stats.js';
import { fastImportStream } from './lib/fast-import-stream.js';

const { values } = parseArgs({
  options: {
    passes: { type: 'string', default: '2000' },
    templates: { type: 'string', default: '2000' },
    clusters: { type: 'string', default: '50' },
    'no-maintenance': { type: 'boolean', default: false },
  },
});
const passes = Number(values.passes);
const shape = { templates: Number(values.templates), clusters: Number(values.clusters) };
const apps = 10;
const dir = mkdtempSync(join(tmpdir(), 'gitfleet-bench-soak-'));
const gitdir = join(dir, 'fleet.git');
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
const git = (args: string[], input?: string) =>
  execFileSync('git', ['--git-dir', gitdir, ...args], {
    env,
    input: input ?? '',
    maxBuffer: 1 << 28,
  }).toString();
const log = (line: string) => process.stderr.write(`soak: ${line}\n`);

/** Commits the files on main with git fast-import. */
function commitFiles(files: readonly SourceFile[], message: string, parent: boolean): void {
  git(['fast-import', '--quiet'], fastImportStream(files, message, parent));
}

/** The nth change: a new image tag for one Deployment, a different one from pass to pass. */
function change(files: Map<string, string>, n: number): SourceFile {
  const app = n % apps;
  const path = `apps/app${app}/templates.yaml`;
  const text = files.get(path)!;
  const units = Math.max(1, Math.floor((shape.templates / apps - 1) / 3));
  const unit = Math.floor(n / apps) % units;
  const image = new RegExp(`(/app${app}/svc${unit}:)[0-9.]+\\n`);
  if (!image.test(text)) throw new Error(`no image of svc${unit} in ${path}`);
  const content = text.replace(image, `$1${2 + Math.floor(n / (apps * units))}.0.${n}\n`);
  files.set(path, content);
  return { path, content };
}

/** One minute per call to `tick`: the maintenance's view of time. */
function passClock(): Clock & { tick(): void } {
  let now = 1_700_000_000_000;
  return { now: () => now, setTimer: () => () => undefined, tick: () => void (now += 60_000) };
}

/** Collects garbage first when node runs with --expose-gc, so the figures show what is held, not what is yet to be freed. */
function collect(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

const rssMiB = () => {
  collect();
  return Math.round(process.memoryUsage().rss / 1024 / 1024);
};

/** Where the memory is: the JS heap, and buffers outside it (the loaded packs). */
function memoryMiB(): Record<string, number> {
  collect();
  const m = process.memoryUsage();
  const mib = (n: number) => Math.round(n / 1024 / 1024);
  return {
    rss: mib(m.rss),
    heapUsed: mib(m.heapUsed),
    external: mib(m.external),
    arrayBuffers: mib(m.arrayBuffers),
  };
}

function memoryLine(): string {
  const m = memoryMiB();
  return `RSS ${m.rss} MiB (heap ${m.heapUsed}, external ${m.external}, array buffers ${m.arrayBuffers})`;
}

function cacheSizes(cache: HubPassCache): Record<string, number> {
  return {
    commits: cache.commits.size,
    treeEntries: cache.treeEntries.size,
    treeFiles: cache.treeFiles.size,
    renderedTexts: [...cache.renderedTexts.values()].reduce((n, m) => n + m.size, 0),
    recordTexts: cache.recordTexts.size,
    branches: cache.branches.size,
    records: cache.records.size,
    reports: cache.reports.size,
    sourceBlobs: cache.sourceBlobs.size,
    sourceTexts: cache.sourceTexts.size,
    packIndexes: cachedPackCount(cache.packs),
    ...cachedReaderBytes(cache.packs),
    openPackFiles: openPackHandleCount(),
  };
}

function stats(ms: readonly number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  const p90 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.9) - 1)] ?? Number.NaN;
  return {
    medianMs: Math.round(median(sorted)),
    p90Ms: Math.round(p90),
    minMs: Math.round(sorted[0] ?? NaN),
    maxMs: Math.round(sorted.at(-1) ?? NaN),
  };
}

try {
  execFileSync('git', ['init', '-q', '--bare', gitdir], { env });
  const generated = generateFleet({ ...shape, apps });
  const files = new Map(generated.map((f) => [f.path, f.content]));
  commitFiles(generated, 'generated fleet', false);
  const cache = createHubPassCache();
  const clock = passClock();
  const maintenance = repoMaintenance({
    gitdir,
    clock,
    log: silentLogger(),
    packCache: cache.packs,
    elapsed: () => performance.now(),
  });
  const pass = async (): Promise<number> => {
    const began = performance.now();
    const result = await runHubPass({
      repo: localHubRepo(gitdir),
      sourceRef: 'main',
      identity: { name: 'gitfleet', email: 'hub@gitfleet.invalid' },
      now: () => new Date(clock.now()),
      log: silentLogger(),
      cache,
    });
    if (result.type !== 'rendered') throw new Error(`pass: ${result.type}`);
    return performance.now() - began;
  };
  const firstMs = await pass();
  const began = performance.now();
  const passMs: number[] = [];
  const repacks: { pass: number; ms: number; folded: number; objects: number }[] = [];
  const packCounts: { pass: number; packs: number }[] = [];
  const rss: Record<string, number> = { afterFirstPass: rssMiB() };
  const caches: Record<string, Record<string, number>> = {};
  const memory: Record<string, Record<string, number>> = { afterFirstPass: memoryMiB() };
  let maxPacks = 0;
  for (let n = 0; n < passes; n++) {
    commitFiles([change(files, n)], `change ${n}`, true);
    passMs.push(await pass());
    clock.tick();
    if (!values['no-maintenance']) {
      const outcome = await maintenance.afterPass();
      if (outcome.type === 'failed') throw outcome.error;
      if (outcome.type === 'ran' && outcome.result.type === 'repacked') {
        repacks.push({
          pass: n + 1,
          ms: outcome.ms,
          folded: outcome.result.folded.length,
          objects: outcome.result.objects,
        });
      }
    }
    const packs = (await listPacks(gitdir)).length;
    maxPacks = Math.max(maxPacks, packs);
    if ((n + 1) % 100 === 0 || n === 0) {
      packCounts.push({ pass: n + 1, packs });
      const last = stats(passMs.slice(-100));
      const rate = (n + 1) / ((performance.now() - began) / 1000);
      log(
        `${n + 1}/${passes} passes; last 100: median ${last.medianMs} ms, p90 ${last.p90Ms} ms; ` +
          `${packs} packs (max ${maxPacks}), ${repacks.length} repacks; ${memoryLine()}; ${rate.toFixed(2)} passes/s`,
      );
    }
    if ((n + 1) % 500 === 0) {
      rss[`pass${n + 1}`] = rssMiB();
      memory[`pass${n + 1}`] = memoryMiB();
      caches[`pass${n + 1}`] = cacheSizes(cache);
    }
    if (n + 1 === Math.floor(passes / 2)) {
      rss.middle = rssMiB();
      caches.middle = cacheSizes(cache);
      memory.middle = memoryMiB();
    }
  }
  rss.end = rssMiB();
  caches.end = cacheSizes(cache);
  memory.end = memoryMiB();
  const fsckBegan = performance.now();
  let fsck = 'clean';
  try {
    git(['fsck', '--strict', '--no-dangling']);
  } catch (error) {
    fsck = String((error as { stderr?: Buffer }).stderr ?? error).slice(0, 2000);
  }
  const repackMs = repacks.map((r) => r.ms);
  const report = {
    parameters: {
      passes,
      ...shape,
      maintenance: values['no-maintenance'] ? 'off' : defaultMaintenanceSettings,
      clockPerPass: '60 s',
    },
    firstPassMs: Math.round(firstMs),
    first100: stats(passMs.slice(0, 100)),
    last100: stats(passMs.slice(-100)),
    all: stats(passMs),
    rssMiB: { ...rss, peak: Math.round(process.resourceUsage().maxRSS / 1024) },
    memoryMiB: memory,
    caches,
    packs: { max: maxPacks, end: (await listPacks(gitdir)).length, over: packCounts },
    looseObjectsAtEnd: (await listLooseObjects(gitdir)).length,
    repacks: {
      count: repacks.length,
      ...(repacks.length > 0 ? stats(repackMs) : {}),
      totalMs: Math.round(repackMs.reduce((a, b) => a + b, 0)),
      largest: [...repacks].sort((a, b) => b.objects - a.objects).slice(0, 3),
    },
    fsck,
    fsckMs: Math.round(performance.now() - fsckBegan),
    wallS: Math.round((performance.now() - began) / 1000),
    repoSize: git(['count-objects', '-vH']).match(/size-pack: (.*)/)?.[1],
  };
  console.log(JSON.stringify(report));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
