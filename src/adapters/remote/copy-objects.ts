// Copies the objects some commits need from one or more repositories into another that lacks
// them: how the hub hands the commits of a pass, built in the repository it works on, to a render
// repository's mirror (or a render repository on a local path) before moving its refs there
// (docs/git-budget.md#render-repositories). The same walk as a push (list-objects-to-push.ts):
// every commit back to one the target holds, and each commit's trees and blobs that differ from
// its first parent's; objects the target holds already are not copied. A branch whose history
// the target has never seen (a cluster moved in) is copied down to its root, once.
//
// The objects a hub pass has just written are handed over as `fresh`: they are read from memory
// and copied without asking the target for them first (they are new to the repository the pass
// works on, so a render repository seldom holds one, and a duplicate in a pack is harmless). At
// 1,000 clusters that spared each pass about three missed look-ups and two pack reads for each of
// its 3,000 new objects (docs/git-budget.md#measured).
import { GitReadError } from '../git/git-read-error.js';
import type { GitObject } from '../git/git-object.js';
import { writeObjects } from '../git/write-objects.js';
import { listObjectsToPush } from './list-objects-to-push.js';
import { openObjectReader, type ObjectReader } from './object-reader.js';

/** Most objects written in one pack. */
const batchSize = 20_000;

/** What a copy did. */
export interface CopyResult {
  /** Objects written into the target. */
  copied: number;
  /**
   * Every object the tips need beyond what `has` reaches, held by the target or not: what a push
   * of the tips to a repository holding `has` sends (the hub hands it to the push: one walk).
   */
  walked: string[];
}

/** Copies into `to` what the tips need from `from`. */
export async function copyObjects(opts: {
  /** Where the objects are read: the repositories that may hold them, in order. */
  from: readonly string[];
  /** The repository that receives them. */
  to: string;
  tips: readonly string[];
  /** Commits `to` holds (with everything they reach): the walk stops there. */
  has: ReadonlySet<string>;
  /** Objects at hand, by id (what the pass just wrote): read from here, copied without a look in `to`. */
  fresh?: ReadonlyMap<string, GitObject>;
}): Promise<CopyResult> {
  const fresh = opts.fresh ?? new Map<string, GitObject>();
  const target = await openObjectReader(opts.to);
  const sources = lazyReaders(opts.from);
  try {
    const holding = async (oid: string) => ((await target.has(oid)) ? target : sources.holding(oid));
    const reader: ObjectReader = {
      has: async (oid) => fresh.has(oid) || (await holding(oid)) !== undefined,
      read: async (oid) => {
        const known = fresh.get(oid);
        if (known !== undefined) return { type: known.type, content: bufferOf(known.content) };
        const holder = await holding(oid);
        if (holder === undefined)
          throw new GitReadError('MissingObject', `${oid}: in none of ${[opts.to, ...opts.from].join(', ')}`);
        return holder.read(oid);
      },
      packEntries: () => {
        throw new Error('copyObjects: packEntries is not used');
      },
      close: () => Promise.resolve(),
    };
    const wanted = await listObjectsToPush({ reader, tips: opts.tips, remoteHas: opts.has });
    let copied = 0;
    for (let i = 0; i < wanted.length; i += batchSize) {
      const objects: GitObject[] = [];
      for (const oid of wanted.slice(i, i + batchSize)) {
        if (!fresh.has(oid) && (await target.has(oid))) continue;
        const { type, content } = await reader.read(oid);
        objects.push({ oid, type, content });
      }
      copied += (await writeObjects({ gitdir: opts.to, objects, exists: () => false })).count;
    }
    return { copied, walked: wanted };
  } finally {
    await target.close();
    await sources.close();
  }
}

const bufferOf = (bytes: Uint8Array): Buffer => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * The source repositories, each opened (its packs' indexes read) only when the ones before it
 * lack an object: the pass's repository, listed first, holds the new commits, so a render
 * repository's publish does not open every other render repository's packs (at 1,000 clusters
 * over 90 render repositories, 90 publishes opened 91 repositories each).
 */
function lazyReaders(gitdirs: readonly string[]) {
  const opened: (Promise<ObjectReader> | undefined)[] = gitdirs.map(() => undefined);
  return {
    async holding(oid: string): Promise<ObjectReader | undefined> {
      for (const [i, gitdir] of gitdirs.entries()) {
        const reader = await (opened[i] ??= openObjectReader(gitdir));
        if (await reader.has(oid)) return reader;
      }
      return undefined;
    },
    async close(): Promise<void> {
      // One that failed to open threw already, where it was needed: the others are closed.
      for (const r of opened) await (await r?.catch(() => undefined))?.close();
    },
  };
}
