// `:/<regex>` and `<rev>^{/<regex>}`: the youngest commit whose message matches, walking back from
// the given tips newest commit first (by committer time, as git's commit list by date), each
// commit once. Its tips for `:/` are every ref, as git takes them.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readPackedRefs, resolveRefName, type RefStore } from './read-refs.js';

/** What the walk reads of an object. */
type Walked =
  | { type: 'commit'; oid: string; parents: string[]; message: string; time: number }
  | { type: 'tag'; oid: string; target: string }
  | { type: 'tree' | 'blob'; oid: string };

/** Returns the id of the youngest commit reachable from the tips whose message matches, or undefined. */
export async function findYoungestMatching(
  read: (oid: string) => Promise<Walked>,
  tips: readonly string[],
  pattern: RegExp,
): Promise<string | undefined> {
  const seen = new Set<string>();
  const queue: Extract<Walked, { type: 'commit' }>[] = [];
  const enqueue = async (oid: string) => {
    if (seen.has(oid)) return;
    seen.add(oid);
    let object = await read(oid);
    while (object.type === 'tag') object = await read(object.target);
    if (object.type !== 'commit') return;
    // Kept sorted oldest first, so the youngest is popped from the end; among commits of the
    // same time the one queued first is popped first, as in git's list by date.
    const at = queue.findIndex((c) => c.time >= object.time);
    queue.splice(at < 0 ? queue.length : at, 0, object);
  };
  for (const tip of tips) await enqueue(tip);
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    if (pattern.test(next.message)) return next.oid;
    for (const parent of next.parents) await enqueue(parent);
  }
  return undefined;
}

/** Returns the object ids of HEAD and every ref under refs/ (loose and packed), without duplicates. */
export function listRefTips(refs: RefStore): string[] {
  const names = new Set<string>(readPackedRefs(refs).keys());
  const walk = (dir: string, prefix: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isDirectory()) walk(join(dir, e.name), `${prefix}${e.name}/`);
      else if (e.isFile() && !e.name.endsWith('.lock')) names.add(`${prefix}${e.name}`);
    }
  };
  walk(join(refs.commondir, 'refs'), 'refs/');
  const tips = new Set<string>();
  for (const name of ['HEAD', ...[...names].sort()]) {
    const oid = resolveRefName(refs, name);
    if (oid !== undefined) tips.add(oid);
  }
  return [...tips];
}
