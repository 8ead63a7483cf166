// isomorphic-git keeps each pack index it parsed, and the pack's bytes once it read from it, in
// the cache object callers pass in, keyed by the index's path. A repack removes packs; their
// entries would then hold memory for good and send reads to files that are gone. isomorphic-git
// keeps that map under a symbol it does not export, so it is found among the cache's symbols.
import { existsSync } from 'node:fs';

/** Drops the cache's entries for pack indexes no longer on disk; returns how many it dropped. */
export function forgetRemovedPacks(cache: object): number {
  let dropped = 0;
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

/** Returns how many pack indexes the cache holds (for the soak benchmark's bounds). */
export function cachedPackCount(cache: object): number {
  let count = 0;
  for (const key of Object.getOwnPropertySymbols(cache)) {
    const value = (cache as Record<symbol, unknown>)[key];
    if (value instanceof Map) count += value.size;
  }
  return count;
}
