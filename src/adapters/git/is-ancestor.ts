// Fast-forward checks: does one commit lie in the history of another?
import { withCache, type ObjectSource } from './read-git-object.js';
import { readCommit } from './read-typed-object.js';

/**
 * Returns whether `ancestor` is `descendant` or reachable from it through parents (git
 * merge-base --is-ancestor). The walk visits each commit once; when the answer is no it
 * reads the whole history of `descendant`.
 */
export async function isAncestor(
  opts: ObjectSource & { ancestor: string; descendant: string },
): Promise<boolean> {
  const source = withCache(opts);
  const seen = new Set<string>([opts.descendant]);
  let frontier = [opts.descendant];
  while (frontier.length > 0) {
    if (frontier.includes(opts.ancestor)) return true;
    const parents = await Promise.all(frontier.map((oid) => parentsOf(source, oid)));
    frontier = [];
    for (const parent of parents.flat()) {
      if (seen.has(parent)) continue;
      seen.add(parent);
      frontier.push(parent);
    }
  }
  return false;
}

// A commit the caller has just written is known with its parents; any other is read.
async function parentsOf(source: ObjectSource, oid: string): Promise<readonly string[]> {
  return source.written?.get(oid) ?? (await readCommit(source, oid)).parents;
}
