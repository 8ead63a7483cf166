// Alias abuse ("billion laughs"): js-yaml builds an aliased node once and shares it by reference,
// so a few kilobytes of anchors can stand for billions of nodes that every later stage (override,
// render, serialise) would walk in full. We count nodes as those stages would see them, counting
// a shared subtree each time it is reached. The walk stops once the count passes the limit with
// sharing seen; a document that is merely large, with nothing shared, is walked to its end (its
// size is bounded by the file size limit) and is not refused.

/** What a walk of one document found. */
export interface Expansion {
  /** Nodes counted (maps, lists and scalars); past the limit, where the walk stopped. */
  nodes: number;
  /** More nodes than the limit, reached through shared (aliased) nodes. */
  exceeded: boolean;
  /** Some map or list is reached more than once (an alias or merge key shares it). */
  shared: boolean;
}

/** Returns the expanded node count of a parsed document, stopping past `limit` once sharing is seen. */
export function measureExpansion(value: unknown, limit: number): Expansion {
  const seen = new Set<object>();
  let nodes = 0;
  let shared = false;
  const visit = (node: unknown): boolean => {
    nodes++;
    if (nodes > limit && shared) return false;
    if (typeof node !== 'object' || node === null) return true;
    if (seen.has(node)) shared = true;
    else seen.add(node);
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) if (!visit(child)) return false;
    return true;
  };
  const complete = visit(value);
  return { nodes, exceeded: !complete, shared };
}
