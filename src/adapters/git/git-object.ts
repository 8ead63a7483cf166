// The unit every writer here takes: a git object's type, its content bytes (without the
// `<type> <len>\0` header) and its id.

/** Object types gitfleet writes; tags are never written. */
export type GitObjectType = 'blob' | 'tree' | 'commit';

/** A git object ready to be stored: `oid` is the SHA-1 of `<type> <len>\0<content>`. */
export interface GitObject {
  readonly type: GitObjectType;
  readonly content: Uint8Array;
  readonly oid: string;
}

/** An object to store; when `oid` is absent the writer computes it. */
export interface GitObjectInput {
  readonly type: GitObjectType;
  readonly content: Uint8Array;
  readonly oid?: string;
}

/** The id of the empty tree, the root of a branch whose files were all removed. */
export const emptyTreeOid = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
