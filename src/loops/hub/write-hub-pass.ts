// The write phase of a pass, in the order that makes it safe to kill at any point:
//
//   1. every new object (blobs, trees, commits of every branch) in one write: one pack, or a
//      few loose objects. Objects nobody names are harmless; git gc removes them later;
//   2. every ref in one compare-and-swap batch (update-ref.ts): all refs move or none, each
//      from the commit the pass read to the one it built, fast-forward only. The bindings
//      branch is last, so when it names a source commit, every cluster branch of that render
//      has moved;
//   3. publish the moves where the repository lives (nothing for a local one).
//
// A crash before 2 leaves every branch at its old commit and the next pass does the work again;
// another writer that moved a ref since the pass read it makes 2 fail with RefConflict and the
// pass runs again on what is there now.
import type { GitObject } from '../../adapters/git/git-object.js';
import { parseCommit } from '../../adapters/git/parse-commit.js';
import { updateRefs } from '../../adapters/git/update-ref.js';
import { writeObjects } from '../../adapters/git/write-objects.js';
import type { HubRepo } from '../../adapters/remote/hub-repo.js';
import type { RefMove } from '../../core/model/ref-move.js';
import { InternalError } from '../../core/model/gitfleet-error.js';
import { RenderUnavailableError } from './render-repositories.js';
import { mapConcurrent } from '../../adapters/map-concurrent.js';

/** Test seams between the steps (a crash or a competing writer is simulated here). */
export interface HubPassHooks {
  /** Runs after the objects are stored and before any ref moves. */
  afterObjectsWritten?: () => Promise<void> | void;
}

export interface HubPassWrite {
  repo: HubRepo;
  objects: readonly GitObject[];
  /** Refs to move, the bindings branch last. */
  moves: readonly RefMove[];
  /** Ids the repository holds already: not written again. */
  known: ReadonlySet<string>;
  hooks?: HubPassHooks;
  /** Told when the ref update recovered the stale locks of a dead gitfleet writer. */
  warn?: (message: string) => void;
  /**
   * Publishes the moves bound for one render repository (render-repositories.ts), the commits
   * read from the repository the pass wrote them into; needed when a move names a repository.
   */
  render?: {
    publish(
      url: string,
      moves: readonly RefMove[],
      from: string,
      fresh?: ReadonlyMap<string, GitObject>,
    ): Promise<void>;
  };
}

/**
 * Render repositories published at once: each takes one push of a pass, within its own budget,
 * and the doorbell rings its readers when it is in (the budget bench saw 17 go in waves of 8,
 * the ninth 19 s after the first).
 */
export const renderPublishConcurrency = 32;

/**
 * Publishes the chosen moves bound for render repositories, a few repositories at a time (each
 * all or nothing); each is tried, so one that refuses the write does not keep the others from being
 * published, and then the refusals are thrown together.
 */
async function publishElsewhere(write: HubPassWrite, chosen: (m: RefMove) => boolean): Promise<void> {
  const elsewhere = new Map<string, RefMove[]>();
  for (const m of write.moves.filter(chosen))
    elsewhere.set(m.repository!, [...(elsewhere.get(m.repository!) ?? []), m]);
  const refused = new Map<string, string>();
  const render = write.render;
  const urls = [...elsewhere.keys()].sort();
  if (urls.length > 0 && !render)
    throw new InternalError(`${urls[0]}: a move bound for a render repository, and no way to publish it`);
  // The objects the pass made new, from memory: each repository's copy need not look for them on
  // disk (one the repository held before is looked for as ever).
  const made = urls.length > 0 ? write.objects.filter((o) => !write.known.has(o.oid)) : [];
  const fresh = new Map(made.map((o) => [o.oid, o]));
  // Side by side: a source push moves branches in every render repository, and each push is a
  // round trip to the Git host; one after another, the last repository's agents would wait for all.
  await mapConcurrent(urls, renderPublishConcurrency, async (url) => {
    try {
      await render!.publish(url, elsewhere.get(url)!, write.repo.gitdir, fresh);
    } catch (error) {
      if (!(error instanceof RenderUnavailableError)) throw error;
      for (const [u, why] of error.refused) refused.set(u, why);
    }
  });
  if (refused.size > 0)
    throw new RenderUnavailableError(new Map([...refused].sort(([a], [b]) => a.localeCompare(b))));
}

/** Stores the objects, then moves the refs, then publishes; returns how many objects were written. */
export async function writeObjectsOfPass(write: HubPassWrite): Promise<number> {
  const { count } = await writeObjects({
    gitdir: write.repo.gitdir,
    objects: write.objects,
    exists: (oid) => write.known.has(oid),
  });
  await write.hooks?.afterObjectsWritten?.();
  return count;
}

/**
 * Publishes the moves bound for render repositories, a few repositories at a time (each all or
 * nothing), then moves every other ref of the pass at once (compare-and-swap) and publishes
 * them, the bindings branch last: it never names a cluster commit that is not published.
 */
export async function moveRefsOfPass(write: HubPassWrite): Promise<void> {
  // The branches in their render repositories first, then the tombstones moved branches leave behind.
  await publishElsewhere(write, (m) => m.repository !== undefined && m.leftBehind !== true);
  await publishElsewhere(write, (m) => m.repository !== undefined && m.leftBehind === true);
  const here = write.moves.filter((m) => m.repository === undefined);
  if (here.length === 0) return;
  const written = new Map(
    write.objects.filter((o) => o.type === 'commit').map((o) => [o.oid, parseCommit(o.content).parents]),
  );
  await updateRefs({
    gitdir: write.repo.gitdir,
    written,
    ...(write.warn ? { warn: write.warn } : {}),
    updates: here.map((m) => ({ ref: m.ref, newOid: m.newOid, expectedOld: m.oldOid })),
  });
  await write.repo.publish(here);
}
