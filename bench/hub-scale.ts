// Scenarios hub-scale and render-10k (issue 18): the hub at 1,000 clusters and the render of
// 10,000 templates, each repetition in a fresh process so its peak RSS is its own.
//
//   hub-scale   first hub pass of 2,000 templates x 1,000 clusters into a real repository, then
//               one template changed with the running hub's cache (bench/hub-pass.js
//               --skip-restart); targets: first pass under 30 s and 2 GiB, incremental under 1 s.
//   render-10k  load + render of 10,000 templates x 100 clusters in memory
//               (bench/lib/scale-pass.js); target: under 15 s and 2 GiB.
//
// --quick shapes are a tenth of the size, for a fast look; the targets apply to the full ones.
import { fileURLToPath } from 'node:url';
import { alternate, type Contender } from './lib/alternate.js';
import { contender, type Scenario, type ScenarioReport } from './lib/report.js';
import { runTimed } from './lib/run-timed.js';
import type { ScalePassReport } from './lib/scale-pass.js';

const hubPass = fileURLToPath(new URL('./hub-pass.js', import.meta.url));
const scalePass = fileURLToPath(new URL('./lib/scale-pass.js', import.meta.url));
const mib = 1024;

/** The part of hub-pass.js's JSON this reads. */
interface HubPassReport {
  first: { totalMs: number; renderMs: number; planMs: number; writeMs: number };
  incremental: { totalMs: number };
  peakRssMiB: number;
  heapAfterFirstMiB: number;
}

/** Whether the median and the peak RSS are within the target. */
function verdict(ms: number, rssMiB: number | null, targetMs: number, targetRssMiB?: number): string {
  const time = ms < targetMs ? 'met' : 'missed';
  if (targetRssMiB === undefined || rssMiB === null) return `time ${time}`;
  return `time ${time}, memory ${rssMiB < targetRssMiB ? 'met' : 'missed'}`;
}

export const hubScaleScenario: Scenario = {
  name: 'hub-scale',
  summary: 'first and incremental hub pass, 2,000 templates x 1,000 clusters (bench/hub-pass.js)',
  run: async (opts): Promise<ScenarioReport> => {
    const shape = opts.quick ? { templates: 200, clusters: 100 } : { templates: 2000, clusters: 1000 };
    const reports: HubPassReport[] = [];
    const first = 'first hub pass (every branch written)';
    const incremental = 'hub pass, one template changed (warm cache)';
    const contenders: Contender[] = [
      {
        name: first,
        side: 'gitfleet',
        run: async (rep) => {
          const args = [hubPass, '--templates', `${shape.templates}`, '--clusters', `${shape.clusters}`];
          const run = await runTimed({
            command: process.execPath,
            args: [...args, '--skip-restart', '--json'],
          });
          reports[rep] = JSON.parse(run.stdout) as HubPassReport;
          return { ms: reports[rep].first.totalMs, peakRssMiB: run.peakRssMiB };
        },
      },
      {
        name: incremental,
        side: 'gitfleet',
        run: async (rep) => ({ ms: reports[rep]!.incremental.totalMs }),
      },
    ];
    const results = await alternate({ contenders, runs: opts.runs, log: opts.log });
    const firstResult = contender(results, first);
    const last = reports.at(-1)!;
    return {
      scenario: 'hub-scale',
      status: 'ran',
      note:
        `both passes run in one process per repetition; peak RSS is that whole process. ` +
        (opts.quick
          ? 'quick shape: the targets (first < 30 s and < 2 GiB, incremental < 1 s) are for 2,000 x 1,000'
          : `first pass: ${verdict(firstResult.medianMs, firstResult.peakRssMiB, 30_000, 2 * mib)} (< 30 s, < 2 GiB); ` +
            `incremental: ${verdict(contender(results, incremental).medianMs, null, 1000)} (< 1 s)`),
      parameters: { ...shape, source: 'bench/hub-pass.js --skip-restart' },
      contenders: results,
      ratios: [],
      details: {
        lastRun: last,
        peakRssPerClusterMiB: Math.round((last.peakRssMiB / shape.clusters) * 100) / 100,
        heapPerClusterMiB: Math.round((last.heapAfterFirstMiB / shape.clusters) * 100) / 100,
      },
    };
  },
};

export const render10kScenario: Scenario = {
  name: 'render-10k',
  summary: 'load + render 10,000 templates x 100 clusters in memory (bench/lib/scale-pass.js)',
  run: async (opts): Promise<ScenarioReport> => {
    const shape = opts.quick ? { templates: 1000, clusters: 100 } : { templates: 10_000, clusters: 100 };
    const reports: ScalePassReport[] = [];
    const name = `load + render, ${shape.templates} templates x ${shape.clusters} clusters`;
    const contenders: Contender[] = [
      {
        name,
        side: 'gitfleet',
        run: async () => {
          const args = [scalePass, '--templates', `${shape.templates}`, '--clusters', `${shape.clusters}`];
          const run = await runTimed({ command: process.execPath, args });
          const report = JSON.parse(run.stdout) as ScalePassReport;
          reports.push(report);
          return { ms: report.loadMs + report.renderMs, peakRssMiB: run.peakRssMiB };
        },
      },
    ];
    const results = await alternate({ contenders, runs: opts.runs, log: opts.log });
    const result = contender(results, name);
    return {
      scenario: 'render-10k',
      status: 'ran',
      note:
        (opts.quick
          ? 'quick shape: the target (< 15 s, < 2 GiB) is for 10,000 x 100'
          : `${verdict(result.medianMs, result.peakRssMiB, 15_000, 2 * mib)} (< 15 s, < 2 GiB)`) +
        '; times exclude generating the fleet and starting Node',
      parameters: { ...shape, source: 'bench/lib/scale-pass.js' },
      contenders: results,
      ratios: [],
      details: { lastRun: reports.at(-1) },
    };
  },
};
