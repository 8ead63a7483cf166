// Renders the fleet's template sources (docs/sources.md) into files the loader reads as templates.
// A render is cached by a hash of every input (render-cache-key below): the digests of the paths
// it reads, its values, release and namespace, and the tool's version. An unchanged source costs
// no tool run on the next pass; the cache keeps what the last pass used.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { LoadError, RenderedFile } from '../../core/load/load-fleet.js';
import type { Cluster, ClusterStatus } from '../../core/model/cluster.js';
import type { LoadedTemplateSource } from '../../core/model/fleet.js';
import type { TemplateSource } from '../../core/model/template-source.js';
import type { SourceVariant, VariantMemo } from '../../core/sources/attach-source-variants.js';
import { describeNondeterminism } from '../../core/sources/compare-renders.js';
import { planSourceRenders, type SourceRenderGroup } from '../../core/sources/plan-source-renders.js';
import { kustomizeOutputFile, splitHelmOutput } from '../../core/sources/split-rendered-output.js';
import {
  locateRenderTool,
  probeRenderTool,
  type RenderTool,
  type RenderToolName,
} from './find-render-tool.js';
import { chartWorkPath, renderSource, type RenderLimits } from './render-source.js';
import { PulledCharts, type ChartKeys } from './pulled-charts.js';
import { readChartCredentials } from './chart-credentials.js';
import { scanChart, type ChartTraits } from './scan-chart.js';
import { SourceWork } from './source-work.js';
import { RenderStore } from './render-store.js';
import { describeFailure, isChartTraits, isRendered, sourceError, type Rendered } from './rendered-source.js';
import type { SourceTree } from './source-tree.js';
import type { SourceProvenance } from '../../core/model/source-provenance.js';
import type { ChartMetadata } from './chart-metadata.js';
import { readChartMetadata, sourceProvenanceOf } from './source-provenance-of.js';

export interface SourceRendererOptions {
  /** Paths of the tools (flags); else GITFLEET_HELM / GITFLEET_KUSTOMIZE, else PATH. */
  helm?: string;
  kustomize?: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Per tool run. Default 60 s. */
  timeoutMs?: number;
  /** Output of one tool run. Default 64 MiB. */
  maxOutputBytes?: number;
  /** The --chart-credentials file (chart-credentials.ts), read again at each pull; absent: anonymous pulls. */
  chartCredentials?: string;
}

/** What the sources rendered, or why some did not. */
export interface SourcesRendered {
  /** Each source's output for its first group of clusters (all of them, when it renders once). */
  files: RenderedFile[];
  /** Each source's output for its other groups, where it differs (core/sources/attach-source-variants.ts). */
  variants: SourceVariant[];
  errors: LoadError[];
  /** Rendered file → where its objects came from (docs/sources.md#provenance). */
  provenance: Map<string, SourceProvenance>;
  /** Tool runs made, and renders taken from the cache. */
  runs: number;
  reused: number;
}

/** The fleet's clusters and what each reported: the per-cluster inputs of a render. */
export interface ClusterFacts {
  clusters: readonly Cluster[];
  status: ReadonlyMap<string, ClusterStatus>;
}

/** Renders template sources with the real tools, caching by inputs. */
export class SourceRenderer {
  private readonly tools = new Map<RenderToolName, Promise<RenderTool | { missing: string }>>();
  private cache = new Map<string, Rendered>();
  private traits = new Map<string, ChartTraits>();
  /** What each chart's Chart.yaml names, by the source's render key. */
  private chartYamls = new Map<string, ChartMetadata>();
  private readonly limits: RenderLimits;
  private store: RenderStore | undefined;
  /** Charts pulled from OCI registries and chart repositories, kept by digest (in the store too, when there is one). */
  readonly charts: PulledCharts;
  /** Keeps a template with the same variants the same object from pass to pass (the render memo keys on identity). */
  readonly variantMemo: VariantMemo = new WeakMap();

  constructor(private readonly opts: SourceRendererOptions) {
    this.limits = {
      timeoutMs: opts.timeoutMs ?? 60_000,
      maxOutputBytes: opts.maxOutputBytes ?? 64 * 1024 * 1024,
    };
    const file = opts.chartCredentials;
    this.charts = new PulledCharts(
      () => this.store,
      file === undefined ? undefined : () => readChartCredentials(file),
    );
  }

  /** Keeps the renders in a directory too, so a restarted hub renders nothing that did not change (render-store.ts). */
  persistIn(dir: string): void {
    this.store = new RenderStore(dir);
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

  /**
   * Returns the files every source renders, or each source's error (naming its document). A
   * HelmSource renders once per group of clusters whose per-cluster inputs are the same.
   */
  async renderAll(
    sources: readonly LoadedTemplateSource[],
    tree: SourceTree,
    facts: ClusterFacts = { clusters: [], status: new Map() },
  ): Promise<SourcesRendered> {
    const out: SourcesRendered = {
      files: [],
      variants: [],
      errors: [],
      provenance: new Map(),
      runs: 0,
      reused: 0,
    };
    const used = {
      renders: new Map<string, Rendered>(),
      traits: new Map<string, ChartTraits>(),
      charts: new Map<string, ChartMetadata>(),
    };
    const charts: ChartKeys = new Map();
    for (const loaded of sources) {
      const { source } = loaded;
      const tool = await this.tool(source.kind === 'HelmSource' ? 'helm' : 'kustomize');
      if ('missing' in tool) {
        out.errors.push(sourceError(source, tool.missing));
        continue;
      }
      const pulled =
        source.kind === 'HelmSource' && !('path' in source.chart)
          ? await this.charts.get(source.chart, { tool, limits: this.limits, used: charts })
          : undefined;
      if (pulled?.ok === false) {
        out.errors.push(sourceError(source, pulled.message));
        continue;
      }
      const work = new SourceWork(loaded.inputs, tree, pulled?.bytes);
      try {
        await this.renderGroups({ loaded, tool, tree, work, facts, used, out, pulled });
      } finally {
        await work.remove();
      }
    }
    this.cache = used.renders;
    this.traits = used.traits;
    this.chartYamls = used.charts;
    this.charts.keepOnly(charts);
    await this.store?.keepOnly(
      new Map([['traits', new Set(used.traits.keys())], ['render', new Set(used.renders.keys())], ...charts]),
    );
    return out;
  }

  private async renderGroups(opts: {
    loaded: LoadedTemplateSource;
    tool: RenderTool;
    tree: SourceTree;
    work: SourceWork;
    facts: ClusterFacts;
    used: {
      renders: Map<string, Rendered>;
      traits: Map<string, ChartTraits>;
      charts: Map<string, ChartMetadata>;
    };
    out: SourcesRendered;
    /** A chart pulled from a registry: its digest is an input as the repository's paths are. */
    pulled: { digest: string; bytes: Buffer } | undefined;
  }): Promise<void> {
    const { loaded, tool, work, used, out } = opts;
    const { source } = loaded;
    const digests = await inputDigests(loaded.inputs, opts.tree);
    const baseKey = digests && renderKey({ source, tool, digests, chart: opts.pulled?.digest });
    let traits = baseKey === undefined ? undefined : this.traits.get(baseKey);
    if (traits === undefined && baseKey !== undefined)
      traits = await this.store?.get('traits', baseKey, isChartTraits);
    if (traits === undefined && source.kind === 'HelmSource') {
      traits = await scanChart(join(await work.dir(), chartWorkPath(source.chart)));
      if (baseKey !== undefined) await this.store?.put('traits', baseKey, traits);
    }
    traits ??= { readsCapabilities: false, nondeterministic: [] };
    if (baseKey !== undefined) used.traits.set(baseKey, traits);
    const groups = planSourceRenders({ source, ...opts.facts, readsCapabilities: traits.readsCapabilities });
    const rendered: Rendered[] = [];
    for (const [run, group] of groups.entries()) {
      const key = baseKey === undefined ? undefined : digestOf(`${baseKey}\u0000${group.identity}`);
      const cached =
        key === undefined
          ? undefined
          : (this.cache.get(key) ?? (await this.store?.get('render', key, isRendered)));
      if (cached) out.reused++;
      else out.runs += traits.nondeterministic.length > 0 ? 2 : 1;
      const made = cached ?? (await this.run({ source, group, run, tool, work, traits }));
      if (key !== undefined && made.ok) used.renders.set(key, made);
      if (key !== undefined && made.ok && !cached) await this.store?.put('render', key, made);
      if (!made.ok) {
        const who = groups.length > 1 ? `for ${group.clusters.join(', ')}: ` : '';
        out.errors.push(sourceError(source, who + made.message));
        return;
      }
      rendered.push(made);
    }
    const [first, ...others] = rendered as Extract<Rendered, { ok: true }>[];
    out.files.push(...first!.files);
    const provenance = await this.provenanceOf({ ...opts, key: baseKey, digests, groups });
    for (const file of first!.files) out.provenance.set(file.path, provenance);
    const base = { clusters: groups[0]!.clusters, files: first!.files };
    others.forEach((r, i) => {
      if (r.text !== first!.text)
        out.variants.push({ source, base, clusters: groups[i + 1]!.clusters, files: r.files });
    });
  }

  // Where the source's objects came from (source-provenance-of.ts); its Chart.yaml read once per render key.
  private async provenanceOf(opts: {
    loaded: LoadedTemplateSource;
    tool: RenderTool;
    tree: SourceTree;
    work: SourceWork;
    used: { charts: Map<string, ChartMetadata> };
    pulled: { digest: string; bytes: Buffer } | undefined;
    key: string | undefined;
    digests: ReadonlyMap<string, string> | undefined;
    groups: readonly SourceRenderGroup[];
  }): Promise<SourceProvenance> {
    const { source } = opts.loaded;
    let chart: ChartMetadata = {};
    if (source.kind === 'HelmSource') {
      const known = opts.key === undefined ? undefined : this.chartYamls.get(opts.key);
      chart = known ?? (await readChartMetadata({ ...opts, source, pulled: opts.pulled?.bytes }));
      if (opts.key !== undefined) opts.used.charts.set(opts.key, chart);
    }
    return sourceProvenanceOf({ ...opts, source, chart, pulledDigest: opts.pulled?.digest });
  }

  private async run(opts: {
    source: TemplateSource;
    group: SourceRenderGroup;
    run: number;
    tool: RenderTool;
    work: SourceWork;
    traits: ChartTraits;
  }): Promise<Rendered> {
    const { source, tool } = opts;
    const work = await opts.work.dir();
    const once = () => renderSource({ ...opts, work: opts.work.root, limits: this.limits });
    const outcome = await once();
    if (outcome.type !== 'ok')
      return { ok: false, message: describeFailure(outcome, tool, this.limits, `${work}/`) };
    // A chart that calls a run-to-run function is rendered twice: different output is an error.
    if (opts.traits.nondeterministic.length > 0) {
      const again = await once();
      if (again.type !== 'ok')
        return { ok: false, message: describeFailure(again, tool, this.limits, `${work}/`) };
      const changed = describeNondeterminism(outcome.stdout, again.stdout, opts.traits.nondeterministic);
      if (changed !== undefined) return { ok: false, message: changed };
    }
    const files =
      source.kind === 'HelmSource'
        ? splitHelmOutput(outcome.stdout, source)
        : [kustomizeOutputFile(outcome.stdout, source)];
    return { ok: true, files, text: outcome.stdout };
  }
}

// The digest of every input path of a source; undefined when one holds nothing (the tool then
// says what is missing; nothing is cached).
async function inputDigests(
  inputs: readonly string[],
  tree: SourceTree,
): Promise<Map<string, string> | undefined> {
  const digests = new Map<string, string>();
  for (const path of inputs) {
    const digest = await tree.digest(path);
    if (digest === undefined) return undefined;
    digests.set(path, digest);
  }
  return digests;
}

// Every input of a render: a source whose key is the same renders to the same files.
function renderKey(opts: {
  source: TemplateSource;
  tool: RenderTool;
  digests: ReadonlyMap<string, string>;
  chart: string | undefined;
}): string {
  const { source, tool } = opts;
  const digests: string[] = opts.chart === undefined ? [] : [`chart=${opts.chart}`];
  for (const [path, digest] of opts.digests) digests.push(`${path}=${digest}`);
  // clusterValues are not: each group's key adds the entries that pick it (plan-source-renders.ts),
  // so new values for one cluster render only its group again.
  const { source: at, ...all } = source;
  const spec = all.kind === 'HelmSource' ? { ...all, clusterValues: undefined } : all;
  return digestOf(JSON.stringify({ tool: `${tool.name} ${tool.version}`, file: at.file, spec, digests }));
}

function digestOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
