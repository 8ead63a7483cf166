// Scenario incremental: one template changed, the hub's pass against a full pass, from
// bench/hub-pass.js (its own engineer's benchmark), run once per repetition in a fresh process.
// Each run commits the generated fleet, makes the first (full) pass, changes one image tag and
// passes again with the running hub's cache, then after a restart (a fresh process that starts
// from the hub memo), and after a restart with the memo off (what a restart cost before it).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { alternate, type Contender } from './lib/alternate.js';
import { contender, ratioOf, skipped, type Scenario, type ScenarioReport } from './lib/report.js';
import { runTimed } from './lib/run-timed.js';

const hubPass = fileURLToPath(new URL('./hub-pass.js', import.meta.url));

/** The part of hub-pass.js's JSON this reads. */
interface HubPassReport {
  first: { totalMs: number };
  incremental: { totalMs: number; objects?: number; clustersUpdated?: number };
  incrementalAfterRestart: { totalMs: number };
  incrementalAfterRestartNoMemo: { totalMs: number };
  noop: { totalMs: number };
  peakRssMiB: number;
}

const passes = [
  { key: 'first', name: 'full pass (first render of every branch)', side: 'alternative' },
  { key: 'incremental', name: 'hub pass, one template changed (warm cache)', side: 'gitfleet' },
  {
    key: 'incrementalAfterRestart',
    name: 'hub pass, one template changed (after a restart)',
    side: 'gitfleet',
  },
  {
    key: 'incrementalAfterRestartNoMemo',
    name: 'hub pass, one template changed (after a restart, hub memo off)',
    side: 'alternative',
  },
  { key: 'noop', name: 'hub pass, nothing changed', side: 'gitfleet' },
] as const;

/** The incremental scenario: a hub pass after one template changed against a full pass. */
export const incrementalScenario: Scenario = {
  name: 'incremental',
  summary: 'one template changed: hub pass vs a full pass (bench/hub-pass.js)',
  run: async (opts): Promise<ScenarioReport> => {
    const shape = opts.quick ? { templates: 200, clusters: 10 } : { templates: 2000, clusters: 50 };
    if (!existsSync(hubPass)) return skipped('incremental', 'bench/hub-pass.ts is not there (yet)', shape);
    const reports: HubPassReport[] = [];
    // One process per repetition gives all four passes; each contender reads its own.
    const runOnce: Contender['run'] = async (rep) => {
      const run = await runTimed({
        command: process.execPath,
        args: [hubPass, '--templates', `${shape.templates}`, '--clusters', `${shape.clusters}`, '--json'],
      });
      reports[rep] = JSON.parse(run.stdout) as HubPassReport;
      return { ms: reports[rep].first.totalMs, peakRssMiB: run.peakRssMiB };
    };
    const contenders: Contender[] = passes.map((p, i) => ({
      name: p.name,
      side: p.side,
      run: async (rep) => (i === 0 ? runOnce(rep) : { ms: reports[rep]![p.key].totalMs }),
    }));
    const results = await alternate({ contenders, runs: opts.runs, log: opts.log });
    const full = contender(results, passes[0].name);
    return {
      scenario: 'incremental',
      status: 'ran',
      note: 'the passes run in this order in one process per repetition (each restart a fresh process of its own); peak RSS is the first process',
      parameters: { ...shape, source: 'bench/hub-pass.js' },
      contenders: results,
      ratios: [
        ratioOf({
          label: 'one template changed',
          gitfleet: contender(results, passes[1].name),
          alternative: full,
        }),
        ratioOf({
          label: 'one template changed, after a restart',
          gitfleet: contender(results, passes[2].name),
          alternative: full,
        }),
        ratioOf({
          label: 'after a restart: hub memo on vs off',
          gitfleet: contender(results, passes[2].name),
          alternative: contender(results, passes[3].name),
        }),
      ],
      details: { lastRun: reports.at(-1) },
    };
  },
};
