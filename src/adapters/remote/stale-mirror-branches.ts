// A mirror that holds a mirrored branch the remote does not advertise cannot be trusted
// (remote-hub-repo.ts): the remote was recreated at the same URL, the branch was deleted there,
// or it was made here and never pushed. A branch a pass moves while a fetch is under way (its
// push waits behind the fetch) is not stale: only branches still where they were before the
// fetch count.
import { listRefNames } from '../git/list-refs.js';
import { readPackedRefs, readRef } from '../git/read-ref.js';
import { isMirrored, wantedRefs, type MirrorLayout } from './mirror-layout.js';

/** Returns each mirrored local branch's commit. */
export async function mirroredHeads(gitdir: string, layout: MirrorLayout): Promise<Map<string, string>> {
  return new Map(
    await Promise.all(
      (await unpublishedBranches(gitdir, layout, new Map())).map(
        async (ref) => [ref, (await readRef(gitdir, ref)) ?? ''] as const,
      ),
    ),
  );
}

/**
 * Returns the mirrored local branches the remote does not have (`remoteBranches`, as the fetch
 * found them) that are still where they were before the fetch (`before`, mirroredHeads).
 */
export async function staleMirrorBranches(opts: {
  gitdir: string;
  layout: MirrorLayout;
  before: ReadonlyMap<string, string>;
  remoteBranches: ReadonlyMap<string, string>;
}): Promise<string[]> {
  const { gitdir, before } = opts;
  const still: string[] = [];
  for (const ref of await unpublishedBranches(gitdir, opts.layout, opts.remoteBranches))
    if (before.get(ref) === (await readRef(gitdir, ref))) still.push(ref);
  return still;
}

/** Returns the mirrored local branches the remote does not have. */
async function unpublishedBranches(
  gitdir: string,
  layout: MirrorLayout,
  remoteBranches: ReadonlyMap<string, string>,
): Promise<string[]> {
  const refs = wantedRefs(layout) ?? (await listRefNames(gitdir, 'refs/heads/'));
  const packed = await readPackedRefs(gitdir);
  const stale: string[] = [];
  for (const ref of refs) {
    if (!isMirrored(layout, ref) || remoteBranches.has(ref)) continue;
    if ((await readRef(gitdir, ref, packed)) !== null) stale.push(ref);
  }
  return stale;
}
