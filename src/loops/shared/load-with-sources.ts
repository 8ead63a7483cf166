// Loading a fleet whose repository holds template sources (docs/sources.md): load the fleet's
// own files (the sources' input paths are skipped, not read as templates), render every
// HelmSource and KustomizeSource with its tool, then load again with the rendered files, which
// the load memo makes cost only what the sources added. A source that fails to render fails the
// load, naming its document: the hub then keeps the last good render, as for any load error.
import type { LoadResult, RenderedFile, SourceFile, LoadError } from '../../core/load/load-fleet.js';
import type { LoadedTemplateSource } from '../../core/model/fleet.js';

/** Renders template sources (adapters/render-tools/source-renderer.ts implements it). */
export interface TemplateSourceRenderer<Tree> {
  renderAll(
    sources: readonly LoadedTemplateSource[],
    tree: Tree,
  ): Promise<{ files: RenderedFile[]; errors: LoadError[] }>;
}

/** Returns the fleet with its sources' output loaded as templates, or every error of either load. */
export async function loadWithSources<Tree>(opts: {
  files: readonly SourceFile[];
  /** One load (the caller's options and memo), with the rendered files to add. */
  load: (files: readonly SourceFile[], rendered?: readonly RenderedFile[]) => LoadResult;
  renderer: TemplateSourceRenderer<Tree> | undefined;
  /** The revision's files, binary ones included, read lazily: only when there are sources. */
  tree: () => Tree;
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
  const rendered = await opts.renderer.renderAll(first.fleet.templateSources, opts.tree());
  if (rendered.errors.length > 0) return failed(rendered.errors);
  return opts.load(opts.files, rendered.files);
}
