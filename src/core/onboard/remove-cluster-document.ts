// The text of a fleet file without one Cluster document (`gitfleet cluster leave`): the file is
// cut into its documents at `---` lines, the one that is the Cluster of that name goes with its
// separator, and every other byte stays as it was, comments included. The caller loads the
// result to make sure it holds what it held less that one document.
import * as jsyaml from 'js-yaml';

/** What removing the document leaves: no file (it held only that document), the file's new text, or nothing found. */
export type RemovedDocument = { type: 'file' } | { type: 'text'; text: string } | { type: 'notFound' };

/** Returns the file's text without the Cluster document named `cluster`. */
export function removeClusterDocument(text: string, cluster: string): RemovedDocument {
  const chunks = splitDocuments(text);
  const at = chunks.findIndex((chunk) => isCluster(chunk, cluster));
  if (at < 0) return { type: 'notFound' };
  const rest = chunks.filter((_, i) => i !== at);
  if (rest.every((chunk) => isEmpty(chunk))) return { type: 'file' };
  let joined = rest.join('');
  // The first document lost its separator only if it had one; a file that began with `---` keeps it.
  if (at === 0 && !chunks[0]!.startsWith('---') && /^---[ \t]*\r?\n/.test(joined))
    joined = joined.replace(/^---[ \t]*\r?\n/, '');
  return { type: 'text', text: joined };
}

// Each chunk starts at its `---` line (the first may have none) and runs to the next one.
function splitDocuments(text: string): string[] {
  const chunks: string[] = [];
  let start = 0;
  const separator = /^---(?:[ \t].*)?$/gm;
  for (const m of text.matchAll(separator)) {
    if (m.index === 0) continue;
    chunks.push(text.slice(start, m.index));
    start = m.index;
  }
  chunks.push(text.slice(start));
  return chunks;
}

function parse(chunk: string): unknown {
  try {
    return jsyaml.load(chunk.replace(/^---[ \t]*/, ''));
  } catch {
    return undefined;
  }
}

function isCluster(chunk: string, name: string): boolean {
  const value = parse(chunk) as { kind?: unknown; metadata?: { name?: unknown } } | null | undefined;
  return value?.kind === 'Cluster' && value.metadata?.name === name;
}

function isEmpty(chunk: string): boolean {
  return parse(chunk) === null || parse(chunk) === undefined;
}
