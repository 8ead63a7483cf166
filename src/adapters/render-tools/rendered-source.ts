// What one render of a source gave, as the renderer keeps it (in memory and in the render store),
// and the words of a render that failed: the tool's own last lines, the working directory cut
// out so chart files read as repository paths, under the source document's name.
import type { LoadError, RenderedFile } from '../../core/load/load-fleet.js';
import { describeChart, type TemplateSource } from '../../core/model/template-source.js';
import type { RenderTool } from './find-render-tool.js';
import type { RenderLimits } from './render-source.js';
import type { ToolOutcome } from './run-tool.js';
import type { ChartTraits } from './scan-chart.js';

/** One render's files (and the tool's whole output, to compare groups), or why it failed. */
export type Rendered = { ok: true; files: RenderedFile[]; text: string } | { ok: false; message: string };

/** Returns why a tool run failed, in words. */
export function describeFailure(
  outcome: Exclude<ToolOutcome, { type: 'ok' }>,
  tool: RenderTool,
  limits: RenderLimits,
  workPrefix: string,
): string {
  const said = outcome.stderr.split(workPrefix).join('').trim().split('\n').slice(-5).join('; ');
  switch (outcome.type) {
    case 'timeout':
      return `${tool.name} ${tool.version} ran past ${limits.timeoutMs / 1000} s and was stopped`;
    case 'tooLarge':
      return `${tool.name} ${tool.version} wrote more than ${limits.maxOutputBytes} bytes and was stopped`;
    case 'notFound':
      return `${tool.name}: ${tool.path} could not be run: ${said}`;
    case 'failed':
      return `${tool.name} ${tool.version} failed: ${said}`;
  }
}

/** Returns the load error of a source that did not render. */
export function sourceError(source: TemplateSource, message: string): LoadError {
  const { file, index, line } = source.source;
  const what =
    source.kind === 'HelmSource' ? `chart ${describeChart(source.chart)}` : `kustomization ${source.path}`;
  return {
    code: 'SourceRenderFailed',
    file,
    index,
    ...(line !== undefined ? { line } : {}),
    message: `${source.kind}/${source.name}: ${what}: ${message}`,
  };
}

/** Returns whether a value read back from the store is chart traits. */
export function isChartTraits(value: unknown): value is ChartTraits {
  const v = value as Partial<ChartTraits> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.readsCapabilities === 'boolean' &&
    Array.isArray(v.nondeterministic) &&
    v.nondeterministic.every((f) => typeof f === 'string')
  );
}

/** Returns whether a value read back from the store is a whole render. */
export function isRendered(value: unknown): value is Rendered {
  const v = value as { ok?: unknown; text?: unknown; files?: unknown } | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    v.ok === true &&
    typeof v.text === 'string' &&
    Array.isArray(v.files) &&
    v.files.every(
      (f: { path?: unknown; content?: unknown; namespace?: unknown } | null) =>
        typeof f === 'object' &&
        f !== null &&
        typeof f.path === 'string' &&
        typeof f.content === 'string' &&
        (f.namespace === undefined || typeof f.namespace === 'string'),
    )
  );
}
