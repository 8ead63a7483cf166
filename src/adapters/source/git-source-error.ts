// What reading a commit of a local repository can fail with, and the repository being read.
import type { objectStoreFs } from '../git/object-store-fs.js';
import { GitfleetError } from '../../core/model/gitfleet-error.js';

export type GitSourceErrorCode =
  'NotAGitRepository' | 'RefNotFound' | 'AmbiguousRef' | 'NotACommit' | 'CorruptObject';

/** Why a commit could not be read; retrying cannot fix any of these. */
export class GitSourceError extends GitfleetError<GitSourceErrorCode> {
  constructor(code: GitSourceErrorCode, message: string) {
    super(message, { code, terminal: true });
  }
}

/** A repository being read: `dir` names it in messages. */
export interface GitSourceRepo {
  dir: string;
  gitdir: string;
  /** Where HEAD and per-work-tree refs are read: a linked work tree's own git directory (default `gitdir`). */
  headDir?: string;
  /** The file system as isomorphic-git sees it (object-store-fs.ts). */
  fs: ReturnType<typeof objectStoreFs>;
  /** isomorphic-git's cache of parsed packfiles, shared by every read of one call. */
  cache: object;
}
