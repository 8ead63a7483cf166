// Alias abuse ("billion laughs"): js-yaml builds an aliased node once and shares it by reference,
// so a few hundred bytes of anchors can stand for billions of nodes, or one long string repeated
// until it is gigabytes of text, that every later stage (override, render, serialise) would walk
// and copy in full. We measure a document as those stages would see it, counting a shared
// subtree each time it is reached: its nodes, and its bytes (the UTF-8 bytes of every key and
// string, one byte for any other scalar).
// - Nodes: the walk stops once the count passes the limit with sharing seen; a document that is
//   merely large, with nothing shared, is walked to its end (its size is bounded by the file size
//   limit) and is not refused.
// - Bytes: the walk stops once the count passes the limit, shared or not, since an aliased
//   string cannot be told from a copy. Without aliases a document's bytes are at most its
//   file's bytes, so a byte limit above the file size limit refuses only expansion.

/** What a walk of one document found. */
export interface Expansion {
  /** Nodes counted (maps, lists and scalars); past a limit, where the walk stopped. */
  nodes: number;
  /** Bytes counted; past a limit, where the walk stopped. */
  bytes: number;
  /** Which limit the document passed, if any. */
  exceeded: false | 'nodes' | 'bytes';
  /** Some map or list is reached more than once (an alias or merge key shares it). */
  shared: boolean;
}

/** The limits of one measure. */
export interface ExpansionLimits {
  /** Nodes reached through sharing beyond this are refused. */
  maxNodes: number;
  /** Bytes beyond this are refused. */
  maxBytes: number;
}

/** Returns the expanded node and byte counts of a parsed document, stopping past a limit. */
export function measureExpansion(value: unknown, limits: ExpansionLimits): Expansion {
  const seen = new Set<object>();
  let nodes = 0;
  let bytes = 0;
  let shared = false;
  let exceeded: Expansion['exceeded'] = false;
  const visit = (node: unknown): boolean => {
    nodes++;
    if (typeof node !== 'object' || node === null) bytes += typeof node === 'string' ? utf8Length(node) : 1;
    if (nodes > limits.maxNodes && shared) exceeded = 'nodes';
    else if (bytes > limits.maxBytes) exceeded = 'bytes';
    if (exceeded) return false;
    if (typeof node !== 'object' || node === null) return true;
    if (seen.has(node)) shared = true;
    else seen.add(node);
    if (Array.isArray(node)) {
      for (const child of node) if (!visit(child)) return false;
      return true;
    }
    for (const [key, child] of Object.entries(node)) {
      bytes += utf8Length(key);
      if (!visit(child)) return false;
    }
    return true;
  };
  visit(value);
  return { nodes, bytes, exceeded, shared };
}

/** Returns the length of a string in UTF-8 bytes, without encoding it. */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 2; // a surrogate pair: 2 units, 4 bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}
