// What the hub writes when a cluster branch changes repository (docs/git-budget.md#render-repositories):
// a label changed, a render repository was added or removed. The new repository gets the branch
// with its history continued (the first commit there has the hub's last commit in the old
// repository as its parent), so the branch's root commit, which an agent without --fleet takes
// as the fleet's identity, stays the same; the old repository gets a tombstone whose commit
// names the new one, so an agent still reading there stops applying and deletes nothing.
import { sourceCommitTrailer, sourceRefTrailer } from './commit-trailers.js';
import { tombstoneText } from './tombstone.js';

/** On the first commit in the new repository: `<where it was> <the hub's last commit there>`. */
export const movedFromTrailer = 'Gitfleet-Moved-From';
/** On the tombstone in the old repository: where the branch lives now. */
export const movedToTrailer = 'Gitfleet-Moved-To';
/**
 * On a bindings commit: `<cluster>: <why>`, a cluster whose render repository could not be read
 * or written, so its branch and its records stay as they were; while the head names one, the
 * hub does not take the source commit as rendered and tries again at every pass.
 */
export const renderHeldTrailer = 'Gitfleet-Render-Held';

/** How a repository is named in these trailers: its URL or path, or `fleet-repository`. */
export function locationName(url: string | undefined): string {
  return url ?? 'fleet-repository';
}

/** Returns the text of the tombstone left where a cluster's branch was before it moved. */
export function movedTombstoneText(cluster: string): string {
  return tombstoneText(cluster, {
    reason: 'Moved',
    message:
      "The cluster's branch moved to another repository (this commit's Gitfleet-Moved-To trailer names it). Agents stop applying this branch and delete nothing.",
  });
}

/** Returns the message of the tombstone commit left in the old repository. */
export function movedTombstoneMessage(opts: {
  cluster: string;
  to: string | undefined;
  sourceCommit: string;
  sourceRef: string;
}): string {
  const to = locationName(opts.to);
  return [
    `tombstone: cluster ${opts.cluster} moved to ${to} in ${opts.sourceCommit.slice(0, 7)}`,
    '',
    `The hub writes the branch of ${opts.cluster} to ${to} from now on.`,
    'Agents stop applying this branch and delete nothing.',
    '',
    `${sourceCommitTrailer}: ${opts.sourceCommit}`,
    `${sourceRefTrailer}: ${opts.sourceRef}`,
    `${movedToTrailer}: ${to}`,
    '',
  ].join('\n');
}

/** Returns the `Gitfleet-Render-Held` lines of a pass, sorted by cluster. */
export function renderHeldLines(held: ReadonlyMap<string, string>): string[] {
  return [...held]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([cluster, why]) => `${renderHeldTrailer}: ${cluster}: ${why.replace(/\s+/g, ' ')}`);
}

/** Returns whether two lists of `Gitfleet-Render-Held` values say the same. */
export function sameHeld(recorded: readonly string[], held: ReadonlyMap<string, string>): boolean {
  const now = renderHeldLines(held).map((line) => line.slice(renderHeldTrailer.length + 2));
  return now.length === recorded.length && now.every((v, i) => v === recorded[i]);
}
