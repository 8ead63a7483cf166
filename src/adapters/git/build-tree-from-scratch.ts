// First passes: every tree of a branch from its full file list, no repository reads.
import type { GitObject } from './git-object.js';
import { GitWriteError } from './git-write-error.js';
import { toGitObject } from './hash-object.js';
import { assertValidName } from './split-tree-path.js';
import { encodeTree, fileMode, treeMode, type TreeEntry } from './tree-object.js';

/** A built tree: its root id and the tree objects made for it (each id once). */
export interface BuiltTree {
  root: string;
  newObjects: GitObject[];
}

interface Directory {
  files: Map<string, string>;
  dirs: Map<string, Directory>;
}

/** Returns the root tree of the given files (path -> blob id, mode 100644) and every tree object under it. */
export function buildTreeFromScratch(files: ReadonlyMap<string, string>): BuiltTree {
  const top: Directory = { files: new Map(), dirs: new Map() };
  for (const [path, oid] of files) addFile(top, path, oid);
  const trees = new Map<string, GitObject>();
  const root = writeDirectory(top, trees);
  return { root, newObjects: [...trees.values()] };
}

function addFile(top: Directory, path: string, oid: string): void {
  const parts = path.split('/');
  const name = parts.pop()!;
  assertValidName(name, path);
  let dir = top;
  for (const part of parts) {
    if (dir.files.has(part)) throw conflict(path);
    let sub = dir.dirs.get(part);
    if (!sub) {
      // Directory names are checked once, when first seen.
      assertValidName(part, path);
      sub = { files: new Map(), dirs: new Map() };
      dir.dirs.set(part, sub);
    }
    dir = sub;
  }
  if (dir.dirs.has(name)) throw conflict(path);
  dir.files.set(name, oid);
}

function conflict(path: string): GitWriteError {
  return new GitWriteError('PathConflict', `${path}: both a file and a directory in one tree`);
}

function writeDirectory(dir: Directory, trees: Map<string, GitObject>): string {
  const entries: TreeEntry[] = [];
  for (const [name, oid] of dir.files) entries.push({ mode: fileMode, name, oid });
  for (const [name, sub] of dir.dirs) entries.push({ mode: treeMode, name, oid: writeDirectory(sub, trees) });
  const tree = toGitObject('tree', encodeTree(entries));
  trees.set(tree.oid, tree);
  return tree.oid;
}
