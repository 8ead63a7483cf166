// Lists refs under a prefix the way git sees them: loose ref files (which win) and packed-refs.
import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { readPackedRefs, readRef } from './read-ref.js';

/** Returns every ref whose full name starts with `prefix` (ending in '/'), and its commit id. */
export async function listRefs(gitdir: string, prefix: string): Promise<Map<string, string>> {
  const packed = await readPackedRefs(gitdir);
  const sorted = await listRefNames(gitdir, prefix, packed);
  const oids = await Promise.all(sorted.map((ref) => readRef(gitdir, ref, packed)));
  const refs = new Map<string, string>();
  sorted.forEach((ref, i) => {
    const oid = oids[i];
    if (oid !== null && oid !== undefined) refs.set(ref, oid);
  });
  return refs;
}

/**
 * Returns the full names of the refs under `prefix` (ending in '/'), loose or packed, sorted; a
 * symbolic ref (a remote's `HEAD`) is listed too. Listed with synchronous directory reads:
 * isomorphic-git's listing walked the same directories with a promise per entry, and the hub's
 * mirrors list refs at every fetch (28 s of the hub's CPU in a profiled 1,000-cluster budget bench).
 */
export async function listRefNames(
  gitdir: string,
  prefix: string,
  packed?: ReadonlyMap<string, string>,
): Promise<string[]> {
  const names = new Set(
    [...(packed ?? (await readPackedRefs(gitdir))).keys()].filter((r) => r.startsWith(prefix)),
  );
  for (const loose of await looseRefNames(gitdir, prefix)) names.add(loose);
  return [...names].sort();
}

async function looseRefNames(gitdir: string, prefix: string): Promise<string[]> {
  const names: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = listDirectory(join(gitdir, dir));
    for (const entry of entries) {
      const name = `${dir}${entry.name}`;
      if (entry.isDirectory()) await walk(`${name}/`);
      // `<ref>.lock` is a writer's lock, not a ref (git refuses ref names ending in .lock).
      else if (entry.isFile() && !entry.name.endsWith('.lock')) names.push(name);
    }
  };
  await walk(prefix);
  return names;
}

// Synchronous: a ref directory listing is small, and the promise form's thread-pool round trip costs more.
function listDirectory(path: string): Dirent[] {
  try {
    return readdirSync(path, { withFileTypes: true });
  } catch {
    return [];
  }
}
