// Scenario hub-push (issue 28): the hub's pass over a source push that moves every cluster branch,
// at the budget scenario's fleet shape (bench/hub-push-pass.js: one ConfigMap on every cluster,
// status and render repositories on local paths), at 100 clusters and, but for --quick, 1,000.
// Each repetition is a fresh process that writes every branch once, then takes three source
// pushes; its figure is the median push pass's CPU time (user + system) and wall time.
//
// Side by side: with GITFLEET_BENCH_BASE=<another checkout's build directory> (one that holds
// bench/hub-push-pass.js), the same passes are run by that build too, alternating with this one,
// and the ratios say how much this build saved (base / this: above 1, this build is cheaper).
// CPU is the figure to read on a shared machine; wall time waits for the disk (every ref and
// object is fsynced) and for other processes. GITFLEET_BENCH_HUB_PUSH_SERVED=1 runs the passes
// with `--served`: the render repositories behind git's HTTP server, published as URLs (both
// builds must know the flag).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { alternate, type Contender } from './lib/alternate.js';
import { contender, ratioOf, type Ratio, type Scenario, type ScenarioReport } from './lib/report.js';
import { runTimed } from './lib/run-timed.js';

const script = fileURLToPath(new URL('./hub-push-pass.js', import.meta.url));

/** The part of hub-push-pass.js's JSON this reads. */
interface PushPassReport {
  push: { medianMs: number; medianCpuMs: number };
  peakRssMiB: number;
}

/** A fleet size: clusters, and their status and render repositories (as `gitfleet budget` advises at 100). */
interface Shape {
  clusters: number;
  status: number;
  render: number;
}

/** The build whose script runs: this one, or the base named by GITFLEET_BENCH_BASE. */
interface Build {
  label: string;
  side: 'gitfleet' | 'alternative';
  script: string;
}

function buildsToRun(): Build[] {
  const builds: Build[] = [{ label: 'this build', side: 'gitfleet', script }];
  const base = process.env['GITFLEET_BENCH_BASE'];
  if (base === undefined) return builds;
  const baseScript = join(base, 'bench', 'hub-push-pass.js');
  if (!existsSync(baseScript)) throw new Error(`GITFLEET_BENCH_BASE: no ${baseScript}`);
  return [...builds, { label: 'base build', side: 'alternative', script: baseScript }];
}

const served = process.env['GITFLEET_BENCH_HUB_PUSH_SERVED'] === '1';

/** Two contenders per build: the push pass's CPU time, and its wall time read from the same run. */
function contendersOf(shape: Shape, build: Build, reports: PushPassReport[]): Contender[] {
  const name = (what: string) => `${build.label}: ${what}, ${shape.clusters} clusters`;
  const args = [
    build.script,
    ...['--clusters', `${shape.clusters}`, '--status-repositories', `${shape.status}`],
    ...['--render-repositories', `${shape.render}`, '--pushes', '3', '--json'],
    ...(served ? ['--served'] : []),
  ];
  return [
    {
      name: name('push pass CPU'),
      side: build.side,
      run: async (rep) => {
        const run = await runTimed({ command: process.execPath, args });
        reports[rep] = JSON.parse(run.stdout) as PushPassReport;
        return { ms: reports[rep].push.medianCpuMs, peakRssMiB: run.peakRssMiB };
      },
    },
    {
      name: name('push pass wall'),
      side: build.side,
      run: async (rep) => ({ ms: reports[rep]!.push.medianMs }),
    },
  ];
}

export const hubPushScenario: Scenario = {
  name: 'hub-push',
  summary:
    'the hub pass over a source push moving every branch, 100 and 1,000 clusters (bench/hub-push-pass.js)',
  run: async (opts): Promise<ScenarioReport> => {
    const shapes: Shape[] = [{ clusters: 100, status: 13, render: 9 }];
    if (!opts.quick) shapes.push({ clusters: 1000, status: 130, render: 90 });
    const builds = buildsToRun();
    const contenders: Contender[] = [];
    for (const shape of shapes)
      for (const build of builds) contenders.push(...contendersOf(shape, build, []));
    const results = await alternate({ contenders, runs: opts.runs, log: opts.log });
    const ratios: Ratio[] = [];
    if (builds.length > 1)
      for (const shape of shapes)
        for (const what of ['push pass CPU', 'push pass wall'])
          ratios.push(
            ratioOf({
              label: `${what}, ${shape.clusters} clusters: base / this`,
              gitfleet: contender(results, `this build: ${what}, ${shape.clusters} clusters`),
              alternative: contender(results, `base build: ${what}, ${shape.clusters} clusters`),
            }),
          );
    return {
      scenario: 'hub-push',
      status: 'ran',
      note:
        'median of 3 push passes per repetition, each moving every branch; ' +
        (served
          ? "render repositories behind git's HTTP server, published as URLs; status repositories on local paths"
          : 'render and status repositories on local paths (no network)') +
        (builds.length > 1
          ? `; base: ${process.env['GITFLEET_BENCH_BASE']}`
          : '; set GITFLEET_BENCH_BASE to compare with another build'),
      parameters: { shapes, source: 'bench/hub-push-pass.js' },
      contenders: results,
      ratios,
    };
  },
};
