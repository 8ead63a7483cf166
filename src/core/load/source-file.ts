/** One file of a fleet repo, as a source adapter read it. */
export interface SourceFile {
  /** Path relative to the repo root, with '/' separators. */
  path: string;
  /** The file's text (UTF-8 decoded). */
  content: string;
}
