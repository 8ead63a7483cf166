// Reads one object, loose or packed, through isomorphic-git, and reads the two shapes the
// writers need from it: a tree's entries and a commit's parents.
import { parseCommit } from './parse-commit.js';
import fs from 'node:fs';
import git from 'isomorphic-git';
import { corruptObjectMessage } from './corrupt-object.js';
import { forgetRemovedPacks } from './forget-removed-packs.js';
import { GitWriteError } from './git-write-error.js';
import { parseTree, type TreeEntry } from './tree-object.js';

/**
 * Where to read from; `cache` is isomorphic-git's cache of parsed pack indexes and loaded
 * packs. Without one shared across reads, every read loads and parses the packs again, so
 * each entry point that reads more than once makes one (`withCache`).
 */
export interface ObjectSource {
  gitdir: string;
  cache?: object;
  /** The file system isomorphic-git reads through (default node:fs; see object-store.ts). */
  fs?: GitFs;
  /**
   * Commits the caller has just written (id → parent ids): known to be stored, so their type
   * and parents are not read back (the hub moves its refs to commits it built a moment ago).
   */
  written?: ReadonlyMap<string, readonly string[]>;
}

export type GitFs = Parameters<typeof git.readObject>[0]['fs'];

/** Returns the source with a cache, the caller's or a new one to share across this call's reads. */
export function withCache<T extends ObjectSource>(source: T): T & { cache: object } {
  return { ...source, cache: source.cache ?? {} };
}

/** Returns an object's type and content, or throws MissingObject or CorruptObject. */
export async function readGitObject(
  source: ObjectSource,
  oid: string,
): Promise<{ type: string; content: Uint8Array }> {
  try {
    return await readThrough(source.fs ?? fs, source, oid);
  } catch {
    // A repack (repack-packs.ts) may have removed a pack this reader had listed or cached, and
    // isomorphic-git then fails in more ways than one (a miss, an unreadable pack, a null
    // index): the objects are in the pack that replaced it, so any failure is tried once more
    // after forgetting the packs that are gone and listing the directory again. A real miss
    // or damage fails the same way twice, and that error is the one reported.
    if (source.cache) forgetRemovedPacks(source.cache);
    relist(source.fs);
    try {
      return await readThrough(source.fs ?? fs, source, oid);
    } catch (second) {
      throw explain(source, oid, second);
    }
  }
}

async function readThrough(
  through: GitFs,
  source: ObjectSource,
  oid: string,
): Promise<{ type: string; content: Uint8Array }> {
  const read = await git.readObject({
    fs: through,
    gitdir: source.gitdir,
    oid,
    format: 'content',
    cache: source.cache ?? {},
  });
  return { type: read.type, content: read.object as Uint8Array };
}

/** Makes a caching view of the file system (object-store-fs.ts) list directories again. */
function relist(through: GitFs | undefined): void {
  (through as { relist?: () => void } | undefined)?.relist?.();
}

/** Returns the error to throw for a failed read: MissingObject, CorruptObject, or the error itself. */
function explain(source: ObjectSource, oid: string, error: unknown): unknown {
  if ((error as { code?: string }).code === 'NotFoundError') {
    return new GitWriteError('MissingObject', `${oid}: no such object in ${source.gitdir}`);
  }
  const corrupt = corruptObjectMessage(source.gitdir, oid, error);
  return corrupt ? new GitWriteError('CorruptObject', corrupt) : error;
}

/** Returns the entries of the tree with the given id. */
export async function readTreeEntries(source: ObjectSource, oid: string): Promise<TreeEntry[]> {
  const object = await readGitObject(source, oid);
  if (object.type !== 'tree') {
    throw new GitWriteError('WrongObjectType', `${oid}: a ${object.type}, not a tree`);
  }
  return parseTree(object.content, oid);
}

/** Returns the parent ids of the commit with the given id. */
export async function readCommitParents(source: ObjectSource, oid: string): Promise<string[]> {
  const written = source.written?.get(oid);
  if (written) return [...written];
  const object = await readGitObject(source, oid);
  if (object.type !== 'commit') {
    throw new GitWriteError('WrongObjectType', `${oid}: a ${object.type}, not a commit`);
  }
  return parseCommitParents(object.content);
}

/** Returns the parent ids named by a commit object's content. */
export function parseCommitParents(content: Uint8Array): string[] {
  return parseCommit(content).parents;
}
