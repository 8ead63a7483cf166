// Scenario status: `gitfleet status` on a generated fleet of 2,000 templates on 50 clusters
// written by real hub passes, with a status branch per cluster (status-fleet.ts: ~100,000
// object records, no blob shared between clusters). Each contender is the whole command in a
// fresh process (`node bin/gitfleet.js status …`, Node's start included), output to a file:
// the summary (the default), the same as JSON, the matrix of placed rows (`--wide`) and the
// full matrix (`--wide --all`, what `status` printed before the summary). Then the dashboard
// server's read after one status branch moved, with the memo and without (status-reread.ts).
//
//   npm run bench -- --scenario status [--quick]      (--quick: 200 templates on 10 clusters)
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { statSync } from 'node:fs';
import { alternate, type Contender } from './lib/alternate.js';
import { failed, ratioOf, type ContenderResult, type Scenario, type ScenarioReport } from './lib/report.js';
import { runTimed } from './lib/run-timed.js';
import { withScratchDir } from './lib/scratch-dir.js';
import { buildStatusFleet } from './status-fleet.js';
import { rereadContenders } from './status-reread.js';
import { spread } from './lib/stats.js';

const cli = fileURLToPath(new URL('../../bin/gitfleet.js', import.meta.url));

/** The status scenario: the time of `gitfleet status` on 2,000 templates x 50 clusters. */
export const statusScenario: Scenario = {
  name: 'status',
  summary: '`gitfleet status` (summary, JSON, --wide, --wide --all) on 2,000 templates x 50 clusters',
  run: async (opts): Promise<ScenarioReport> => {
    const shape = opts.quick ? { templates: 200, clusters: 10 } : { templates: 2000, clusters: 50 };
    try {
      return await withScratchDir('status', async (dir) => {
        const gitdir = join(dir, 'fleet.git');
        opts.log(`status: building ${shape.templates} templates x ${shape.clusters} clusters`);
        const { records } = await buildStatusFleet(gitdir, shape);
        const variants: [string, string[]][] = [
          ['status (summary)', []],
          ['status -o json', ['-o', 'json']],
          ['status --wide (placed rows)', ['--wide']],
          ['status --wide --all (the full matrix)', ['--wide', '--all']],
        ];
        const outputBytes = new Map<string, number>();
        const contenders: Contender[] = variants.map(([name, extra]) => ({
          name,
          side: 'gitfleet',
          run: async () => {
            const out = join(dir, 'out.txt');
            const run = await runTimed({
              command: process.execPath,
              args: [cli, 'status', '--repo', gitdir, ...extra],
              stdoutFile: out,
            });
            outputBytes.set(name, statSync(out).size);
            return { ms: run.ms, peakRssMiB: run.peakRssMiB };
          },
        }));
        const cpuMs = new Map<string, number[]>();
        contenders.push(...rereadContenders(gitdir, cpuMs));
        const results = await alternate({ contenders, runs: opts.runs, log: opts.log });
        const [memo, cold] = results.slice(-2) as [ContenderResult, ContenderResult];
        return {
          scenario: 'status',
          status: 'ran',
          note: 'status: the whole command in a fresh process, Node start included, output written to a file; the dashboard reads: the second read of one process (status-reread.ts)',
          parameters: { ...shape, statusRecords: records },
          contenders: results,
          ratios: [
            ratioOf({
              label: 'dashboard read after one status branch moved',
              gitfleet: memo,
              alternative: cold,
            }),
          ],
          details: {
            outputBytes: Object.fromEntries(outputBytes),
            rereadCpuMs: Object.fromEntries([...cpuMs].map(([name, ms]) => [name, spread(ms)])),
          },
        };
      });
    } catch (err) {
      return { ...failed('status', err), parameters: shape };
    }
  },
};
