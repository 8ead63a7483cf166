// The objects whose ids start with an abbreviation (4 to 39 hex digits), from the loose objects
// and the pack indexes, read with gitfleet's own index parser (adapters/git/pack-index.ts). It
// replaces isomorphic-git's expandOid, which trusts a pack index: a damaged one made it reply
// with an "internal error" or, with a huge object count, ended the whole process in V8.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PackIndex } from '../git/pack-index.js';

/** Returns every object id in `gitdir` that starts with `abbrev` (lower-case hex), sorted; throws CorruptObject for a damaged index. */
export function objectsStartingWith(gitdir: string, abbrev: string): string[] {
  abbrev = abbrev.toLowerCase();
  const found = new Set<string>(looseMatches(gitdir, abbrev));
  const packDir = join(gitdir, 'objects', 'pack');
  for (const name of listDir(packDir).filter((n) => n.endsWith('.idx'))) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(packDir, name));
    } catch {
      continue; // removed by a repack since the listing; its objects are in the new pack
    }
    const index = PackIndex.parse(bytes, join(packDir, name));
    for (const oid of indexMatches(index, abbrev)) found.add(oid);
  }
  return [...found].sort();
}

function looseMatches(gitdir: string, abbrev: string): string[] {
  const dir = abbrev.slice(0, 2);
  const rest = abbrev.slice(2);
  return listDir(join(gitdir, 'objects', dir))
    .filter((name) => /^[0-9a-f]{38}$/.test(name) && name.startsWith(rest))
    .map((name) => dir + name);
}

// The index lists ids in order: the matches are one run, found by binary search for the first
// id not below the abbreviation.
function indexMatches(index: PackIndex, abbrev: string): string[] {
  let lo = 0;
  let hi = index.count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (index.oidAt(mid) < abbrev) lo = mid + 1;
    else hi = mid;
  }
  const matches: string[] = [];
  for (let i = lo; i < index.count && index.oidAt(i).startsWith(abbrev); i++) matches.push(index.oidAt(i));
  return matches;
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
