// The one branch outside an agent's own that its pass may read: the deletion allowance on its
// cluster branch's head counts only when the source commit it names itself allows the
// deletions (core/apply-plan/judge-deletion-allowance.ts), so that commit must be in the
// mirror. The head names its source branch (Gitfleet-Source-Ref), and an agent's mirror
// fetches that branch only while the head carries a Gitfleet-Allow-Deletions trailer: rarely,
// and the source's history is then fetched once and kept up to date after.
import {
  allowDeletionsTrailer,
  parseTrailers,
  sourceRefTrailer,
} from '../../core/publish/commit-trailers.js';
import { readCommit } from '../git/read-typed-object.js';
import { isValidRefName } from '../git/ref-name.js';
import { readRef } from '../git/read-ref.js';
import { trackingRefOf, type MirrorLayout } from './mirror-layout.js';

/**
 * Where a cluster branch's head is when another repository holds it (a render repository,
 * docs/git-budget.md#render-repositories): its git directory and commit, null when there is
 * none, undefined when the mirror holds the branch itself (the agent reads it there now).
 */
export type AllowanceHead = () => Promise<{ gitdir: string; commit: string } | null | undefined>;

/**
 * Returns the source branch the mirrored head (or the one `elsewhere` finds) names when it
 * allows deletions, or null.
 */
export async function allowanceSourceRef(
  gitdir: string,
  layout: MirrorLayout,
  elsewhere?: AllowanceHead,
): Promise<string | null> {
  const there = await elsewhere?.();
  const found =
    there === undefined ? { gitdir, commit: await readRef(gitdir, trackingRefOf(layout.sourceRef)) } : there;
  const head = found?.commit ?? null;
  if (found === null || head === null) return null;
  let message: string;
  try {
    message = (await readCommit({ gitdir: found.gitdir }, head)).message;
  } catch {
    return null; // the pass reports a head it cannot read
  }
  const trailers = parseTrailers(message);
  if (!trailers.has(allowDeletionsTrailer)) return null;
  const ref = trailers.get(sourceRefTrailer)?.at(-1);
  if (ref === undefined || ref === layout.sourceRef) return null;
  return ref.startsWith('refs/heads/') && isValidRefName(ref) ? ref : null;
}
