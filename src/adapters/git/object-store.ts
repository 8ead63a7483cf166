// Reads git objects for one pass. The store is one view of the repository: the object reader
// (object-database.ts) lists objects/pack again on the first read through a new store, which
// drops the packs a repack removed since the last pass. Its file system view (object-store-fs.ts)
// serves the isomorphic-git calls that remain on the pass's path (resolving refs), answering
// their probes from one listing per directory; it is valid for as long as nothing is written,
// so a store is made per pass, before its writes.
import { readGitObjectNow, type ObjectSource } from './read-git-object.js';
import { objectStoreFs } from './object-store-fs.js';
import { GitWriteError } from './git-write-error.js';

/** The git directory of a pass, with the reader's cache marker and a read-only file system view. */
export interface ObjectStore {
  gitdir: string;
  /** Marks the databases this store's reads used (object-databases.ts), shared with the tree builder. */
  cache: object;
  fs: ReturnType<typeof objectStoreFs>;
  /**
   * Other git directories searched for an object this one does not hold: the hub's render
   * repositories (docs/git-budget.md#render-repositories), whose branches' commits a hub that
   * did not write them (a new cache, another writer) holds only there.
   */
  also?: readonly string[];
}

/** What an object can be read from: one git directory's view, and other directories to search. */
export type ReadableObjects = ObjectSource & { also?: readonly string[] };

/**
 * Returns a store for reading the repository as it is now (make a new one after writing).
 * `packCache` may be kept from store to store, so maintenance can reach the readers it used; a
 * pack's index never changes once written, so a long-running hub parses each index once.
 */
export function openObjectStore(gitdir: string, packCache: object = {}): ObjectStore {
  return { gitdir, cache: packCache, fs: objectStoreFs(gitdir) };
}

/** Returns an object's type and content, or throws MissingObject or CorruptObject. */
export function readStoredObject(
  store: ReadableObjects,
  oid: string,
): Promise<{ type: string; content: Uint8Array }> {
  return Promise.resolve().then(() => readStoredObjectNow(store, oid));
}

/** Returns what readStoredObject returns, synchronously (small positioned reads of open files). */
export function readStoredObjectNow(store: ReadableObjects, oid: string): { type: string; content: Buffer } {
  try {
    return readGitObjectNow(store, oid);
  } catch (error) {
    if (!store.also?.length || !(error instanceof GitWriteError && error.code === 'MissingObject'))
      throw error;
    for (const gitdir of store.also) {
      try {
        return readGitObjectNow({ gitdir, ...(store.cache ? { cache: store.cache } : {}) }, oid);
      } catch (e) {
        if (!(e instanceof GitWriteError && e.code === 'MissingObject')) throw e;
      }
    }
    throw error;
  }
}
