// Template sources: N charts placed on M clusters, rendered cold (a fresh renderer: one helm run
// per chart), and incrementally (the same renderer after one chart's values changed: one helm
// run, the rest from the cache), against running `helm template` per chart per cluster by hand.
// The by-hand side runs each chart once and counts that time M times (the runs are identical).
//
//   node build/bench/template-sources.js [--charts 20] [--clusters 20] [--helm PATH]
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadFleet, type RenderedFile, type SourceFile } from '../src/core/load/load-fleet.js';
import { renderFleet } from '../src/core/render/render-fleet.js';
import { freshSnapshot } from '../src/core/model/snapshot.js';
import { SourceRenderer } from '../src/adapters/render-tools/source-renderer.js';
import { directorySourceTree } from '../src/adapters/render-tools/source-tree.js';
import { readDirectorySource } from '../src/adapters/source/read-directory.js';
import { withScratchDir, writeSourceDir } from './lib/scratch-dir.js';

const { values } = parseArgs({
  options: {
    charts: { type: 'string', default: '20' },
    clusters: { type: 'string', default: '20' },
    helm: { type: 'string' },
  },
});
const charts = Number(values.charts);
const clusters = Number(values.clusters);
const repoRoot = join(new URL('.', import.meta.url).pathname, '../..');
const helm =
  values.helm ??
  join(
    execFileSync(join(repoRoot, 'tools/go-render/build.sh'), ['helm'], { encoding: 'utf8' })
      .trim()
      .split(' ')[1]!,
    'helm',
  );

function chartFiles(i: number, replicas: number): SourceFile[] {
  const dir = `charts/app-${i}`;
  const deployment =
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  replicas: {{ .Values.replicas }}\n' +
    '  selector: {matchLabels: {app: {{ .Release.Name }}}}\n  template:\n    metadata: {labels: {app: {{ .Release.Name }}}}\n' +
    '    spec:\n      containers: [{name: app, image: "example/app:{{ .Values.tag }}"}]\n';
  const service =
    'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  ports: [{port: 80}]\n';
  return [
    { path: `${dir}/Chart.yaml`, content: `apiVersion: v2\nname: app-${i}\nversion: 0.1.0\n` },
    { path: `${dir}/values.yaml`, content: 'replicas: 1\ntag: "1.0"\n' },
    { path: `${dir}/templates/deployment.yaml`, content: deployment },
    { path: `${dir}/templates/service.yaml`, content: service },
    {
      path: `sources/app-${i}.yaml`,
      content: `apiVersion: gitfleet.io/v1alpha1\nkind: HelmSource\nmetadata: {name: app-${i}}\nspec:\n  chart: {path: ${dir}}\n  releaseName: app-${i}\n  namespace: apps\n  values: {replicas: ${replicas}}\n`,
    },
  ];
}

function fleetFiles(): SourceFile[] {
  const files = Array.from({ length: charts }, (_, i) => chartFiles(i, 2)).flat();
  for (let c = 0; c < clusters; c++)
    files.push({
      path: `clusters/c${c}.yaml`,
      content: `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: c${c}}\n`,
    });
  files.push({
    path: 'policies/all.yaml',
    content:
      'apiVersion: policy.karmada.io/v1alpha1\nkind: ClusterPropagationPolicy\nmetadata: {name: all}\nspec:\n' +
      '  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}, {apiVersion: v1, kind: Service}]\n  placement: {}\n',
  });
  return files;
}

async function pass(
  dir: string,
  renderer: SourceRenderer,
): Promise<{ ms: number; runs: number; objects: number }> {
  const start = performance.now();
  const files = await readDirectorySource(dir);
  const first = loadFleet(files);
  if (!first.ok) throw new Error(JSON.stringify(first.errors[0]));
  const out = await renderer.renderAll(first.fleet.templateSources ?? [], directorySourceTree(dir));
  if (out.errors.length > 0) throw new Error(out.errors[0]!.message);
  const loaded = loadFleet(files, { memo: first.memo, rendered: out.files as RenderedFile[] });
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors[0]));
  const result = renderFleet(freshSnapshot(loaded.fleet));
  const objects = [...result.clusters.values()].reduce((n, c) => n + c.files.size, 0);
  return { ms: performance.now() - start, runs: out.runs, objects };
}

await withScratchDir('sources', async (dir) => {
  writeSourceDir(dir, fleetFiles());
  const renderer = new SourceRenderer({ helm, env: {} });
  const cold = await pass(dir, renderer);
  writeSourceDir(dir, chartFiles(0, 3).slice(-1));
  const incremental = await pass(dir, renderer);
  const start = performance.now();
  for (let i = 0; i < charts; i++)
    execFileSync(helm, ['template', `app-${i}`, `charts/app-${i}`, '--namespace', 'apps'], {
      cwd: dir,
      env: { HOME: dir },
    });
  const byHandMs = (performance.now() - start) * clusters;
  console.log(`template sources: ${charts} charts × ${clusters} clusters, ${cold.objects} objects rendered`);
  console.log(`  cold (fresh renderer):        ${(cold.ms / 1000).toFixed(2)} s, ${cold.runs} helm runs`);
  console.log(
    `  incremental (one chart changed): ${(incremental.ms / 1000).toFixed(2)} s, ${incremental.runs} helm run`,
  );
  console.log(
    `  helm template per chart per cluster by hand: ${(byHandMs / 1000).toFixed(1)} s (${charts * clusters} runs)`,
  );
});
