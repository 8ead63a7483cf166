/**
 * The trailer a source commit carries to allow the mass-deletion guard to pass, e.g.
 * `Gitfleet-Allow-Deletions: member1, member2` or `Gitfleet-Allow-Deletions: all`.
 */
export const allowDeletionsTrailer = 'Gitfleet-Allow-Deletions';
export const sourceCommitTrailer = 'Gitfleet-Source-Commit';
export const sourceRefTrailer = 'Gitfleet-Source-Ref';
/** On a cluster commit that puts the render back: the commit another writer had moved the branch to. */
export const restoredFromTrailer = 'Gitfleet-Restored-From';

/**
 * On a cluster commit that changes imported or dispatched EndpointSlices: the exporting cluster
 * and Service they came from, one trailer each, e.g. `Gitfleet-Endpoints-From: member1 shop/web`.
 */
export const endpointsFromTrailer = 'Gitfleet-Endpoints-From';

/** Returns the trailers of a commit message (the last paragraph of `Key: value` lines), key → values. */
export function parseTrailers(message: string): Map<string, string[]> {
  const paragraphs = message.trimEnd().split(/\n\s*\n/);
  const last = paragraphs[paragraphs.length - 1] ?? '';
  const trailers = new Map<string, string[]>();
  if (paragraphs.length < 2) return trailers;
  for (const line of last.split('\n')) {
    const m = /^([A-Za-z0-9][A-Za-z0-9-]*):\s*(.*)$/.exec(line);
    if (!m) return new Map();
    const values = trailers.get(m[1]!) ?? [];
    values.push(m[2]!.trim());
    trailers.set(m[1]!, values);
  }
  return trailers;
}

/** Returns a predicate telling whether a source commit's message allows large deletions on a cluster. */
export function deletionsAllowedBy(message: string): (cluster: string) => boolean {
  const allowed = new Set(
    (parseTrailers(message).get(allowDeletionsTrailer) ?? []).flatMap((v) =>
      v.split(/[,\s]+/).filter((s) => s.length > 0),
    ),
  );
  return (cluster) => allowed.has('all') || allowed.has(cluster);
}
