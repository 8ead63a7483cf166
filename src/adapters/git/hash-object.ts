// Git object ids: the SHA-1 of `<type> <len>\0<content>`, as `git hash-object` computes them.
import { createHash } from 'node:crypto';
import type { GitObject, GitObjectType } from './git-object.js';

/** Returns the header git prefixes to an object's content before hashing or loose storage. */
export function objectHeader(type: GitObjectType, length: number): Buffer {
  return Buffer.from(`${type} ${length}\0`, 'latin1');
}

/** Returns the git object id (40 lowercase hex digits) of content stored as the given type. */
export function hashObject(type: GitObjectType, content: Uint8Array): string {
  return createHash('sha1').update(`${type} ${content.length}\0`, 'latin1').update(content).digest('hex');
}

/** Returns the object of the given type and content, with its id computed. */
export function toGitObject(type: GitObjectType, content: Uint8Array): GitObject {
  return { type, content, oid: hashObject(type, content) };
}
