// Reads git objects for one pass. isomorphic-git looks for every object as a loose file before
// the packs, through a file system it probes on every call; on a packed repository each read
// then costs a failed open (and its error's stack trace) and a directory listing, ~0.7 ms. The
// source adapter's object-store view answers those from one listing per directory, which is
// valid for as long as nothing is written, so a store is made per pass, before its writes.
import { readGitObject } from './read-git-object.js';
import { objectStoreFs } from './object-store-fs.js';

/** The git directory of a pass, with isomorphic-git's pack cache and a read-only file system view. */
export interface ObjectStore {
  gitdir: string;
  /** isomorphic-git's cache of parsed pack indexes, shared with the tree builder. */
  cache: object;
  fs: ReturnType<typeof objectStoreFs>;
}

/**
 * Returns a store for reading the repository as it is now (make a new one after writing).
 * `packCache` may be kept from store to store: a pack's index never changes once written, and
 * only the packs the directory lists are read, so a long-running hub parses each index once.
 */
export function openObjectStore(gitdir: string, packCache: object = {}): ObjectStore {
  return { gitdir, cache: packCache, fs: objectStoreFs(gitdir) };
}

/** Returns an object's type and content, or throws MissingObject or CorruptObject. */
export function readStoredObject(
  store: ObjectStore,
  oid: string,
): Promise<{ type: string; content: Uint8Array }> {
  return readGitObject(store, oid);
}
