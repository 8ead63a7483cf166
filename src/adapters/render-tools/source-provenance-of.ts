// The provenance the renderer hands with a source's rendered files (docs/sources.md#provenance):
// the source, the chart's name and version (its Chart.yaml) and digest (the git object id of the
// chart in the repository, or the manifest digest of a chart pulled from a registry), or the
// kustomization's path and tree id, the tool and its version, and the render groups.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describeChart, type TemplateSource } from '../../core/model/template-source.js';
import type { SourceProvenance } from '../../core/model/source-provenance.js';
import type { SourceRenderGroup } from '../../core/sources/plan-source-renders.js';
import { packagedChartMetadata, parseChartYaml, type ChartMetadata } from './chart-metadata.js';
import type { RenderTool } from './find-render-tool.js';
import type { SourceTree } from './source-tree.js';
import type { SourceWork } from './source-work.js';

/** Returns a source's provenance from what its render used. */
export function sourceProvenanceOf(opts: {
  source: TemplateSource;
  tool: RenderTool;
  /** Input path → its digest (source-renderer.ts inputDigests); absent when an input held nothing. */
  digests: ReadonlyMap<string, string> | undefined;
  /** The manifest digest of a chart pulled from a registry. */
  pulledDigest: string | undefined;
  chart: ChartMetadata;
  groups: readonly SourceRenderGroup[];
}): SourceProvenance {
  const { source, digests } = opts;
  const base = { kind: source.kind, name: source.name, file: source.source.file };
  const tool = `${opts.tool.name} ${opts.tool.version}`;
  const groups = opts.groups.length > 1 ? { groups: opts.groups.map((g) => [...g.clusters]) } : {};
  if (source.kind === 'KustomizeSource') {
    const digest = digests?.get(source.path);
    return { ...base, kustomization: { path: source.path, ...(digest ? { digest } : {}) }, tool, ...groups };
  }
  const digest = 'path' in source.chart ? digests?.get(source.chart.path) : opts.pulledDigest;
  return {
    ...base,
    chart: { ref: describeChart(source.chart), ...opts.chart, ...(digest ? { digest } : {}) },
    tool,
    ...groups,
  };
}

/**
 * Returns what a HelmSource's Chart.yaml names: read from the repository for a chart directory
 * (no working directory needed), from the archive for a packaged or pulled chart.
 */
export async function readChartMetadata(opts: {
  source: TemplateSource & { kind: 'HelmSource' };
  tree: SourceTree;
  work: SourceWork;
  pulled: Buffer | undefined;
}): Promise<ChartMetadata> {
  const { chart } = opts.source;
  if (!('path' in chart)) return opts.pulled ? packagedChartMetadata(opts.pulled) : {};
  if (!chart.path.endsWith('.tgz'))
    return parseChartYaml(await opts.tree.readText(`${chart.path}/Chart.yaml`));
  const bytes = await readFile(join(await opts.work.dir(), chart.path)).catch(() => undefined);
  return bytes ? packagedChartMetadata(bytes) : {};
}
