// Directories of the render output held open, so that every write, rename and removal under them
// is made relative to the directory that was opened, as openat(2) does, and no path is resolved
// again through a component someone may have swapped for a symbolic link since the listing.
//
// Node has no openat. On Linux, `/proc/self/fd/N/name` is resolved from the open directory N
// itself (the magic link is the directory, wherever it is now), so it is openat's `name` under
// fd N; each component below the output directory is opened from its parent's handle with
// O_NOFOLLOW | O_DIRECTORY, and a link in its place fails the open (ELOOP or ENOTDIR) instead of
// being followed. Checking each component (lstat, or an fd's dev and ino) and then writing by
// full path would leave the window open between the check and the write; this closes it. Where
// /proc/self/fd is missing (not Linux), handles fall back to full paths, and only the listing's
// check and O_NOFOLLOW on the last component guard the writes (the race stays open there).
import { closeSync, constants, mkdirSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { OutputDirError } from './output-dir-error.js';

const dirFlags = constants.O_RDONLY | constants.O_DIRECTORY;
const childFlags = dirFlags | constants.O_NOFOLLOW;

const hasProcFd = (() => {
  try {
    return statSync('/proc/self/fd').isDirectory();
  } catch {
    return false;
  }
})();

/** An open directory of the output: `entry(name)` names something in it without resolving its path again. */
export class DirHandle {
  private closed = false;

  private constructor(
    /** The directory's path, for messages (and the fallback). */
    readonly path: string,
    private fd: number | undefined,
  ) {}

  /** Opens a directory the user named (its own path is followed: it is theirs). */
  static openRoot(path: string): DirHandle {
    return new DirHandle(path, hasProcFd ? openSync(path, dirFlags) : undefined);
  }

  /** Returns the path that names `name` in this directory. */
  entry(name: string): string {
    this.checkOpen();
    return this.fd === undefined ? join(this.path, name) : `/proc/self/fd/${this.fd}/${name}`;
  }

  /** Returns the path of this directory itself, to list it. */
  self(): string {
    this.checkOpen();
    return this.fd === undefined ? this.path : `/proc/self/fd/${this.fd}`;
  }

  /**
   * Opens the directory `name` in this one without following a link; creates it first when
   * `create`. A link, or anything else that is not a directory, in its place is refused.
   */
  openChild(name: string, create = false): DirHandle {
    this.checkOpen();
    const path = join(this.path, name);
    if (create) {
      try {
        mkdirSync(this.entry(name));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    if (this.fd === undefined) return new DirHandle(path, undefined);
    try {
      return new DirHandle(path, openSync(this.entry(name), childFlags));
    } catch (error) {
      throw refusedIfLink(error, path);
    }
  }

  /** Opens the directory at `rel` ('a/b', or '.' for this one) component by component. */
  openPath(rel: string, create = false): DirHandle {
    const names = rel === '.' ? ['.'] : rel.split('/');
    let at = this.openChild(names[0]!, create);
    for (const name of names.slice(1)) {
      let next: DirHandle;
      try {
        next = at.openChild(name, create);
      } finally {
        at.close();
      }
      at = next;
    }
    return at;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.closed = true;
  }

  // A closed handle must never fall back to resolving its path (through whatever is there now),
  // nor name its old descriptor number, which the next open may reuse for another directory.
  private checkOpen(): void {
    if (this.closed) throw new Error(`${this.path}: directory handle used after it was closed`);
  }
}

/** Returns the error to throw for a failed open of `path`: a refusal when a link or a non-directory was met. */
export function refusedIfLink(error: unknown, path: string): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== 'ELOOP' && code !== 'ENOTDIR') return error;
  return new OutputDirError(
    'NotAFileOrDirectory',
    `${path}: is a symbolic link or not a directory (it changed during the render); gitfleet ` +
      'render follows no link out of its output: remove it and render again',
  );
}
