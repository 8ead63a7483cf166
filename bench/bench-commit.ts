// Scenario commit: every cluster's rendered tree written into its branch through gitfleet's git
// path (src/adapters/git: hash, trees, one pack, compare-and-swap refs) against `git fast-import`
// of the same trees. bench/git-write.js does the work (it alternates the two, checks that both
// wrote the same trees and fscks ours); this runs it in a fresh process and reads its lines.
import { fileURLToPath } from 'node:url';
import {
  contender,
  ratioOf,
  type ContenderResult,
  type Scenario,
  type ScenarioReport,
} from './lib/report.js';
import { runTimed } from './lib/run-timed.js';
import { spread } from './lib/stats.js';

const gitWrite = fileURLToPath(new URL('./git-write.js', import.meta.url));
const ours = 'gitfleet git path (src/adapters/git)';
const theirs = 'git fast-import';

/** The commit scenario: gitfleet's pack writer against git fast-import on the same trees. */
export const commitScenario: Scenario = {
  name: 'commit',
  summary: "writing every cluster's tree into its branch: gitfleet's git path vs git fast-import",
  run: async (opts): Promise<ScenarioReport> => {
    const shape = opts.quick ? { clusters: 10, files: 500 } : { clusters: 50, files: 2000 };
    opts.log(
      `commit: ${shape.clusters} clusters x ${shape.files} files, bench/git-write.js --runs ${opts.runs}`,
    );
    const run = await runTimed({
      command: process.execPath,
      args: [
        gitWrite,
        '--clusters',
        `${shape.clusters}`,
        '--files',
        `${shape.files}`,
        '--runs',
        `${opts.runs}`,
      ],
    });
    for (const line of run.stdout.trimEnd().split('\n')) opts.log(`  ${line}`);
    const parsed = parseGitWrite(run.stdout);
    const results: ContenderResult[] = [
      {
        name: ours,
        side: 'gitfleet',
        ...spread(parsed.ours),
        peakRssMiB: parsed.oursRss,
        note: 'peak RSS of the bench process, manifests and the fast-import stream included',
      },
      { name: theirs, side: 'alternative', ...spread(parsed.theirs), peakRssMiB: parsed.theirsRss },
    ];
    return {
      scenario: 'commit',
      status: 'ran',
      parameters: { ...shape, source: 'bench/git-write.js (bench/git-write-fleet.ts trees)' },
      contenders: results,
      // Within 2x of fast-import: fast-import's time over ours at least 0.5.
      ratios: [
        ratioOf({
          label: 'commit',
          gitfleet: contender(results, ours),
          alternative: contender(results, theirs),
          atLeast: 0.5,
        }),
      ],
      details: {
        ...(parsed.incremental ? { incrementalPass: parsed.incremental } : {}),
        ...(parsed.packs ? { packSizes: parsed.packs } : {}),
      },
    };
  },
};

/** What git-write.js printed: each run's times, peak memories and the incremental pass. */
interface GitWriteOutput {
  ours: number[];
  theirs: number[];
  oursRss: number | null;
  theirsRss: number | null;
  incremental?: string;
  packs?: string;
}

/** Returns the figures in git-write.js's output; throws when its format changed. */
export function parseGitWrite(stdout: string): GitWriteOutput {
  const times = (who: string) =>
    [...stdout.matchAll(new RegExp(`run \\d+: ${who} (\\d+) ms`, 'g'))].map((m) => Number(m[1]));
  const ours = times('gitfleet');
  const theirs = times('fast-import');
  if (ours.length === 0 || ours.length !== theirs.length) {
    throw new Error(
      `bench/git-write.js output not understood (its format changed?):\n${stdout.slice(0, 2000)}`,
    );
  }
  const rss = /peak RSS:\s+bench process (\d+) MiB.*?(?:fast-import (\d+) MiB)?$/m.exec(stdout);
  const incremental = /incremental pass, (.*)$/m.exec(stdout)?.[1];
  const packs = /pack size: (.*)$/m.exec(stdout)?.[1];
  return {
    ours,
    theirs,
    oursRss: rss?.[1] === undefined ? null : Number(rss[1]),
    theirsRss: rss?.[2] === undefined ? null : Number(rss[2]),
    ...(incremental === undefined ? {} : { incremental }),
    ...(packs === undefined ? {} : { packs }),
  };
}
