// Renders the fleet's template sources (docs/sources.md) into files the loader reads as templates.
// A render is cached by a hash of every input (render-cache-key below): the digests of the paths
// it reads, its values, release and namespace, and the tool's version. An unchanged source costs
// no tool run on the next pass; the cache keeps what the last pass used.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadError, RenderedFile } from '../../core/load/load-fleet.js';
import type { LoadedTemplateSource } from '../../core/model/fleet.js';
import type { TemplateSource } from '../../core/model/template-source.js';
import { kustomizeOutputFile, splitHelmOutput } from '../../core/sources/split-rendered-output.js';
import {
  locateRenderTool,
  probeRenderTool,
  type RenderTool,
  type RenderToolName,
} from './find-render-tool.js';
import { renderSource, type RenderLimits } from './render-source.js';
import type { SourceTree } from './source-tree.js';
import type { ToolOutcome } from './run-tool.js';

export interface SourceRendererOptions {
  /** Paths of the tools (flags); else GITFLEET_HELM / GITFLEET_KUSTOMIZE, else PATH. */
  helm?: string;
  kustomize?: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Per tool run. Default 60 s. */
  timeoutMs?: number;
  /** Output of one tool run. Default 64 MiB. */
  maxOutputBytes?: number;
}

/** What the sources rendered, or why some did not. */
export interface SourcesRendered {
  files: RenderedFile[];
  errors: LoadError[];
  /** Tool runs made, and renders taken from the cache. */
  runs: number;
  reused: number;
}

type Rendered = { ok: true; files: RenderedFile[] } | { ok: false; message: string };

/** Renders template sources with the real tools, caching by inputs. */
export class SourceRenderer {
  private readonly tools = new Map<RenderToolName, Promise<RenderTool | { missing: string }>>();
  private cache = new Map<string, Rendered>();
  private readonly limits: RenderLimits;

  constructor(private readonly opts: SourceRendererOptions) {
    this.limits = {
      timeoutMs: opts.timeoutMs ?? 60_000,
      maxOutputBytes: opts.maxOutputBytes ?? 64 * 1024 * 1024,
    };
  }

  /** Returns the tool a kind of source needs, found and asked its version once. */
  tool(name: RenderToolName): Promise<RenderTool | { missing: string }> {
    let found = this.tools.get(name);
    if (found === undefined) {
      const where = locateRenderTool(name, {
        ...(this.opts[name] ? { path: this.opts[name] } : {}),
        env: this.opts.env,
      });
      found = 'missing' in where ? Promise.resolve(where) : probeRenderTool(name, where.path);
      this.tools.set(name, found);
    }
    return found;
  }

  /** Returns the files every source renders, or each source's error (naming its document). */
  async renderAll(sources: readonly LoadedTemplateSource[], tree: SourceTree): Promise<SourcesRendered> {
    const out: SourcesRendered = { files: [], errors: [], runs: 0, reused: 0 };
    const used = new Map<string, Rendered>();
    for (const { source, inputs } of sources) {
      const tool = await this.tool(source.kind === 'HelmSource' ? 'helm' : 'kustomize');
      let rendered: Rendered;
      if ('missing' in tool) rendered = { ok: false, message: tool.missing };
      else {
        const key = await renderKey(source, inputs, tool, tree);
        const cached = key === undefined ? undefined : this.cache.get(key);
        if (cached) out.reused++;
        else out.runs++;
        rendered = cached ?? (await this.run(source, inputs, tool, tree));
        if (key !== undefined && rendered.ok) used.set(key, rendered);
      }
      if (rendered.ok) out.files.push(...rendered.files);
      else out.errors.push(sourceError(source, rendered.message));
    }
    this.cache = used;
    return out;
  }

  private async run(
    source: TemplateSource,
    inputs: readonly string[],
    tool: RenderTool,
    tree: SourceTree,
  ): Promise<Rendered> {
    if (source.kind === 'HelmSource' && source.clusterValues.length > 0)
      return {
        ok: false,
        message: 'spec.clusterValues: per-cluster values are not rendered yet (docs/sources.md)',
      };
    const work = await mkdtemp(join(tmpdir(), 'gitfleet-render-'));
    try {
      const outcome = await renderSource({ source, inputs, tool, tree, work, limits: this.limits });
      if (outcome.type !== 'ok')
        return { ok: false, message: describeFailure(outcome, tool, this.limits, `${work}/repo/`) };
      const files =
        source.kind === 'HelmSource'
          ? splitHelmOutput(outcome.stdout, source)
          : [kustomizeOutputFile(outcome.stdout, source)];
      return { ok: true, files };
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }
}

// Every input of a render: a source whose key is the same renders to the same files. Undefined
// when an input path holds nothing (the tool then says what is missing; nothing is cached).
async function renderKey(
  source: TemplateSource,
  inputs: readonly string[],
  tool: RenderTool,
  tree: SourceTree,
): Promise<string | undefined> {
  const digests: string[] = [];
  for (const path of inputs) {
    const digest = await tree.digest(path);
    if (digest === undefined) return undefined;
    digests.push(`${path}=${digest}`);
  }
  const { source: at, ...spec } = source;
  const identity = JSON.stringify({ tool: `${tool.name} ${tool.version}`, file: at.file, spec, digests });
  return createHash('sha256').update(identity).digest('hex');
}

function describeFailure(
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

function sourceError(source: TemplateSource, message: string): LoadError {
  const { file, index, line } = source.source;
  const what = source.kind === 'HelmSource' ? `chart ${source.chart.path}` : `kustomization ${source.path}`;
  return {
    code: 'SourceRenderFailed',
    file,
    index,
    ...(line !== undefined ? { line } : {}),
    message: `${source.kind}/${source.name}: ${what}: ${message}`,
  };
}
