// Scenario soak: a hub that runs for a long time. bench/soak-passes.js makes 2,000 passes with
// one change each over the 2,000 x 50 fleet (--quick: 300 over 200 x 10) in a fresh process,
// with the repository maintenance between passes, and reports whether the pass time, the
// memory, the caches and the pack count stay flat, and whether `git fsck` is clean at the end.
//
// | figure               | what it shows                                                        |
// |----------------------|----------------------------------------------------------------------|
// | first / last 100     | pass time (median, p90): the ratio is the scenario's, target >= 0.8   |
// | RSS                  | after the first pass, at the middle, at the end, and the peak         |
// | caches               | HubPassCache's entry counts and the pack indexes it holds (middle, end)|
// | packs                | the most seen after any pass, at the end, and every 100 passes       |
// | repacks              | how many, their median, p90 and largest (objects, ms)                 |
// | fsck                 | `git fsck --strict` at the end                                       |
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  failed,
  ratioOf,
  skipped,
  type ContenderResult,
  type Scenario,
  type ScenarioReport,
} from './lib/report.js';

const worker = fileURLToPath(new URL('./soak-passes.js', import.meta.url));

/** Pass times over a hundred passes (minMs: absent from reports made before it was added). */
interface PassStats {
  medianMs: number;
  p90Ms: number;
  minMs?: number;
  maxMs: number;
}

/** The part of soak-passes.js's report this reads. */
interface SoakReport {
  first100: PassStats;
  last100: PassStats;
  rssMiB: Record<string, number>;
  fsck: string;
  [key: string]: unknown;
}

/** The soak scenario (the full one takes long: about an hour on two shared cores). */
export const soakScenario: Scenario = {
  name: 'soak',
  summary:
    '2,000 hub passes with a change each (2,000 x 50): pass time, memory, caches and packs stay flat, fsck clean',
  run: async (opts): Promise<ScenarioReport> => {
    const parameters = opts.quick
      ? { passes: 300, templates: 200, clusters: 10 }
      : { passes: 2000, templates: 2000, clusters: 50 };
    if (!existsSync(worker)) return skipped('soak', 'bench/soak-passes.ts is not built', parameters);
    const args = Object.entries(parameters).flatMap(([k, v]) => [`--${k}`, String(v)]);
    let report: SoakReport;
    try {
      report = JSON.parse(await runWorker(args, opts.log)) as SoakReport;
    } catch (error) {
      return { ...failed('soak', error), parameters };
    }
    const first = asContender('passes 1-100', report.first100, report.rssMiB['afterFirstPass'] ?? null);
    const last = asContender(
      `passes ${parameters.passes - 99}-${parameters.passes}`,
      report.last100,
      report.rssMiB['end'] ?? null,
    );
    return {
      scenario: 'soak',
      status: report.fsck === 'clean' ? 'ran' : 'failed',
      note:
        report.fsck === 'clean'
          ? 'one process; a pass is the hub pass only (the commit of the change and the maintenance are timed apart); each row: median, min and max over its 100 passes (p90 in its note), RSS at that point'
          : `git fsck at the end: ${report.fsck}`,
      parameters,
      contenders: [first, last],
      ratios: [
        ratioOf({
          label: 'pass time, first 100 over last 100',
          gitfleet: last,
          alternative: first,
          atLeast: 0.8,
        }),
      ],
      details: report,
    };
  },
};

function asContender(name: string, s: PassStats, rss: number | null): ContenderResult {
  return {
    name,
    side: 'gitfleet',
    medianMs: s.medianMs,
    minMs: s.minMs ?? Number.NaN,
    maxMs: s.maxMs,
    runs: 100,
    samplesMs: [],
    peakRssMiB: rss,
    note: `p90 ${s.p90Ms} ms`,
  };
}

/** Runs the worker, passing its progress lines on, and returns its stdout. */
function runWorker(args: readonly string[], log: (line: string) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    // --expose-gc: the worker collects garbage before it reads the memory, so RSS and the heap
    // show what is held, not what is yet to be collected.
    const child = spawn(process.execPath, ['--expose-gc', worker, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
      const lines = err.split('\n');
      err = lines.pop()!;
      for (const line of lines) if (line.startsWith('soak: ')) log(line);
    });
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`soak-passes.js exited with ${code}: ${err.slice(-500)}`)),
    );
  });
}
