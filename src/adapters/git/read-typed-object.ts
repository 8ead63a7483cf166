// The one typed reader of git objects: a commit (parsed, or its bytes for a signature check), a
// tree (its entries, or one entry by name), a blob (as bytes or text), and one file of a commit's
// tree by its path, each read through gitfleet's own object reader
// (object-store.ts: loose or packed, the pass's other git directories searched too). Every
// reader has a synchronous form (`…Now`: small positioned reads of open pack files, cheaper than
// a trip through the thread pool) and an asynchronous one for callers that await. An object of
// another type than its use requires, or a commit without a tree line, is a GitReadError naming
// the object (and the path, when the caller gives one) and the repository; a missing or damaged
// object is the object database's MissingObject or CorruptObject, as it is for any read.
import { GitReadError } from './git-read-error.js';
import { parseCommit, type CommitSignature } from './parse-commit.js';
import { readStoredObjectNow, type ReadableObjects } from './object-store.js';
import { findTreeEntry, parseTree, treeMode, type TreeEntry } from './tree-object.js';

/** A commit as its header and message say. */
export interface GitCommit {
  oid: string;
  tree: string;
  parents: string[];
  author: CommitSignature | undefined;
  committer: CommitSignature | undefined;
  message: string;
}

/** An object's type and content, as any object source returns it. */
export interface RawObject {
  type: string;
  content: Uint8Array;
}

/** Where an object was read: its path in a tree and the repository, named in errors when known. */
export interface ObjectPlace {
  path?: string;
  gitdir?: string;
}

/** Returns the commit an object read elsewhere holds; throws GitReadError when it is not one. */
export function commitOf(oid: string, object: RawObject, place: ObjectPlace = {}): GitCommit {
  const parsed = parseCommit(contentOf(oid, object, 'commit', place));
  if (parsed.tree === undefined)
    throw new GitReadError('CorruptObject', `${subjectOf(oid, place)}: a commit without a tree line`);
  return { oid, ...parsed, tree: parsed.tree };
}

/** Returns the entries of a tree read elsewhere; throws GitReadError when it is not one. */
export function treeOf(oid: string, object: RawObject, place: ObjectPlace = {}): TreeEntry[] {
  return parseTree(contentOf(oid, object, 'tree', place), oid);
}

/** Returns an object's content when it is of the wanted type; throws GitReadError naming it otherwise. */
export function contentOf(
  oid: string,
  object: RawObject,
  want: 'commit' | 'tree' | 'blob',
  place: ObjectPlace = {},
): Uint8Array {
  if (object.type !== want)
    throw new GitReadError('WrongObjectType', `${subjectOf(oid, place)}: a ${object.type}, not a ${want}`);
  return object.content;
}

/** Returns the commit with the given id. */
export function readCommitNow(source: ReadableObjects, oid: string): GitCommit {
  return commitOf(oid, readStoredObjectNow(source, oid), { gitdir: source.gitdir });
}

/** Returns the commit with the given id (readCommitNow behind a promise). */
export function readCommit(source: ReadableObjects, oid: string): Promise<GitCommit> {
  return Promise.resolve().then(() => readCommitNow(source, oid));
}

/** Returns the bytes of the commit with the given id as stored: what a signature check verifies. */
export function readCommitBytesNow(source: ReadableObjects, oid: string): Uint8Array {
  return contentOf(oid, readStoredObjectNow(source, oid), 'commit', { gitdir: source.gitdir });
}

/** Returns the bytes of the commit with the given id (readCommitBytesNow behind a promise). */
export function readCommitBytes(source: ReadableObjects, oid: string): Promise<Uint8Array> {
  return Promise.resolve().then(() => readCommitBytesNow(source, oid));
}

/** Returns the commit with the given id, parsed, and its bytes as stored (one read). */
export function readCommitAndBytes(
  source: ReadableObjects,
  oid: string,
): Promise<{ commit: GitCommit; content: Uint8Array }> {
  return Promise.resolve().then(() => {
    const object = readStoredObjectNow(source, oid);
    return { commit: commitOf(oid, object, { gitdir: source.gitdir }), content: object.content };
  });
}

/** Returns the entries of the tree with the given id, in stored order. */
export function readTreeNow(source: ReadableObjects, oid: string, path?: string): TreeEntry[] {
  return treeOf(oid, readStoredObjectNow(source, oid), placeOf(source, path));
}

/** Returns the entries of the tree with the given id (readTreeNow behind a promise). */
export function readTree(source: ReadableObjects, oid: string, path?: string): Promise<TreeEntry[]> {
  return Promise.resolve().then(() => readTreeNow(source, oid, path));
}

/** Returns the bytes of the blob with the given id (`path` names the file in errors). */
export function readBlobNow(source: ReadableObjects, oid: string, path?: string): Uint8Array {
  return contentOf(oid, readStoredObjectNow(source, oid), 'blob', placeOf(source, path));
}

/** Returns the bytes of the blob with the given id (readBlobNow behind a promise). */
export function readBlob(source: ReadableObjects, oid: string, path?: string): Promise<Uint8Array> {
  return Promise.resolve().then(() => readBlobNow(source, oid, path));
}

/** Returns the text (UTF-8, a byte order mark kept) of the blob with the given id. */
export function readBlobTextNow(source: ReadableObjects, oid: string, path?: string): string {
  const bytes = readBlobNow(source, oid, path);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8');
}

/** Returns the text of the blob with the given id (readBlobTextNow behind a promise). */
export function readBlobText(source: ReadableObjects, oid: string, path?: string): Promise<string> {
  return Promise.resolve().then(() => readBlobTextNow(source, oid, path));
}

/**
 * Returns the entry `name` of the tree with the given id, found in the tree's bytes without
 * decoding its other entries (a large tree read for one name), or undefined when it has none.
 */
export function readTreeEntryNow(source: ReadableObjects, tree: string, name: string): TreeEntry | undefined {
  return findTreeEntry(readTreeBytesNow(source, tree), name);
}

function readTreeBytesNow(source: ReadableObjects, tree: string): Uint8Array {
  return contentOf(tree, readStoredObjectNow(source, tree), 'tree', { gitdir: source.gitdir });
}

/**
 * Returns the entry at a `/`-separated path below a tree (a file, a subtree or a submodule), or
 * undefined when a step of the path is not there or is not a directory.
 */
export function readTreePathNow(source: ReadableObjects, tree: string, path: string): TreeEntry | undefined {
  let entry: TreeEntry | undefined = { mode: treeMode, name: '', oid: tree };
  const names = path.split('/').filter((name) => name !== '');
  names.forEach((name, i) => {
    if (entry?.mode !== treeMode) entry = undefined;
    else entry = readTreeNow(source, entry.oid, names.slice(0, i).join('/')).find((e) => e.name === name);
  });
  return entry;
}

/** Returns the bytes of the file at a path of a commit's tree, or undefined when there is no file there. */
export function readFileNow(source: ReadableObjects, commit: string, path: string): Uint8Array | undefined {
  const entry = readTreePathNow(source, readCommitNow(source, commit).tree, path);
  if (entry === undefined || entry.mode === treeMode || entry.mode === '160000') return undefined;
  return readBlobNow(source, entry.oid, path);
}

function placeOf(source: ReadableObjects, path: string | undefined): ObjectPlace {
  return path === undefined ? { gitdir: source.gitdir } : { path, gitdir: source.gitdir };
}

function subjectOf(oid: string, place: ObjectPlace): string {
  const where = place.gitdir === undefined ? oid : `${oid} in ${place.gitdir}`;
  return place.path === undefined || place.path === '' ? where : `${place.path}: ${where}`;
}
