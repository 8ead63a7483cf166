// A repack removes packs. The object databases a pass cache read through (object-databases.ts)
// would otherwise keep those packs' indexes until their next listing; isomorphic-git, which the
// command-line commands still read through, keeps each pack index it parsed (and the pack's bytes)
// in the cache object under a symbol it does not export, keyed by the index's path. Both are
// forgotten here.
import { existsSync } from 'node:fs';
import { databasesUsedBy } from './object-databases.js';

/** Drops the cache's entries for packs no longer on disk; returns how many it dropped. */
export function forgetRemovedPacks(cache: object): number {
  let dropped = 0;
  for (const db of databasesUsedBy(cache)) dropped += db.forgetRemoved();
  for (const key of Object.getOwnPropertySymbols(cache)) {
    const value = (cache as Record<symbol, unknown>)[key];
    if (!(value instanceof Map)) continue;
    for (const path of [...value.keys()]) {
      if (typeof path === 'string' && path.endsWith('.idx') && !existsSync(path)) {
        value.delete(path);
        dropped++;
      }
    }
  }
  return dropped;
}

/** Returns how many packs the cache's readers hold (for the soak benchmark's bounds). */
export function cachedPackCount(cache: object): number {
  let count = 0;
  for (const db of databasesUsedBy(cache)) count += db.stats().packs;
  for (const key of Object.getOwnPropertySymbols(cache)) {
    const value = (cache as Record<symbol, unknown>)[key];
    if (value instanceof Map) count += value.size;
  }
  return count;
}

/** Returns the bytes the cache's readers hold: pack indexes and delta base caches (soak benchmark). */
export function cachedReaderBytes(cache: object): { indexBytes: number; baseCacheBytes: number } {
  let indexBytes = 0;
  let baseCacheBytes = 0;
  for (const db of databasesUsedBy(cache)) {
    const s = db.stats();
    indexBytes += s.indexBytes;
    baseCacheBytes += s.baseCacheBytes;
  }
  return { indexBytes, baseCacheBytes };
}
