// Renders one template source with its tool in a working directory of its own: the source's
// input paths copied from the revision being rendered, the tool run hermetically (its home,
// cache, config and plugin folders empty and private, no PATH, so no plugin, post-renderer or
// credential helper of the hub's can run), with a deadline and an output limit.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TemplateSource } from '../../core/model/template-source.js';
import type { RenderTool } from './find-render-tool.js';
import { runTool, type ToolOutcome } from './run-tool.js';
import type { SourceTree } from './source-tree.js';

/** Limits of one tool run. */
export interface RenderLimits {
  timeoutMs: number;
  maxOutputBytes: number;
}

/** Returns the tool's outcome on a source whose inputs are copied under `work`. */
export async function renderSource(opts: {
  source: TemplateSource;
  inputs: readonly string[];
  tool: RenderTool;
  tree: SourceTree;
  work: string;
  limits: RenderLimits;
}): Promise<ToolOutcome> {
  const { source, work } = opts;
  const repo = join(work, 'repo');
  const home = join(work, 'home');
  await mkdir(repo, { recursive: true });
  await mkdir(join(home, 'plugins'), { recursive: true });
  for (const path of opts.inputs) await opts.tree.copyTo(path, repo);
  const env: Record<string, string> = {
    HOME: home,
    PATH: '/nonexistent',
    HELM_CACHE_HOME: join(home, 'cache'),
    HELM_CONFIG_HOME: join(home, 'config'),
    HELM_DATA_HOME: join(home, 'data'),
    HELM_PLUGINS: join(home, 'plugins'),
    KUSTOMIZE_PLUGIN_HOME: join(home, 'plugins'),
  };
  let args: string[];
  if (source.kind === 'HelmSource') {
    const inline = join(work, 'values.json');
    await writeFile(inline, JSON.stringify(source.values));
    args = [
      'template',
      source.releaseName,
      join(repo, source.chart.path),
      '--namespace',
      source.namespace,
      '--no-hooks',
      ...source.valuesFiles.flatMap((f) => ['--values', join(repo, f)]),
      '--values',
      inline,
    ];
  } else {
    args = ['build', join(repo, source.path)];
  }
  return runTool({ command: opts.tool.path, args, cwd: work, env, ...opts.limits });
}
