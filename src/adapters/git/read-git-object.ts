// Reads one object, loose or packed, of whatever type, through gitfleet's own object reader
// (object-database.ts: pack entries read in place, deltas resolved through a cache bounded in
// bytes). Commits, trees and blobs are read as such through read-typed-object.ts; this raw read
// is for what takes any type: the repack, the push, a ref's target check, revision resolving.
import type git from 'isomorphic-git';
import { objectDatabaseFor } from './object-databases.js';

/**
 * Where to read from. `cache` marks one view of the repository shared across this call's reads:
 * the reader's state (parsed pack indexes, delta bases) lives in a per-repository database
 * (object-databases.ts), and a cache or file system view it has not seen makes it list the
 * packs again, so each entry point that reads more than once makes one (`withCache`).
 */
export interface ObjectSource {
  gitdir: string;
  cache?: object;
  /** The file system view of one pass (object-store.ts); a new one makes the reader list the packs again. */
  fs?: GitFs;
  /**
   * Commits the caller has just written (id → parent ids): known to be stored, so their type
   * and parents are not read back (the hub moves its refs to commits it built a moment ago).
   */
  written?: ReadonlyMap<string, readonly string[]>;
}

export type GitFs = Parameters<typeof git.readObject>[0]['fs'];

/** Returns the source with a cache, the caller's or a new one to share across this call's reads. */
export function withCache<T extends ObjectSource>(source: T): T & { cache: object } {
  return { ...source, cache: source.cache ?? {} };
}

/**
 * Returns an object's type and content, or throws MissingObject or CorruptObject. A pack that a
 * repack removed after the reader listed it is looked for again in a new listing (once).
 */
export async function readGitObject(
  source: ObjectSource,
  oid: string,
): Promise<{ type: string; content: Uint8Array }> {
  return readGitObjectNow(source, oid);
}

/**
 * Returns what readGitObject returns, synchronously: the reads are small positioned reads of
 * open files, which cost less than a trip through libuv's thread pool would.
 */
export function readGitObjectNow(source: ObjectSource, oid: string): { type: string; content: Buffer } {
  const view = (source.fs as object | undefined) ?? source.cache;
  return objectDatabaseFor(source.gitdir, view, source.cache).read(oid);
}
