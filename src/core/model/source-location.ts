/** Where a document came from in the fleet repo. */
export interface SourceLocation {
  /** Path relative to the repo root, with forward slashes. */
  readonly file: string;
  /** Zero-based index of the document in the file's YAML stream. */
  readonly index: number;
  /** One-based line where the document starts, when known. */
  readonly line?: number;
}

/** Returns `file#index` (and the line when known) for messages. */
export function locationLabel(at: SourceLocation): string {
  return at.line === undefined ? `${at.file}#${at.index}` : `${at.file}#${at.index} (line ${at.line})`;
}
