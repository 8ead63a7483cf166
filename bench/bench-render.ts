// Scenario render: `gitfleet render` of a generated fleet against the same per-cluster output
// built the way users do without gitfleet, one kustomize overlay per cluster, `kustomize build`
// for each, sequentially as a CI job would (kustomize-tree.ts describes the overlays).
//
// kustomize's time grows faster than linearly with the resources of one build (kustomize
// issue #5084: ~45 s for 4,000 resources), so one overlay of 2,000 resources takes tens of
// seconds and all 50 would take most of an hour per repetition. By default each repetition
// therefore builds a rotating sample of the overlays and scales the sample's time to all of
// them (every overlay has the same 2,000 resources); `--all-overlays` builds every one.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateFleet } from './generate-fleet.js';
import {
  compareOutputs,
  readRenderedCluster,
  summarizeChecks,
  type OutputComparison,
} from './kustomize-compare.js';
import { prepareKustomizeFleet, type KustomizeFleet as Prepared } from './kustomize-fleet.js';
import { alternate, type Contender, type Sample } from './lib/alternate.js';
import { findKustomize, type Kustomize } from './lib/find-kustomize.js';
import {
  ratioOf,
  skipped,
  type ContenderResult,
  type Scenario,
  type ScenarioOptions,
  type ScenarioReport,
} from './lib/report.js';
import { runTimed } from './lib/run-timed.js';
import { withScratchDir } from './lib/scratch-dir.js';
import { median } from './lib/stats.js';

const gitfleetBin = fileURLToPath(new URL('../../bin/gitfleet.js', import.meta.url));
const renderBench = fileURLToPath(new URL('./render.js', import.meta.url));
/** The fairness sample: small enough to read, with an edge cluster and a cluster without Deployments. */
const sampleShape = { templates: 20, clusters: 4, apps: 2 };

/** Options of the render scenario beyond the common ones. */
export interface RenderScenarioOptions extends ScenarioOptions {
  /** Build every overlay in every repetition instead of a sample. */
  allOverlays: boolean;
}

/** The render scenario: gitfleet render against kustomize build of one overlay per cluster. */
export const renderScenario: Scenario = {
  name: 'render',
  summary: 'gitfleet render vs kustomize build of one overlay per cluster',
  run: (opts) => runRenderScenario({ allOverlays: false, ...opts }),
};

/** Returns the render scenario's report. */
export async function runRenderScenario(opts: RenderScenarioOptions): Promise<ScenarioReport> {
  const shape = opts.quick ? { templates: 200, clusters: 5 } : { templates: 2000, clusters: 50 };
  const kustomize = findKustomize();
  if (kustomize === null) {
    return skipped(
      'render',
      'no kustomize: run test/clusters/build.sh (kubectl) or put kustomize on PATH',
      shape,
    );
  }
  return withScratchDir('render', (dir) => measureRender({ opts, shape, kustomize, dir }));
}

async function measureRender(m: {
  opts: RenderScenarioOptions;
  shape: { templates: number; clusters: number };
  kustomize: Kustomize;
  dir: string;
}): Promise<ScenarioReport> {
  const { opts, shape, kustomize } = m;
  const check = await sampleCheck(kustomize, join(m.dir, 'sample'), opts.log);
  const prepared = prepareKustomizeFleet(join(m.dir, 'fleet'), generateFleet(shape));
  const perRun = opts.allOverlays || opts.quick ? shape.clusters : 1;
  opts.log(
    `render: ${shape.templates} templates x ${shape.clusters} clusters (${prepared.objects} objects); ` +
      `kustomize: ${perRun} of ${shape.clusters} overlays per run with ${kustomize.label}`,
  );
  const outputs = join(m.dir, 'out');
  const perOverlay: number[] = [];
  const contenders = [
    gitfleetCli(prepared.fleetDir, outputs),
    gitfleetInMemory(shape),
    kustomizeBuilds({ kustomize, prepared, perRun, outputs, perOverlay }),
  ];
  const results = await alternate({ contenders, runs: opts.runs, log: opts.log });
  const fullSize = compareRuns({ prepared, outputs, perRun, runs: opts.runs });
  return renderReport({
    opts,
    shape,
    kustomize,
    prepared,
    perRun,
    results,
    perOverlay,
    checks: [check, fullSize],
  });
}

function renderReport(r: {
  opts: RenderScenarioOptions;
  shape: { templates: number; clusters: number };
  kustomize: Kustomize;
  prepared: Prepared;
  perRun: number;
  results: ContenderResult[];
  perOverlay: number[];
  checks: [sample: OutputComparison[], fullSize: OutputComparison[]];
}): ScenarioReport {
  const [cli, memory, kz] = r.results as [ContenderResult, ContenderResult, ContenderResult];
  const { clusters } = r.shape;
  const note = `kustomize: ${r.perRun} of ${clusters} overlays built per run (rotating), time x${clusters / r.perRun}; --all-overlays builds all`;
  return {
    scenario: 'render',
    status: 'ran',
    ...(r.perRun < clusters ? { note } : {}),
    parameters: {
      ...r.shape,
      objects: r.prepared.objects,
      overlaysPerRun: r.perRun,
      kustomize: r.kustomize.label,
    },
    contenders: r.results,
    ratios: [
      ratioOf({ label: 'render', gitfleet: cli, alternative: kz, ...(r.opts.quick ? {} : { atLeast: 20 }) }),
      ratioOf({ label: 'render, in memory (no files written)', gitfleet: memory, alternative: kz }),
    ],
    details: {
      kustomizeMsPerOverlay: Math.round(median(r.perOverlay)),
      sameObjects: { sample: summarizeChecks(r.checks[0]), fullSize: summarizeChecks(r.checks[1]) },
    },
  };
}

function gitfleetCli(fleetDir: string, outputs: string): Contender {
  return {
    name: 'gitfleet render (CLI, all clusters to a directory)',
    side: 'gitfleet',
    note: 'node bin/gitfleet.js render FLEET --out DIR into an empty DIR: read, load, render, write every file',
    run: async (rep) => {
      const out = join(outputs, `gitfleet-${rep}`);
      const run = await runTimed({
        command: process.execPath,
        args: [gitfleetBin, 'render', fleetDir, '--out', out, '--output', 'json'],
      });
      if (rep > 0) rmSync(out, { recursive: true, force: true });
      return run;
    },
  };
}

function gitfleetInMemory(shape: { templates: number; clusters: number }): Contender {
  return {
    name: 'gitfleet load + render in memory',
    side: 'gitfleet',
    note: 'bench/render.js in a fresh process: load and render only, no files read or written',
    run: async () => {
      const run = await runTimed({
        command: process.execPath,
        args: [
          renderBench,
          '--templates',
          `${shape.templates}`,
          '--clusters',
          `${shape.clusters}`,
          '--runs',
          '1',
          '--json',
        ],
      });
      const report = JSON.parse(run.stdout) as { totalMs: number };
      return { ms: report.totalMs, peakRssMiB: run.peakRssMiB };
    },
  };
}

function kustomizeBuilds(opts: {
  kustomize: Kustomize;
  prepared: Prepared;
  perRun: number;
  outputs: string;
  perOverlay: number[];
}): Contender {
  const { overlays } = opts.prepared;
  const scale = overlays.length / opts.perRun;
  return {
    name: `kustomize build, one overlay per cluster${scale > 1 ? ' (scaled from a sample)' : ''}`,
    side: 'alternative',
    note: `${opts.kustomize.label}, one process per overlay, sequentially, output to a file each`,
    run: async (rep): Promise<Sample> => {
      const out = join(opts.outputs, `kustomize-${rep}`);
      mkdirSync(out, { recursive: true });
      let ms = 0;
      let peak = 0;
      for (const [cluster, dir] of sampleOf(overlays, rep, opts.perRun)) {
        const run = await runTimed({
          command: opts.kustomize.command,
          args: [...opts.kustomize.args, dir],
          stdoutFile: join(out, `${cluster}.yaml`),
        });
        opts.perOverlay.push(run.ms);
        ms += run.ms;
        peak = Math.max(peak, run.peakRssMiB ?? 0);
      }
      return { ms: ms * scale, peakRssMiB: peak || null };
    },
  };
}

// Repetition r builds overlays r·k+2 … r·k+k+1 (member2, then member3, a tier=edge cluster, …).
function sampleOf<T>(overlays: readonly T[], rep: number, perRun: number): T[] {
  if (perRun >= overlays.length) return [...overlays];
  return Array.from({ length: perRun }, (_, j) => overlays[(rep * perRun + j + 1) % overlays.length]!);
}

/** Compares every overlay kustomize built with gitfleet's first output for the same cluster. */
function compareRuns(opts: {
  prepared: Prepared;
  outputs: string;
  perRun: number;
  runs: number;
}): OutputComparison[] {
  const built = new Map<string, string>();
  for (let rep = 0; rep < opts.runs; rep++) {
    for (const [cluster] of sampleOf(opts.prepared.overlays, rep, opts.perRun)) {
      built.set(cluster, join(opts.outputs, `kustomize-${rep}`, `${cluster}.yaml`));
    }
  }
  return [...built].map(([cluster, file]) =>
    compareOutputs({
      cluster,
      gitfleet: readRenderedCluster(join(opts.outputs, 'gitfleet-0', cluster)),
      kustomize: readFileSync(file, 'utf8'),
    }),
  );
}

/** Renders and builds the small sample fleet both ways; returns each cluster's comparison. */
async function sampleCheck(kustomize: Kustomize, dir: string, log: (line: string) => void) {
  const prepared = prepareKustomizeFleet(dir, generateFleet(sampleShape));
  const out = join(dir, 'out');
  await runTimed({
    command: process.execPath,
    args: [gitfleetBin, 'render', prepared.fleetDir, '--out', out],
  });
  const checks: OutputComparison[] = [];
  for (const [cluster, overlay] of prepared.overlays) {
    const built = await runTimed({ command: kustomize.command, args: [...kustomize.args, overlay] });
    checks.push(
      compareOutputs({ cluster, gitfleet: readRenderedCluster(join(out, cluster)), kustomize: built.stdout }),
    );
  }
  log(
    `render: sample check (${sampleShape.templates} templates x ${sampleShape.clusters} clusters): ${summarizeChecks(checks).verdict}`,
  );
  return checks;
}
