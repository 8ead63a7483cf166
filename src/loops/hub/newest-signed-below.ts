// The walk the hub makes below a commit it does not trust (a status head not signed by its
// cluster's key, a bindings head not signed by the hub's keys): the newest commit below it,
// first parents only, that verifies, within a bound.
import type { SignatureVerdict } from '../../core/model/signature-verdict.js';

/** Returns the newest commit below `head` (first parents) that verifies; undefined when none does within `max` commits, or history is missing (a shallow mirror). */
export async function newestSignedBelow(input: {
  head: string;
  max: number;
  /** Returns a commit's first parent (none: a root commit). */
  parentOf: (oid: string) => Promise<string | undefined>;
  verify: (oid: string) => Promise<SignatureVerdict>;
}): Promise<string | undefined> {
  let at = input.head;
  for (let i = 0; i < input.max; i++) {
    let parent: string | undefined;
    try {
      parent = await input.parentOf(at);
      if (parent === undefined) return undefined;
      if ((await input.verify(parent)).ok) return parent;
    } catch {
      return undefined;
    }
    at = parent;
  }
  return undefined;
}
