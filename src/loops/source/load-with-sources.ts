// Loading a fleet whose repository holds template sources (docs/sources.md): load the fleet's
// own files (the sources' input paths are skipped, not read as templates), render every
// HelmSource and KustomizeSource with its tool (once per group of clusters whose per-cluster
// inputs are the same), then load again with the first group's rendered files, which the load
// memo makes cost only what the sources added, and give the templates another group renders
// differently their per-cluster content. A source that fails to render fails the load, naming
// its document: the hub then keeps the last good render, as for any load error.
import type { LoadResult, RenderedFile, SourceFile, LoadError } from '../../core/load/load-fleet.js';
import type { Cluster, ClusterStatus } from '../../core/model/cluster.js';
import type { Fleet, LoadedTemplateSource } from '../../core/model/fleet.js';
import type { SourceProvenance } from '../../core/model/source-provenance.js';
import {
  attachSourceVariants,
  type SourceVariant,
  type VariantMemo,
} from '../../core/sources/attach-source-variants.js';

/** Renders template sources (adapters/render-tools/source-renderer.ts implements it). */
export interface TemplateSourceRenderer<Tree> {
  renderAll(
    sources: readonly LoadedTemplateSource[],
    tree: Tree,
    facts?: { clusters: readonly Cluster[]; status: ReadonlyMap<string, ClusterStatus> },
  ): Promise<{
    files: RenderedFile[];
    variants: SourceVariant[];
    errors: LoadError[];
    /** Rendered file → where its objects came from (docs/sources.md#provenance). */
    provenance?: ReadonlyMap<string, SourceProvenance>;
  }>;
  /** Keeps templates with the same variants the same objects from one load to the next. */
  readonly variantMemo?: VariantMemo;
}

/** Returns the fleet with its sources' output loaded as templates, or every error of either load. */
export async function loadWithSources<Tree>(opts: {
  files: readonly SourceFile[];
  /** One load (the caller's options and memo), with the rendered files to add. */
  load: (files: readonly SourceFile[], rendered?: readonly RenderedFile[]) => LoadResult;
  renderer: TemplateSourceRenderer<Tree> | undefined;
  /** The revision's files, binary ones included, read lazily: only when there are sources. */
  tree: () => Tree;
  /**
   * What each cluster reported (kubernetesVersion, apiEnablements), read only when there are
   * sources: Helm's `.Capabilities` per cluster. None: Helm's defaults for every cluster.
   */
  clusterStatus?: (fleet: Fleet) => Promise<ReadonlyMap<string, ClusterStatus>>;
}): Promise<LoadResult> {
  const first = opts.load(opts.files);
  if (!first.ok || first.fleet.templateSources === undefined) return first;
  const failed = (errors: LoadError[]): LoadResult => ({ ...first, ok: false, errors });
  if (opts.renderer === undefined) {
    const { source } = first.fleet.templateSources[0]!;
    return failed([
      {
        code: 'SourceRenderFailed',
        ...source.source,
        message: `${source.kind}/${source.name}: this command does not render template sources`,
      },
    ]);
  }
  const needsStatus = first.fleet.templateSources.some((s) => s.source.kind === 'HelmSource');
  const status = needsStatus && opts.clusterStatus ? await opts.clusterStatus(first.fleet) : new Map();
  const rendered = await opts.renderer.renderAll(first.fleet.templateSources, opts.tree(), {
    clusters: first.fleet.clusters,
    status,
  });
  if (rendered.errors.length > 0) return failed(rendered.errors);
  const loaded = opts.load(opts.files, rendered.files);
  if (!loaded.ok) return loaded;
  const attached = attachSourceVariants(loaded.fleet, rendered.variants, opts.renderer.variantMemo);
  if (!attached.ok) return { ...loaded, ok: false, errors: attached.errors };
  const provenance = rendered.provenance;
  return {
    ...loaded,
    fleet: provenance ? { ...attached.fleet, sourceProvenance: provenance } : attached.fleet,
  };
}
