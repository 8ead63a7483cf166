// Scenario scale: how the cost of a pass grows with the fleet: 1, 10, 100 and 500 clusters with
// 200 templates, each pass in a fresh process (lib/scale-pass.ts) so its peak RSS is its own:
// load + render alone, and load + render + writing every branch into git (src/adapters/git).
// The sizes are interleaved (1 10 100 500 1 10 …) like the contenders of the other scenarios.
import { fileURLToPath } from 'node:url';
import { alternate, type Contender } from './lib/alternate.js';
import type { Scenario, ScenarioReport } from './lib/report.js';
import { runTimed } from './lib/run-timed.js';
import type { ScalePassReport } from './lib/scale-pass.js';
import { median } from './lib/stats.js';

const scalePass = fileURLToPath(new URL('./lib/scale-pass.js', import.meta.url));
const templates = 200;

/** The scale scenario: time and peak memory of a pass from 1 to 500 clusters. */
export const scaleScenario: Scenario = {
  name: 'scale',
  summary: 'time and peak memory per pass for 1, 10, 100 and 500 clusters x 200 templates',
  run: async (opts): Promise<ScenarioReport> => {
    const sizes = opts.quick ? [1, 10, 100] : [1, 10, 100, 500];
    const passes = new Map<string, ScalePassReport[]>();
    const contenders: Contender[] = sizes.flatMap((clusters) =>
      [false, true].map((write) => {
        const name = `${write ? 'load + render + git write' : 'load + render'}, ${clusters} cluster${clusters > 1 ? 's' : ''}`;
        passes.set(name, []);
        return {
          name,
          side: 'gitfleet' as const,
          run: async () => {
            const args = [
              scalePass,
              '--templates',
              `${templates}`,
              '--clusters',
              `${clusters}`,
              ...(write ? ['--write'] : []),
            ];
            const run = await runTimed({ command: process.execPath, args });
            const report = JSON.parse(run.stdout) as ScalePassReport;
            passes.get(name)!.push(report);
            return { ms: report.loadMs + report.renderMs + report.writeMs, peakRssMiB: run.peakRssMiB };
          },
        };
      }),
    );
    const results = await alternate({ contenders, runs: opts.runs, log: opts.log });
    return {
      scenario: 'scale',
      status: 'ran',
      note: 'times are the pass itself (generating the fleet and starting Node excluded); peak RSS is the whole process',
      parameters: { templates, clusters: sizes },
      contenders: results,
      ratios: [],
      details: { growth: growth(sizes, passes) },
    };
  },
};

/** Returns, per size, the median phases of the passes with a git write and the cost per object. */
function growth(sizes: readonly number[], passes: Map<string, ScalePassReport[]>) {
  return sizes.map((clusters) => {
    const runs =
      [...passes].find(
        ([name]) =>
          name.startsWith('load + render + git write') &&
          name.endsWith(` ${clusters} cluster${clusters > 1 ? 's' : ''}`),
      )?.[1] ?? [];
    const m = (pick: (r: ScalePassReport) => number) => Math.round(median(runs.map(pick)));
    const total = median(runs.map((r) => r.loadMs + r.renderMs + r.writeMs));
    return {
      clusters,
      objects: runs[0]?.objects,
      distinctObjects: runs[0]?.distinctObjects,
      loadMs: m((r) => r.loadMs),
      renderMs: m((r) => r.renderMs),
      writeMs: m((r) => r.writeMs),
      microsecondsPerObject: runs[0] ? Math.round((total * 1000) / runs[0].objects) : null,
    };
  });
}
