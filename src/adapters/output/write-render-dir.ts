import { closeSync, constants, openSync, readFileSync, type Dirent } from 'node:fs';
import { mkdir, readdir, rename, rmdir, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { mapConcurrent } from '../map-concurrent.js';
import { checkOutputPaths } from './check-output-paths.js';
import { DirHandle, refusedIfLink } from './dir-handle.js';
import { OutputDirError } from './output-dir-error.js';

export { OutputDirError, type OutputDirErrorCode } from './output-dir-error.js';

const marker = '.gitfleet-render';

// Creating a file waits for the disk, so a render of 100,000 files written one at a time waits
// 100,000 times; with many in flight the waits overlap. A few clusters at a time, so that only
// their listings and plans are held, and 16 files at a time in each: at most 64 in flight, well
// under the usual limit of open files.
const clustersInFlight = 4;
const filesInFlight = 16;

/** A change to one file of a rendered cluster directory. */
export interface FileChange {
  cluster: string;
  path: string;
  change: 'added' | 'changed' | 'removed';
}

// Every directory below `dir` is reached through an open handle of its parent (dir-handle.ts), so
// a directory swapped for a link after the listing fails the open instead of leading the writes
// out of `dir`. A file is never written in place: its new text goes to a new file beside it,
// renamed over the old one, so a hard link to the old file (a `cp -al` backup) keeps its content,
// and a link put in the file's place is replaced, not written through.
const createFlags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const readFlags = constants.O_RDONLY | constants.O_NOFOLLOW;
let temporaries = 0;

/**
 * Writes every cluster's files under `dir/<cluster>/`, removes files no longer rendered, and
 * returns what changed. Only a directory that is empty or was written by gitfleet (it carries a
 * marker file) is touched, so a mistyped --out can never delete someone's files. Files that
 * did not change are not rewritten. Nothing is written when a rendered path cannot be written
 * faithfully (check-output-paths.ts), or when anything under `dir` is a symbolic link (or neither
 * a file nor a directory): a link could lead the writes and removals out of `dir`, so it is
 * refused, naming it, before anything is written.
 *
 * The changes come cluster by cluster in render order: the cluster's written files in render
 * order, then its removed files in the order of a walk of its directory (names sorted at each
 * level); last, the files of cluster directories no longer rendered, by cluster name.
 */
export async function writeRenderDir(
  dir: string,
  clusters: ReadonlyMap<string, ReadonlyMap<string, string>>,
): Promise<FileChange[]> {
  checkOutputPaths(dir, clusters);
  const top = await readDirIfExists(dir);
  if (top !== undefined) checkEntries(dir, '.', top);
  if (top !== undefined && top.length > 0 && !top.some((e) => e.name === marker)) {
    throw new OutputDirError(
      'OutputDirNotOurs',
      `${dir}: not empty and not written by gitfleet render (no ${marker}); refusing to write there`,
    );
  }
  const present = new Set((top ?? []).filter((e) => e.isDirectory()).map((e) => e.name));
  const stale = [...present].filter((name) => !clusters.has(name)).sort();
  await mkdir(dir, { recursive: true });
  const root = DirHandle.openRoot(dir);
  try {
    // Every listing is read, and so every link found, before the first write.
    const listings = await mapConcurrent([...clusters.keys()], clustersInFlight, (cluster) =>
      present.has(cluster) ? readTree(root, cluster) : Promise.resolve<Listing>(new Map()),
    );
    const staleListings = await mapConcurrent(stale, clustersInFlight, (cluster) => readTree(root, cluster));
    const note =
      'This directory is written by `gitfleet render`; its contents are replaced on every render.\n';
    await writeIfChanged(root, {
      path: marker,
      text: note,
      existed: top?.some((e) => e.name === marker) ?? false,
    });
    const written = await mapConcurrent([...clusters], clustersInFlight, ([cluster, files], i) =>
      writeClusterDir(root, cluster, files, listings[i]!),
    );
    const removed = await mapConcurrent(stale, clustersInFlight, (cluster, i) =>
      removeClusterDir(root, cluster, staleListings[i]!),
    );
    return [...written.flat(), ...removed.flat()];
  } finally {
    root.close();
  }
}

/** Throws naming the first entry that is a symbolic link or neither a file nor a directory. */
function checkEntries(root: string, rel: string, entries: readonly Dirent[]): void {
  for (const entry of entries) {
    if (entry.isFile() || entry.isDirectory()) continue;
    const kind = entry.isSymbolicLink() ? 'a symbolic link' : 'neither a file nor a directory';
    throw new OutputDirError(
      'NotAFileOrDirectory',
      `${join(root, rel, entry.name)}: is ${kind}; gitfleet render writes only files and directories ` +
        `of its own and follows no link out of ${root}: remove it and render again`,
    );
  }
}

/** One rendered file to bring onto disk. */
interface FileWrite {
  /** Relative to the cluster directory. */
  path: string;
  text: string;
  /** Whether the file is on disk already, so it is compared before it is written. */
  existed: boolean;
}

/** Brings one cluster's directory to its rendered files; returns what changed. */
async function writeClusterDir(
  root: DirHandle,
  cluster: string,
  files: ReadonlyMap<string, string>,
  listing: Listing,
): Promise<FileChange[]> {
  const before = new Set(filesUnder(listing));
  const writes: FileWrite[] = [...files].map(([path, text]) => ({
    path,
    text,
    existed: before.delete(path),
  }));
  // A cluster's .gitfleet/ holds state that is not rendered; it stays.
  const removals = [...before].filter((path) => !path.startsWith('.gitfleet/'));
  const base = root.openChild(cluster, true);
  const dirs = new DirCache(base);
  try {
    const wrote = await mapConcurrent(writes, filesInFlight, async (write) => {
      const parent = dirs.acquire(dirname(write.path));
      try {
        return await writeIfChanged(parent, { ...write, path: basename(write.path) });
      } finally {
        dirs.release(dirname(write.path));
      }
    });
    await removeFiles(dirs, removals);
    return [
      ...writes
        .filter((_, i) => wrote[i])
        .map(({ path, existed }): FileChange => ({ cluster, path, change: existed ? 'changed' : 'added' })),
      ...removals.map((path): FileChange => ({ cluster, path, change: 'removed' })),
    ];
  } finally {
    base.close();
  }
}

/**
 * The open directories of one cluster's writes, by path relative to the cluster directory,
 * each closed when its last user is done: files come in path order, so those of one directory
 * follow each other and only a few directories are open at a time. Missing ones are created.
 */
class DirCache {
  private readonly open = new Map<string, { handle: DirHandle; users: number }>();

  constructor(private readonly base: DirHandle) {}

  acquire(rel: string): DirHandle {
    let held = this.open.get(rel);
    if (held === undefined) this.open.set(rel, (held = { handle: this.base.openPath(rel, true), users: 0 }));
    held.users++;
    return held.handle;
  }

  release(rel: string): void {
    const held = this.open.get(rel);
    if (held === undefined || --held.users > 0) return;
    held.handle.close();
    this.open.delete(rel);
  }
}

/** Removes the directory of a cluster that is no longer rendered; returns its files as removed. */
async function removeClusterDir(root: DirHandle, cluster: string, listing: Listing): Promise<FileChange[]> {
  const paths = filesUnder(listing);
  await removeTree(root, cluster);
  return paths.map((path) => ({ cluster, path, change: 'removed' }));
}

// Depth first through handles: a directory swapped for a link is unlinked as the link it now is
// (the open without following fails), never entered.
async function removeTree(parent: DirHandle, name: string): Promise<void> {
  let dir: DirHandle;
  try {
    dir = parent.openChild(name);
  } catch (error) {
    if (!(error instanceof OutputDirError)) throw error;
    await unlink(parent.entry(name));
    return;
  }
  try {
    for (const entry of await readdir(dir.self(), { withFileTypes: true })) {
      if (entry.isDirectory()) await removeTree(dir, entry.name);
      else await unlink(dir.entry(entry.name));
    }
  } finally {
    dir.close();
  }
  await rmdir(parent.entry(name));
}

/** A directory tree as read from disk: each directory's path relative to the root ('.' for the
 * root itself) → its entries, sorted by name. */
type Listing = Map<string, Dirent[]>;

/**
 * Returns the entries of every directory under the cluster's, checked by checkEntries. Each
 * directory is listed through a handle opened from its parent's without following links, as
 * the writes are, so a directory swapped for a link is refused here too, never listed through.
 */
async function readTree(root: DirHandle, cluster: string): Promise<Listing> {
  const listing: Listing = new Map();
  // Level by level, so the directories of one level are read side by side.
  let level = ['.'];
  while (level.length > 0) {
    const entries = await mapConcurrent(level, filesInFlight, (rel) =>
      listThrough(root, childPath(cluster, rel)),
    );
    const next: string[] = [];
    level.forEach((rel, i) => {
      const found = entries[i];
      if (found === undefined) return;
      checkEntries(root.path, childPath(cluster, rel), found);
      listing.set(rel, found);
      for (const entry of found) if (entry.isDirectory()) next.push(childPath(rel, entry.name));
    });
    level = next;
  }
  return listing;
}

/** Lists the directory at `rel` under `root`, opened component by component; undefined when it is gone. */
async function listThrough(root: DirHandle, rel: string): Promise<Dirent[] | undefined> {
  let dir: DirHandle;
  try {
    dir = root.openPath(rel);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return await readdir(dir.self(), { withFileTypes: true });
  } finally {
    dir.close();
  }
}

async function readDirIfExists(path: string): Promise<Dirent[] | undefined> {
  try {
    return await readdir(path, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function childPath(rel: string, name: string): string {
  if (name === '.') return rel;
  return rel === '.' ? name : `${rel}/${name}`;
}

/** Returns the files of the listing, depth first with names sorted at each level. */
function filesUnder(listing: Listing, rel = '.'): string[] {
  const out: string[] = [];
  for (const entry of listing.get(rel) ?? []) {
    const path = childPath(rel, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(listing, path));
    else out.push(path);
  }
  return out;
}

/** Writes the file (a name in `parent`) unless it holds the text already; returns whether it wrote. */
async function writeIfChanged(parent: DirHandle, { path, text, existed }: FileWrite): Promise<boolean> {
  const file = parent.entry(path);
  // Read synchronously: a file written by the last render is almost always in the page cache,
  // where reading it is CPU work, and a read through libuv's thread pool costs several times
  // more (100,000 files on 2 cores: 1.2-1.7 s synchronously against 8.5 s 64 at a time).
  if (existed && readWithoutFollowing(file, join(parent.path, path)) === text) return false;
  // A file new to the listing is created exclusively where it goes (a link or file put there
  // since fails the write); one that exists is replaced by a rename, never truncated.
  if (!existed) {
    await writeFile(file, text, { flag: createFlags });
    return true;
  }
  const temporary = parent.entry(`.gitfleet-new-${process.pid}-${temporaries++}`);
  await writeFile(temporary, text, { flag: createFlags });
  try {
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  return true;
}

function readWithoutFollowing(file: string, shown: string): string {
  let fd: number;
  try {
    fd = openSync(file, readFlags);
  } catch (error) {
    throw refusedIfLink(error, shown);
  }
  try {
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** Deletes the files, then the directories they leave empty, deepest first, up to (not
 * including) the cluster directory: it stays while the cluster is rendered, even when empty. */
async function removeFiles(dirs: DirCache, paths: readonly string[]): Promise<void> {
  await mapConcurrent(paths, filesInFlight, async (path) => {
    const parent = dirs.acquire(dirname(path));
    try {
      await unlink(parent.entry(basename(path)));
    } finally {
      dirs.release(dirname(path));
    }
  });
  const byDepth = new Map<number, Set<string>>();
  for (const path of paths) {
    for (let rel = dirname(path); rel !== '.'; rel = dirname(rel)) {
      const depth = rel.split('/').length;
      byDepth.set(depth, (byDepth.get(depth) ?? new Set()).add(rel));
    }
  }
  // Deepest first, so a directory is tried after everything below it; the directories of one
  // depth are not inside each other, so they can go side by side. rmdir removes no link.
  for (const depth of [...byDepth.keys()].sort((a, b) => b - a)) {
    const level = [...(byDepth.get(depth) ?? [])];
    await mapConcurrent(level, filesInFlight, async (rel) => {
      const parent = dirs.acquire(dirname(rel));
      try {
        await rmdir(parent.entry(basename(rel))).catch(() => undefined);
      } finally {
        dirs.release(dirname(rel));
      }
    });
  }
}
