// What the hub last wrote on each cluster branch, recorded in the bindings commit of the same
// pass as `Gitfleet-Cluster-Commit: <cluster>=<commit>` trailers (trees hold no commit ids, so
// an unchanged render still gives an unchanged tree). A cluster branch found anywhere else was
// moved by someone else, and the next pass puts it back (loops/hub/plan-pass-writes.ts); the agent
// reads it to trace an eviction's deletion allowance (loops/agent/read-deletion-allowance.ts).

/** The trailer of a bindings commit naming the commit the hub left on a cluster branch. */
export const clusterCommitTrailer = 'Gitfleet-Cluster-Commit';

/** Returns the trailer lines for the given cluster heads, sorted by cluster. */
export function clusterTrailerLines(heads: ReadonlyMap<string, string>): string[] {
  return [...heads]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([cluster, oid]) => `${clusterCommitTrailer}: ${cluster}=${oid}`);
}

/** Returns cluster → commit from the trailers' values (`<cluster>=<commit>`); malformed values are skipped. */
export function parseClusterTrailers(values: readonly string[]): Map<string, string> {
  const heads = new Map<string, string>();
  for (const value of values) {
    const m = /^(.+)=([0-9a-f]{40})$/.exec(value);
    if (m) heads.set(m[1]!, m[2]!);
  }
  return heads;
}

/** Returns whether two cluster → commit maps are equal. */
export function sameClusterHeads(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [cluster, oid] of a) if (b.get(cluster) !== oid) return false;
  return true;
}
