// The repository files a render tool reads, as the commit (or directory) being rendered holds
// them, binary files included: a chart's tree, its packaged .tgz, a kustomization and its bases.
// Each input path has a digest (a git object id, or a hash of a directory's files) that the
// render cache keys on, and is copied into the tool's working directory to be rendered.
import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, writeFile, cp } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ObjectSource } from '../git/read-git-object.js';
import {
  readBlobNow,
  readBlobTextNow,
  readCommitNow,
  readTreeNow,
  readTreePathNow,
} from '../git/read-typed-object.js';

/** Files of the repository revision being rendered. */
export interface SourceTree {
  /** Returns a digest of what a repository path holds (file or directory), or undefined when it holds nothing. */
  digest(path: string): Promise<string | undefined>;
  /** Copies a repository path (file or directory) to the same relative path under a directory. */
  copyTo(path: string, root: string): Promise<void>;
  /** Returns the text of a file at a repository path, or undefined when no file is there (a link reads as none). */
  readText(path: string): Promise<string | undefined>;
}

/** Returns the tree of one commit of a git repository, read from its objects. */
export function gitSourceTree(store: ObjectSource, commit: string): SourceTree {
  const find = (path: string): { oid: string; mode: string } | undefined =>
    readTreePathNow(store, readCommitNow(store, commit).tree, path);
  const write = async (oid: string, mode: string, target: string): Promise<void> => {
    if (mode === '40000') {
      await mkdir(target, { recursive: true });
      for (const e of readTreeNow(store, oid)) await write(e.oid, e.mode, join(target, e.name));
    } else if (mode !== '120000' && mode !== '160000') {
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, readBlobNow(store, oid));
    }
  };
  return {
    digest: (path) => Promise.resolve(find(path)?.oid),
    readText(path) {
      const entry = find(path);
      const isFile =
        entry !== undefined && entry.mode !== '40000' && entry.mode !== '120000' && entry.mode !== '160000';
      return Promise.resolve(isFile ? readBlobTextNow(store, entry.oid, path) : undefined);
    },
    async copyTo(path, root) {
      const entry = find(path);
      if (entry) await write(entry.oid, entry.mode, join(root, path));
    },
  };
}

/** Returns the tree of a plain directory (links are not followed, as the directory source reads it). */
export function directorySourceTree(dir: string): SourceTree {
  const hashInto = async (hash: ReturnType<typeof createHash>, path: string, rel: string): Promise<void> => {
    const stat = await lstat(path);
    if (stat.isDirectory()) {
      for (const name of (await readdir(path)).sort())
        await hashInto(hash, join(path, name), `${rel}/${name}`);
    } else if (stat.isFile()) {
      hash.update(`${rel}\0${stat.size}\0`).update(await readFile(path));
    }
  };
  return {
    async readText(path) {
      // A repository path only: nothing outside the directory is read.
      if (path.startsWith('/') || path.split('/').includes('..')) return undefined;
      const full = join(dir, path);
      const stat = await lstat(full).catch(() => undefined);
      return stat?.isFile() ? readFile(full, 'utf8') : undefined;
    },
    async digest(path) {
      const full = join(dir, path);
      const exists = await lstat(full).catch(() => undefined);
      if (!exists) return undefined;
      const hash = createHash('sha256');
      await hashInto(hash, full, '');
      return hash.digest('hex');
    },
    async copyTo(path, root) {
      const full = join(dir, path);
      if (await lstat(full).catch(() => undefined))
        await cp(full, join(root, path), {
          recursive: true,
          verbatimSymlinks: true,
          filter: async (src) => !src.includes('/.git/') && !(await lstat(src)).isSymbolicLink(),
        });
    },
  };
}
