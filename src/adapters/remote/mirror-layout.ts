// Which refs the hub's local mirror of a remote holds, and under which names.
//
//   remote                        mirror: tracking ref (fetch writes)   mirror: local ref (hub reads, writes)
//   refs/heads/<source>           refs/remotes/origin/<source>          refs/heads/<source>
//   refs/heads/<prefix><rest>     refs/remotes/origin/<prefix><rest>    refs/heads/<prefix><rest>
//   refs/heads/<other>            refs/remotes/origin/<other>           (none)
//
// An agent's mirror (`only` set) holds its source (the cluster branch) and the few branches
// named in `only` (its status, heartbeat, the bindings branch): fetching every cluster's
// branches costs it a fetch of 3,000 refs at 1,000 clusters for the few it reads.
//
// Fetching into tracking refs first, as git does, lets the mirror move its local refs with
// git's lock protocol (fetch itself writes refs without locks) and keeps a record of what the
// remote held, which isomorphic-git's push also updates. Other branches get tracking refs too:
// isomorphic-git's fetch asks for every branch, and a branch whose objects the mirror holds
// without a ref would be sent again on every poll, the client having no way to say it has them.
import { isValidRefName } from '../git/ref-name.js';
import { RemoteError } from './remote-error.js';

/** The remote name in the mirror's config. */
export const mirrorRemote = 'origin';
/**
 * The remote name a fetch writes its refs under first (`refs/remotes/incoming/*`): they move to
 * the tracking refs only once the fetched pack is verified complete.
 */
export const incomingRemote = 'incoming';
/** The directory inside the mirror where a fetched pack is written and indexed before it moves into objects/pack. */
export const fetchTempDir = 'fetch-tmp';
const heads = 'refs/heads/';
const tracking = `refs/remotes/${mirrorRemote}/`;

/** The mirrored refs: the source branch and every branch under the prefix (or those in `only`). */
export interface MirrorLayout {
  /** Full name, e.g. `refs/heads/main`. */
  sourceRef: string;
  /** Ends with `/`, e.g. `gitfleet/`. */
  branchPrefix: string;
  /** When set (an agent's mirror), the only branches besides the source that are mirrored, full names. */
  only?: ReadonlySet<string>;
  /** A status repository's mirror: the source branch may be absent (its refs are all under the prefix). */
  sourceOptional?: boolean;
}

/** Returns the layout with the source as a full branch name and the prefix ending in `/`, or throws InvalidOption. */
export function mirrorLayout(opts: {
  sourceRef: string;
  branchPrefix: string;
  onlyRefs?: readonly string[] | undefined;
  sourceOptional?: boolean | undefined;
}): MirrorLayout {
  const sourceRef = opts.sourceRef.startsWith('refs/') ? opts.sourceRef : `${heads}${opts.sourceRef}`;
  if (!sourceRef.startsWith(heads) || !isValidRefName(sourceRef)) {
    throw new RemoteError(
      'InvalidOption',
      `${opts.sourceRef}: the source ref must be a branch (refs/heads/…)`,
    );
  }
  const branchPrefix = opts.branchPrefix.endsWith('/') ? opts.branchPrefix : `${opts.branchPrefix}/`;
  if (branchPrefix === '/' || !isValidRefName(`${heads}${branchPrefix}x`)) {
    throw new RemoteError('InvalidOption', `${opts.branchPrefix}: not a usable branch prefix`);
  }
  const optional = opts.sourceOptional === true ? { sourceOptional: true } : {};
  if (opts.onlyRefs === undefined) return { sourceRef, branchPrefix, ...optional };
  for (const ref of opts.onlyRefs) {
    if (!ref.startsWith(`${heads}${branchPrefix}`) || !isValidRefName(ref))
      throw new RemoteError('InvalidOption', `${ref}: not a branch under refs/heads/${branchPrefix}`);
  }
  return { sourceRef, branchPrefix, only: new Set(opts.onlyRefs), ...optional };
}

/** Returns the branches an agent's mirror fetches (source first), or null for a hub's mirror (every branch). */
export function wantedRefs(layout: MirrorLayout): string[] | null {
  return layout.only === undefined ? null : [layout.sourceRef, ...layout.only];
}

/** Returns the fetch refspecs of a remote name: every branch into its refs/remotes/<remote>/ ref. */
export function fetchRefspecs(remote: string = mirrorRemote): string[] {
  return [`+${heads}*:refs/remotes/${remote}/*`];
}

/** Returns the local branch a tracking ref mirrors, or null when the ref is not a mirrored one. */
export function localRefOf(layout: MirrorLayout, trackingRef: string): string | null {
  if (!trackingRef.startsWith(tracking)) return null;
  const local = `${heads}${trackingRef.slice(tracking.length)}`;
  return isMirrored(layout, local) ? local : null;
}

/** Returns whether the full ref is one the mirror holds (the source branch or a prefixed branch). */
export function isMirrored(layout: MirrorLayout, ref: string): boolean {
  if (ref === layout.sourceRef) return true;
  return layout.only === undefined ? ref.startsWith(`${heads}${layout.branchPrefix}`) : layout.only.has(ref);
}

/** Returns the tracking ref of a mirrored branch. */
export function trackingRefOf(ref: string): string {
  return `${tracking}${ref.slice(heads.length)}`;
}
