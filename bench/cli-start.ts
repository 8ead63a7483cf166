// Scenario cli-start: what starting `gitfleet <command>` costs beside a bare Node start (`node -e
// 0`), each in a fresh process: the version and usage (every command's command line, no
// command's code), `agent --help` and `hub --help` (one command's declarations), and a render of
// the example fleet (the render command's code). Wall time in the table; the CPU time of each
// run (GNU time) and the modules each loads (a loader hook counting every module but Node's own)
// in the details: the test suite starts hundreds of these processes on two cores.
//
//   npm run bench -- --scenario cli-start [--quick]
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { alternate, type Contender } from './lib/alternate.js';
import { cpuTimed } from './lib/cpu-timed.js';
import { contender, failed, ratioOf, type Scenario, type ScenarioReport } from './lib/report.js';
import { withScratchDir } from './lib/scratch-dir.js';
import { spread } from './lib/stats.js';

const cli = fileURLToPath(new URL('../../bin/gitfleet.js', import.meta.url));
const example = fileURLToPath(new URL('../../examples/fleet-repo', import.meta.url));
const bare = 'node -e 0';

/** The commands started, each by its arguments (`out` is a scratch directory for render). */
const commands = (out: string): Record<string, string[]> => ({
  'gitfleet version': ['version'],
  'gitfleet --help': ['--help'],
  'gitfleet agent --help': ['agent', '--help'],
  'gitfleet hub --help': ['hub', '--help'],
  'gitfleet render examples/fleet-repo': ['render', example, '--out', out],
});

/** The cli-start scenario: each command's start against a bare Node start. */
export const cliStartScenario: Scenario = {
  name: 'cli-start',
  summary: '`gitfleet version`, `--help`, `agent --help`, `hub --help`, `render` vs a bare `node -e 0`',
  run: async (opts): Promise<ScenarioReport> => {
    try {
      return await withScratchDir('cli-start', async (dir) => {
        const cpuMs = new Map<string, number[]>();
        const started = Object.entries(commands(join(dir, 'out')));
        const contenders: Contender[] = [
          timed(bare, 'alternative', { dir, cpuMs }, ['-e', '0']),
          ...started.map(([name, args]) => timed(name, 'gitfleet', { dir, cpuMs }, [cli, ...args])),
        ];
        const results = await alternate({ contenders, runs: opts.runs, log: opts.log });
        const node = contender(results, bare);
        return {
          scenario: 'cli-start',
          status: 'ran',
          note: 'ratio: the bare Node start over the command (1: nothing beyond Node’s own start); a version or usage error exits 2, measured all the same',
          parameters: { commands: Object.fromEntries(started) },
          contenders: results,
          details: {
            cpuMs: Object.fromEntries([...cpuMs].map(([name, ms]) => [name, spread(ms)])),
            modules: Object.fromEntries(started.map(([name, args]) => [name, modulesLoaded(dir, args)])),
          },
          ratios: results
            .filter((r) => r.side === 'gitfleet')
            .map((r) => ratioOf({ label: r.name, gitfleet: r, alternative: node })),
        };
      });
    } catch (err) {
      return failed('cli-start', err);
    }
  },
};

// Node with these arguments; a usage error (exit 2) is a finished run too.
function timed(
  name: string,
  side: Contender['side'],
  at: { dir: string; cpuMs: Map<string, number[]> },
  args: string[],
): Contender {
  return cpuTimed({ name, side, command: process.execPath, args, ...at, ok: [0, 2] });
}

/** Returns how many modules (Node's own aside) `gitfleet <args>` loads, counted by a loader hook. */
function modulesLoaded(dir: string, args: readonly string[]): number {
  const list = join(dir, 'modules.txt');
  const hooks = join(dir, 'count-hooks.mjs');
  const register = join(dir, 'count-register.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  if (!url.startsWith('node:')) appendFileSync(${JSON.stringify(list)}, url + '\\n');\n  return next(url, context);\n}\n`,
  );
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${hooks}`)});\n`,
  );
  rmSync(list, { force: true });
  appendFileSync(list, '');
  spawnSync(process.execPath, ['--import', register, cli, ...args], { stdio: 'ignore' });
  return readFileSync(list, 'utf8').split('\n').filter(Boolean).length;
}
