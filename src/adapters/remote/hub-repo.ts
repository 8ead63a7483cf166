// The repository a hub works on, as the hub pass sees it: a local git directory it reads
// objects and refs from and writes objects and refs into, plus two hooks for repositories
// that live elsewhere. For a local repository both hooks do nothing; for a remote one,
// `refresh` fetches the remote's refs and objects into the local mirror and `publish` pushes
// the moved refs back (src/adapters/remote).
import { findLocalGitdir } from '../source/find-local-gitdir.js';
import { GitReadError } from '../git/git-read-error.js';
import type { RefMove } from '../../core/model/ref-move.js';

/** A repository the hub renders into. */
export interface HubRepo {
  /** The git directory read and written by the pass (a bare repository or `<work tree>/.git`). */
  readonly gitdir: string;
  /** What the repository is, for messages (a path or a URL without credentials). */
  readonly description: string;
  /**
   * Set when the repository holds only the hub's branches under this prefix (a remote's
   * mirror, which fetches and pushes nothing else): a fleet whose FleetConfig names another
   * branchPrefix cannot be rendered into it.
   */
  readonly branchPrefix?: string;
  /** Brings `gitdir` up to date with the repository's current refs and objects. */
  refresh(): Promise<void>;
  /**
   * Makes the ref moves, already applied to `gitdir`, visible where the repository lives. The
   * moves come in order and the bindings branch is last: the hub takes "the bindings branch
   * names source commit S" as "S is fully published", so an implementation must make it
   * visible last (or every move at once). A move that loses a race throws an error with
   * code RefConflict or PushRejected, so the pass refreshes, re-reads and runs again.
   * `walked`: the objects the moves need beyond what the repository's branches reach, when the
   * caller walked them already (a render repository's copy): a push sends them without a walk
   * of its own (a remote that lacks one refuses the pack, and the push is planned afresh).
   */
  publish(moves: readonly RefMove[], walked?: readonly string[]): Promise<void>;
}

/**
 * Returns the hub repository of a local path: a bare repository, or a work tree whose `.git`
 * is a directory or a `gitdir:` file. Refs move in place, so refresh and publish do nothing.
 */
export function localHubRepo(path: string): HubRepo {
  const gitdir = localGitdir(path);
  return {
    gitdir,
    description: path,
    refresh: () => Promise.resolve(),
    publish: () => Promise.resolve(),
  };
}

/** Returns the git directory of a local repository, or throws a terminal error naming the path. */
export function localGitdir(path: string): string {
  const gitdir = findLocalGitdir(path);
  if (gitdir) return gitdir;
  throw new GitReadError(
    'NotAGitRepository',
    `${path}: not a git repository (no .git, and not a bare repository)`,
  );
}
