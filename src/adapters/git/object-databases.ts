// The object databases of the process, one per git directory, shared by every reader of it. A
// pack's bytes never change under its name, so what one reader parsed (a pack's index) serves
// the next; making one per call, as each `withCache` does, would parse every index again. The
// registry keeps the most recently used few, so memory follows the repositories in use.
//
// A caller's `cache` object (or its file system view, made per pass) marks one view of the
// repository: the first read through a view the database has not seen lists objects/pack again,
// which drops the packs a repack removed; reads within one view keep the listing (a miss or a
// vanished pack lists again anyway). The cache object records which databases it used, so
// forgetRemovedPacks and the soak benchmark can reach them.
import { ObjectDatabase } from './object-database.js';

const maxDatabases = 8;
const databases = new Map<string, { db: ObjectDatabase; views: WeakSet<object> }>();
const usedBy = Symbol('gitfleet object databases used');

/** Returns the database for the git directory, listed again when `view` is new to it (or absent). */
export function objectDatabaseFor(
  gitdir: string,
  view: object | undefined,
  cache: object | undefined,
): ObjectDatabase {
  let held = databases.get(gitdir);
  if (held === undefined) {
    held = { db: new ObjectDatabase(gitdir), views: new WeakSet() };
    for (const key of databases.keys()) {
      if (databases.size < maxDatabases) break;
      databases.delete(key);
    }
  } else {
    databases.delete(gitdir);
    if (view === undefined || !held.views.has(view)) held.db.relist();
  }
  databases.set(gitdir, held);
  if (view !== undefined) held.views.add(view);
  if (cache !== undefined) usedDatabases(cache).add(gitdir);
  return held.db;
}

/** Returns the databases a cache object has read through (those still in the registry). */
export function databasesUsedBy(cache: object): ObjectDatabase[] {
  const dirs = (cache as Record<symbol, Set<string> | undefined>)[usedBy];
  if (dirs === undefined) return [];
  return [...dirs].flatMap((d) => {
    const held = databases.get(d);
    return held === undefined ? [] : [held.db];
  });
}

function usedDatabases(cache: object): Set<string> {
  const record = cache as Record<symbol, Set<string> | undefined>;
  return (record[usedBy] ??= new Set());
}
