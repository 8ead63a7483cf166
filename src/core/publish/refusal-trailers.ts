// The refused cluster updates a bindings commit records (docs/status.md#refused-deletions): one
// `Gitfleet-Deletion-Refused: <cluster>: <refusal>` line per cluster whose update the
// mass-deletion guard refused in that pass. The deletions are still pending, so the hub does not
// take the source commit as rendered while its bindings head records one: every pass judges it
// again, reports it again, and writes nothing until the refusal is resolved (an allowance, or a
// render that no longer deletes so much). `gitfleet status` shows them.

export const deletionRefusedTrailer = 'Gitfleet-Deletion-Refused';

/** One cluster update the mass-deletion guard refused, and the refusal as the pass reported it. */
export interface RefusedDeletion {
  cluster: string;
  message: string;
}

/** Returns the trailer lines of the refusals, sorted by cluster, each on one line. */
export function refusalTrailerLines(refusals: readonly RefusedDeletion[]): string[] {
  return [...refusals]
    .sort((a, b) => (a.cluster < b.cluster ? -1 : a.cluster > b.cluster ? 1 : 0))
    .map((r) => `${deletionRefusedTrailer}: ${r.cluster}: ${r.message.replace(/\s*\n\s*/g, ' ')}`);
}

/** Returns the refusals of a commit's Gitfleet-Deletion-Refused values; a value without a cluster is skipped. */
export function parseRefusalTrailers(values: readonly string[]): RefusedDeletion[] {
  return values.flatMap((value) => {
    const at = value.indexOf(': ');
    return at > 0 ? [{ cluster: value.slice(0, at), message: value.slice(at + 2) }] : [];
  });
}

/** Whether two lists of refusals say the same (the same clusters, the same messages). */
export function sameRefusals(a: readonly RefusedDeletion[], b: readonly RefusedDeletion[]): boolean {
  const x = refusalTrailerLines(a);
  const y = refusalTrailerLines(b);
  return x.length === y.length && x.every((line, i) => line === y[i]);
}
