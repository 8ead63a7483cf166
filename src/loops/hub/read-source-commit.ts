// Step 1 of a pass: the source commit and its fleet files, through the pass cache. A running
// hub reads again only what changed since its last pass: trees and blob texts are remembered
// by id, so an unchanged directory is not listed and an unchanged file is not read or decoded
// (and, being the same string, the loader sees at once that it did not change).
import { treeMode } from '../../adapters/git/tree-object.js';
import { decodeSourceText } from '../../adapters/source/decode-source-text.js';
import { isFleetSourceDirectory } from '../../core/load/is-fleet-source-path.js';
import type { SourceFile } from '../../core/load/load-fleet.js';
import { memoize } from '../runtime/memo-map.js';
import type { SourceCommit } from './hub-pass-result.js';
import { fullSourceRef } from '../../core/publish/hub-refs.js';
import { readBlob } from '../../adapters/git/read-typed-object.js';
import { isFleetSourceFile, resolveCommitTree } from '../../adapters/source/read-git-commit.js';
import { GitSourceError } from '../../adapters/source/git-source-error.js';
import { listRefs } from '../../adapters/git/list-refs.js';
import { readCommitInfo, readTreeEntriesCached, subjectOf, type ReadContext } from './read-git-state.js';

/** Returns the commit the source ref names (an annotated tag is peeled), with the full ref; throws naming a missing branch. */
export async function resolveSourceHead(ctx: ReadContext, ref: string): Promise<SourceHead> {
  const full = fullSourceRef(ref);
  const { store } = ctx;
  const { commit } = await resolveCommitTree({ ...store, dir: store.gitdir }, full).catch(
    async (error: unknown) => {
      throw await missingBranch(store.gitdir, full, error);
    },
  );
  return { ref: full, commit };
}

/** The source ref, in full, and the commit it named when the pass resolved it. */
export interface SourceHead {
  ref: string;
  commit: string;
}

/** Returns the source commit the pass resolved, with its message and fleet files. */
export async function readSourceCommit(
  ctx: ReadContext,
  head: SourceHead,
): Promise<{ source: SourceCommit; files: SourceFile[] }> {
  const { message, files } = await readCommitSourceFiles(ctx, head.commit);
  return { source: { ...head, subject: subjectOf(message), message }, files };
}

/** Returns a commit's message and fleet files (a source commit named by its id: the last verified one). */
export async function readCommitSourceFiles(
  ctx: ReadContext,
  commit: string,
): Promise<{ message: string; files: SourceFile[] }> {
  const { tree, message } = await readCommitInfo(ctx, commit);
  const blobs = await listSourceBlobs(ctx, tree, '');
  const files = await Promise.all(
    blobs.map(async ({ path, oid }) => ({ path, content: await readSourceText(ctx, oid, path) })),
  );
  return { message, files };
}

// The hub follows a branch: one that does not exist (nothing pushed yet, another name) is said
// as such, with the branches there are, rather than as a revision that names no commit.
async function missingBranch(gitdir: string, full: string, error: unknown): Promise<unknown> {
  if (!(error instanceof GitSourceError) || error.code !== 'RefNotFound' || !full.startsWith('refs/heads/'))
    return error;
  const branches = [...(await listRefs(gitdir, 'refs/heads/')).keys()];
  if (branches.includes(full)) return error;
  const shown =
    branches.length > 12 ? [...branches.slice(0, 12), `and ${branches.length - 12} more`] : branches;
  const has = branches.length === 0 ? 'it has no branch yet' : `it has ${shown.join(', ')}`;
  return new GitSourceError(
    'RefNotFound',
    `${full}: not in ${gitdir} (${has}); push the fleet repository's source branch first`,
  );
}

// The fleet files under a tree, by the same rules as the source adapters: fleet paths only,
// no symbolic links (mode 120000) and no submodules.
function listSourceBlobs(
  ctx: ReadContext,
  tree: string,
  prefix: string,
): Promise<readonly { path: string; oid: string }[]> {
  return memoize(ctx.cache.sourceBlobs, `${prefix}\u0000${tree}`, async () => {
    const entries = await readTreeEntriesCached(ctx, tree);
    const lists = await Promise.all(
      entries.map(async (entry) => {
        const path = prefix ? `${prefix}/${entry.name}` : entry.name;
        if (entry.mode === treeMode)
          return isFleetSourceDirectory(entry.name) ? listSourceBlobs(ctx, entry.oid, path) : [];
        return isFleetSourceFile(path, entry.mode) ? [{ path, oid: entry.oid }] : [];
      }),
    );
    return lists.flat();
  });
}

// A blob at several paths is decoded once; a decoding error names the first path it was read at.
function readSourceText(ctx: ReadContext, oid: string, path: string): Promise<string> {
  return memoize(ctx.cache.sourceTexts, oid, async () => {
    return decodeSourceText(await readBlob(ctx.store, oid, path), path);
  });
}
