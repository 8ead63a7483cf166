// Before writing: one copy of each object, and none the repository already holds.
import type { GitObject, GitObjectInput } from './git-object.js';
import { GitWriteError } from './git-write-error.js';
import { hashObject } from './hash-object.js';

const oidPattern = /^[0-9a-f]{40}$/;

/**
 * Returns the objects to write, first occurrence of each id only, minus those `exists` says
 * the repository has; ids missing from the input are computed. Given ids are checked later,
 * when the content is hashed anyway on its way to disk.
 */
export function selectNewObjects(
  objects: readonly GitObjectInput[],
  exists?: (oid: string) => boolean,
): GitObject[] {
  const seen = new Set<string>();
  const selected: GitObject[] = [];
  for (const o of objects) {
    const oid = o.oid ?? hashObject(o.type, o.content);
    // A pass names a blob once per branch that holds it: check an id the first time only.
    if (seen.has(oid)) continue;
    if (!oidPattern.test(oid)) {
      throw new GitWriteError('InvalidObjectId', `${oid}: not an object id (40 lowercase hex digits)`);
    }
    seen.add(oid);
    if (exists?.(oid)) continue;
    selected.push({ type: o.type, content: o.content, oid });
  }
  return selected;
}

/** Throws when the id computed from an object's content differs from the one it came with. */
export function assertSameOid(given: string, computed: string, type: string): void {
  if (given !== computed) {
    throw new GitWriteError(
      'ObjectIdMismatch',
      `${given}: the ${type} given with this id hashes to ${computed}; nothing was written`,
    );
  }
}
