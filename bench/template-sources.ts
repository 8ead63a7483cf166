// Scenario template-sources: N Helm charts placed on M clusters by one ClusterPropagationPolicy,
// the first chart with values of its own for half the clusters (clusterValues by label: two
// render groups), read, rendered by helm, loaded and rendered for every cluster, in one process:
//
//   cold      a fresh renderer: every chart's helm run (the first chart's two groups: two runs)
//   warm      the same renderer, nothing changed: no helm run, the renders from the cache
//   change    the same renderer after the first chart's values for the eu clusters changed:
//             one helm run (that group), the rest from the cache
//
// side by side with running `helm template` per chart per cluster by hand (N × M runs; a sample
// of them is timed and its mean counted N × M times, the runs being alike). A pass here is the
// hub's source work without git: read the directory, load, render the sources, load their output,
// render every cluster's manifests (core/render), nothing written.
//
//   npm run bench -- --scenario template-sources [--quick]   (200 × 100; --quick: 20 × 20)
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadFleet, type RenderedFile, type SourceFile } from '../src/core/load/load-fleet.js';
import { renderFleet } from '../src/core/render/render-fleet.js';
import { freshSnapshot } from '../src/core/model/snapshot.js';
import { SourceRenderer } from '../src/adapters/render-tools/source-renderer.js';
import { directorySourceTree } from '../src/adapters/render-tools/source-tree.js';
import { readDirectorySource } from '../src/adapters/source/read-directory.js';
import { withScratchDir, writeSourceDir } from './lib/scratch-dir.js';
import {
  failed,
  ratioOf,
  skipped,
  type ContenderResult,
  type Scenario,
  type ScenarioReport,
} from './lib/report.js';
import { spread } from './lib/stats.js';

const repoRoot = join(new URL('.', import.meta.url).pathname, '../..');

function findHelm(): string | undefined {
  try {
    const out = execFileSync(join(repoRoot, 'tools/go-render/build.sh'), ['helm'], { encoding: 'utf8' });
    return join(out.trim().split(' ')[1]!, 'helm');
  } catch {
    return undefined;
  }
}

function chartFiles(i: number, euGreeting: string): SourceFile[] {
  const dir = `charts/app-${i}`;
  const deployment =
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\n  annotations: {greeting: {{ .Values.greeting | quote }}}\nspec:\n  replicas: {{ .Values.replicas }}\n' +
    '  selector: {matchLabels: {app: {{ .Release.Name }}}}\n  template:\n    metadata: {labels: {app: {{ .Release.Name }}}}\n' +
    '    spec:\n      containers: [{name: app, image: "example/app:{{ .Values.tag }}"}]\n';
  const service =
    'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  ports: [{port: 80}]\n';
  const clusterValues =
    i === 0
      ? `  clusterValues:\n    - clusterSelector: {matchLabels: {region: eu}}\n      values: {greeting: ${euGreeting}}\n`
      : '';
  return [
    { path: `${dir}/Chart.yaml`, content: `apiVersion: v2\nname: app-${i}\nversion: 0.1.0\n` },
    { path: `${dir}/values.yaml`, content: 'replicas: 1\ntag: "1.0"\ngreeting: hello\n' },
    { path: `${dir}/templates/deployment.yaml`, content: deployment },
    { path: `${dir}/templates/service.yaml`, content: service },
    {
      path: `sources/app-${i}.yaml`,
      content: `apiVersion: gitfleet.io/v1alpha1\nkind: HelmSource\nmetadata: {name: app-${i}}\nspec:\n  chart: {path: ${dir}}\n  releaseName: app-${i}\n  namespace: apps\n  values: {replicas: 2}\n${clusterValues}`,
    },
  ];
}

function fleetFiles(shape: { charts: number; clusters: number }): SourceFile[] {
  const files = Array.from({ length: shape.charts }, (_, i) => chartFiles(i, 'bonjour')).flat();
  for (let c = 0; c < shape.clusters; c++)
    files.push({
      path: `clusters/c${c}.yaml`,
      content: `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: c${c}, labels: {region: ${c % 2 === 0 ? 'eu' : 'us'}}}\n`,
    });
  files.push({
    path: 'policies/all.yaml',
    content:
      'apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata: {name: all}\nspec:\n' +
      '  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}, {apiVersion: v1, kind: Service}]\n  placement: {}\n',
  });
  return files;
}

interface Pass {
  ms: number;
  runs: number;
  reused: number;
  objects: number;
}

async function pass(dir: string, renderer: SourceRenderer): Promise<Pass> {
  const start = performance.now();
  const files = await readDirectorySource(dir);
  const first = loadFleet(files);
  if (!first.ok) throw new Error(JSON.stringify(first.errors[0]));
  const facts = { clusters: first.fleet.clusters, status: new Map() };
  const out = await renderer.renderAll(first.fleet.templateSources ?? [], directorySourceTree(dir), facts);
  if (out.errors.length > 0) throw new Error(out.errors[0]!.message);
  const loaded = loadFleet(files, { memo: first.memo, rendered: out.files as RenderedFile[] });
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors[0]));
  const result = renderFleet(freshSnapshot(loaded.fleet));
  const objects = [...result.clusters.values()].reduce((n, c) => n + c.files.size, 0);
  return { ms: performance.now() - start, runs: out.runs, reused: out.reused, objects };
}

function contender(name: string, side: ContenderResult['side'], ms: number, note: string): ContenderResult {
  return { name, side, ...spread([ms]), peakRssMiB: null, note };
}

/** The template sources scenario: cold, warm and one values change against helm template by hand. */
export const templateSourcesScenario: Scenario = {
  name: 'template-sources',
  summary:
    'HelmSources (200 charts × 100 clusters) cold, warm and one values change vs helm template per chart per cluster',
  run: async (opts): Promise<ScenarioReport> => {
    const shape = opts.quick ? { charts: 20, clusters: 20 } : { charts: 200, clusters: 100 };
    const helm = findHelm();
    if (helm === undefined)
      return skipped('template-sources', 'tools/go-render/build.sh did not build helm (no Go)', shape);
    try {
      return await withScratchDir('sources', async (dir) => {
        writeSourceDir(dir, fleetFiles(shape));
        const renderer = new SourceRenderer({ helm, env: {} });
        opts.log(`template-sources: ${shape.charts} charts x ${shape.clusters} clusters, cold`);
        const cold = await pass(dir, renderer);
        opts.log(`  cold: ${Math.round(cold.ms)} ms, ${cold.runs} helm runs, ${cold.objects} objects`);
        const warm = await pass(dir, renderer);
        opts.log(`  warm: ${Math.round(warm.ms)} ms, ${warm.runs} helm runs`);
        writeSourceDir(dir, chartFiles(0, 'hallo').slice(-1));
        const change = await pass(dir, renderer);
        opts.log(`  one values change: ${Math.round(change.ms)} ms, ${change.runs} helm runs`);
        const sample = Math.min(shape.charts, 10);
        const start = performance.now();
        for (let i = 0; i < sample; i++)
          execFileSync(helm, ['template', `app-${i}`, `charts/app-${i}`, '--namespace', 'apps'], {
            cwd: dir,
            env: { HOME: dir },
          });
        const perRun = (performance.now() - start) / sample;
        const byHandRuns = shape.charts * shape.clusters;
        const results = [
          contender('gitfleet cold (fresh renderer)', 'gitfleet', cold.ms, `${cold.runs} helm runs`),
          contender(
            'gitfleet warm (nothing changed)',
            'gitfleet',
            warm.ms,
            `${warm.runs} helm runs, ${warm.reused} renders from the cache`,
          ),
          contender(
            'gitfleet one values change (eu clusters of one chart)',
            'gitfleet',
            change.ms,
            `${change.runs} helm run, ${change.reused} from the cache`,
          ),
          contender(
            'helm template per chart per cluster by hand',
            'alternative',
            perRun * byHandRuns,
            `${byHandRuns} runs: ${sample} timed (mean ${Math.round(perRun)} ms), counted ${byHandRuns} times`,
          ),
        ];
        const [c, w, v, hand] = results as [
          ContenderResult,
          ContenderResult,
          ContenderResult,
          ContenderResult,
        ];
        return {
          scenario: 'template-sources',
          status: 'ran',
          note: 'one repetition of each pass (a cold pass is minutes of helm runs); the by-hand side is a timed sample counted for every chart and cluster',
          parameters: {
            ...shape,
            objects: cold.objects,
            helmRuns: { cold: cold.runs, warm: warm.runs, change: change.runs },
          },
          contenders: results,
          ratios: [
            ratioOf({ label: 'cold', gitfleet: c, alternative: hand }),
            ratioOf({ label: 'warm', gitfleet: w, alternative: hand }),
            ratioOf({ label: 'one values change', gitfleet: v, alternative: hand }),
          ],
        };
      });
    } catch (err) {
      return { ...failed('template-sources', err), parameters: shape };
    }
  },
};
