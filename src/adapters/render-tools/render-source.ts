// Renders one template source with its tool in a working directory of its own: the source's
// input paths copied from the revision being rendered, the tool run hermetically (its home,
// cache, config and plugin folders empty and private, no PATH, so no plugin, post-renderer or
// credential helper of the hub's can run), with a deadline and an output limit. One working
// directory serves every render group of the source (core/sources/plan-source-renders.ts).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChartRef, TemplateSource } from '../../core/model/template-source.js';
import type { SourceRenderGroup } from '../../core/sources/plan-source-renders.js';
import type { RenderTool } from './find-render-tool.js';
import { runTool, type ToolOutcome } from './run-tool.js';
import type { SourceTree } from './source-tree.js';

// Where a chart pulled from a registry is written in the working directory: a hidden name, which
// no repository path a source may name can be (parse-template-source.ts).
const PULLED_CHART = '.pulled-chart.tgz';

/** Limits of one tool run. */
export interface RenderLimits {
  timeoutMs: number;
  maxOutputBytes: number;
}

/**
 * Copies a source's inputs under `work/repo` (and the chart pulled from its registry, if any) and
 * makes the tool's empty home; returns the repo folder.
 */
export async function prepareSourceWork(opts: {
  inputs: readonly string[];
  tree: SourceTree;
  work: string;
  pulledChart?: Buffer | undefined;
}): Promise<string> {
  const repo = join(opts.work, 'repo');
  await mkdir(repo, { recursive: true });
  await mkdir(join(opts.work, 'home', 'plugins'), { recursive: true });
  for (const path of opts.inputs) await opts.tree.copyTo(path, repo);
  if (opts.pulledChart !== undefined) await writeFile(join(repo, PULLED_CHART), opts.pulledChart);
  return repo;
}

/**
 * Returns the whole environment of a tool run: its home, cache, config and plugin folders under
 * `home` (empty and private) and no PATH, so no plugin, post-renderer or credential helper runs.
 */
export function hermeticToolEnv(home: string): Record<string, string> {
  return {
    HOME: home,
    PATH: '/nonexistent',
    HELM_CACHE_HOME: join(home, 'cache'),
    HELM_CONFIG_HOME: join(home, 'config'),
    HELM_DATA_HOME: join(home, 'data'),
    HELM_PLUGINS: join(home, 'plugins'),
    KUSTOMIZE_PLUGIN_HOME: join(home, 'plugins'),
  };
}

/** Returns where a source's chart is under the working directory's `repo` folder. */
export function chartWorkPath(chart: ChartRef): string {
  return 'path' in chart ? chart.path : PULLED_CHART;
}

/** Returns the tool's outcome on a source prepared under `work`, for one group of clusters. */
export async function renderSource(opts: {
  source: TemplateSource;
  group: SourceRenderGroup;
  /** Names this group's values files apart from another group's in the same folder. */
  run: number;
  tool: RenderTool;
  work: string;
  limits: RenderLimits;
}): Promise<ToolOutcome> {
  const { source, work, group } = opts;
  const repo = join(work, 'repo');
  const env = hermeticToolEnv(join(work, 'home'));
  let args: string[];
  if (source.kind === 'HelmSource') {
    // Inline values, then the clusterValues entries that pick the group, each a values file:
    // helm merges them as it merges any values files (maps deeply, the last one wins).
    const valueFiles: string[] = [];
    for (const [i, values] of [source.values, ...group.clusterValues].entries()) {
      const file = join(work, `values-${opts.run}-${i}.json`);
      await writeFile(file, JSON.stringify(values));
      valueFiles.push(file);
    }
    args = [
      'template',
      source.releaseName,
      join(repo, chartWorkPath(source.chart)),
      '--namespace',
      source.namespace,
      '--no-hooks',
      ...source.valuesFiles.flatMap((f) => ['--values', join(repo, f)]),
      ...valueFiles.flatMap((f) => ['--values', f]),
      ...(group.kubeVersion !== undefined ? ['--kube-version', group.kubeVersion] : []),
      ...(group.apiVersions.length > 0 ? ['--api-versions', group.apiVersions.join(',')] : []),
    ];
  } else {
    args = ['build', join(repo, source.path)];
  }
  return runTool({ command: opts.tool.path, args, cwd: work, env, ...opts.limits });
}
