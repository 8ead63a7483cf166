// Scenario log: `gitfleet log` of one object on a repository whose three cluster branches are
// 5,000 render commits long (log-history.ts; the object changes every 50th), side by side with
// `git log -- <path>` of the same object: one cluster's branch, all three, and the ten newest
// entries. Each contender is the whole command in a fresh process (Node's start included for
// gitfleet), output to a file. Measured twice: as the repository comes (no commit-graph), and
// after `git commit-graph write --reachable --changed-paths` (what `git gc` and git's
// maintenance keep), which both sides read.
//
//   npm run bench -- --scenario log [--quick]      (--quick: 1,000 commits a branch)
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { alternate, type Contender } from './lib/alternate.js';
import { cpuTimed } from './lib/cpu-timed.js';
import { failed, ratioOf, type ContenderResult, type Scenario, type ScenarioReport } from './lib/report.js';
import { withScratchDir } from './lib/scratch-dir.js';
import { spread } from './lib/stats.js';
import { buildLogHistory, webPath } from './log-history.js';

const cli = fileURLToPath(new URL('../../bin/gitfleet.js', import.meta.url));

/** The variants, each a gitfleet command and the git command that answers the same question. */
const variants = [
  { name: 'one cluster', gitfleet: ['--cluster', 'member1'], git: ['gitfleet/clusters/member1'] },
  { name: 'all clusters', gitfleet: [], git: ['--branches=gitfleet/clusters/*'] },
  { name: '10 newest', gitfleet: ['-n', '10'], git: ['-n', '10', '--branches=gitfleet/clusters/*'] },
] as const;

/** The log scenario: `gitfleet log` of one object against `git log -- <path>`. */
export const logScenario: Scenario = {
  name: 'log',
  summary: '`gitfleet log <object>` vs `git log -- <path>` on 3 cluster branches of 5,000 commits',
  run: async (opts): Promise<ScenarioReport> => {
    const shape = { commits: opts.quick ? 1000 : 5000, clusters: 3, objects: 400, webEvery: 50 };
    try {
      return await withScratchDir('log', async (dir) => {
        const gitdir = join(dir, 'fleet.git');
        opts.log(`log: writing ${shape.commits} commits on ${shape.clusters} cluster branches`);
        const commits = await buildLogHistory(gitdir, shape);
        const cpuMs = new Map<string, number[]>();
        const contenders = (graph: string): Contender[] =>
          variants.flatMap((v) => [
            timed(`gitfleet log ${v.name} (${graph})`, 'gitfleet', { dir, cpuMs }, [
              cli,
              'log',
              '--repo',
              gitdir,
              ...v.gitfleet,
              'Deployment/shop/web',
            ]),
            timed(`git log -- path ${v.name} (${graph})`, 'alternative', { dir, cpuMs }, [
              '--git-dir',
              gitdir,
              'log',
              '--format=%H %ct %an %s',
              ...v.git,
              '--',
              webPath,
            ]),
          ]);
        const without = await alternate({
          contenders: contenders('no commit-graph'),
          runs: opts.runs,
          log: opts.log,
        });
        execFileSync('git', ['--git-dir', gitdir, 'commit-graph', 'write', '--reachable', '--changed-paths']);
        const withGraph = await alternate({
          contenders: contenders('commit-graph'),
          runs: opts.runs,
          log: opts.log,
        });
        const results = [...without, ...withGraph];
        return {
          scenario: 'log',
          status: 'ran',
          note: 'whole commands in fresh processes (Node start included for gitfleet), output to a file; gitfleet prints each entry with its source commit (author, subject) as git prints %an %s',
          parameters: { ...shape, commits },
          contenders: results,
          details: { cpuMs: Object.fromEntries([...cpuMs].map(([name, ms]) => [name, spread(ms)])) },
          ratios: pairs(results).map(([g, a]) =>
            ratioOf({ label: g.name.replace(/^gitfleet log /, ''), gitfleet: g, alternative: a }),
          ),
        };
      });
    } catch (err) {
      return { ...failed('log', err), parameters: shape };
    }
  },
};

// gitfleet's side is Node running the CLI, the other git; both write their output to a file.
function timed(
  name: string,
  side: Contender['side'],
  at: { dir: string; cpuMs: Map<string, number[]> },
  args: string[],
): Contender {
  const command = side === 'gitfleet' ? process.execPath : 'git';
  return cpuTimed({ name, side, command, args, ...at, stdoutFile: join(at.dir, 'out.txt') });
}

/** Returns each gitfleet result with the git result after it. */
function pairs(results: readonly ContenderResult[]): [ContenderResult, ContenderResult][] {
  const out: [ContenderResult, ContenderResult][] = [];
  for (let i = 0; i + 1 < results.length; i += 2) out.push([results[i]!, results[i + 1]!]);
  return out;
}
