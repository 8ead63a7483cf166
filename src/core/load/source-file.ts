/** One file of a fleet repo, as a source adapter read it. */
export interface SourceFile {
  /** Path relative to the repo root, with '/' separators. */
  path: string;
  /** The file's text (UTF-8 decoded). */
  content: string;
}

/** A file a template source rendered (loops/source/load-with-sources.ts), loaded after the fleet's own. */
export interface RenderedFile extends SourceFile {
  /** The release namespace of a HelmSource's output: namespaced objects written without one go there. */
  namespace?: string;
}
