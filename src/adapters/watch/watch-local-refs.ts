// A trigger for a local repository: chokidar on the files git changes when refs move, the
// loose ref files under `refs/` (git writes `<ref>.lock` and renames it over the ref) and
// `packed-refs` (after `git pack-refs` or `git gc`, and when a packed ref is deleted). Only
// `refs/` and `packed-refs` are watched, never `objects/`. Events are debounced: one push that
// moves several refs gives one call.
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { watch } from 'chokidar';

export interface WatchLocalRefsOptions {
  /** The git directory (a bare repository, or a work tree's `.git`). */
  gitdir: string;
  /** Full ref names to watch; a name ending in `/` watches every ref under it. */
  refs: readonly string[];
  /** Called with the watched refs that may have changed (all of them when packed-refs changed). */
  onChange: (refs: string[]) => void;
  /** Quiet time before calling onChange (default 100 ms). */
  debounceMs?: number;
}

/** A running watcher. */
export interface RefWatcher {
  close(): Promise<void>;
}

/** Starts watching once chokidar is ready and returns how to close it. */
export async function watchLocalRefs(opts: WatchLocalRefsOptions): Promise<RefWatcher> {
  const relativeOf = (path: string): string => relative(opts.gitdir, path).split(sep).join('/');
  const watcher = watch(opts.gitdir, {
    ignoreInitial: true,
    persistent: true,
    ignored: (path) => !isRefPath(relativeOf(path)),
  });
  let pending = new Set<string>();
  let newDirs = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    // A ref written into directories git has just created can be renamed into place before
    // chokidar watches the new directory; listing new directories after the quiet time
    // finds it all the same.
    for (const dir of newDirs) {
      for (const file of listFiles(dir)) {
        for (const ref of watchedRefsTouched(relativeOf(file), opts.refs)) pending.add(ref);
      }
    }
    newDirs = new Set();
    const changed = [...pending].sort();
    pending = new Set();
    if (changed.length > 0) opts.onChange(changed);
  };
  watcher.on('all', (event, path) => {
    const rel = relativeOf(path);
    if (event === 'addDir' && rel.startsWith('refs/')) newDirs.add(path);
    for (const ref of watchedRefsTouched(rel, opts.refs)) pending.add(ref);
    if (pending.size === 0 && newDirs.size === 0) return;
    clearTimeout(timer);
    timer = setTimeout(flush, opts.debounceMs ?? 100);
  });
  // chokidar emits 'error' (EMFILE, a directory removed while it is read) on its EventEmitter:
  // with no listener that would throw out of its callback and end the process. A missed event
  // is healed by the consumers' periodic resync, so the error is only swallowed here.
  watcher.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    watcher.once('ready', resolve);
    watcher.once('error', reject);
  });
  return {
    close: async () => {
      clearTimeout(timer);
      await watcher.close();
    },
  };
}

/** Returns every file under a directory (none when it is gone). */
function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath ?? e.path, e.name));
  } catch {
    return [];
  }
}

/** The git directory itself, `packed-refs`, and `refs/` with everything under it. */
function isRefPath(rel: string): boolean {
  return rel === '' || rel === 'packed-refs' || rel === 'refs' || rel.startsWith('refs/');
}

/** Returns the watched refs (or prefixes) a changed file may have moved. */
function watchedRefsTouched(rel: string, refs: readonly string[]): string[] {
  if (rel === 'packed-refs') return [...refs];
  if (!rel.startsWith('refs/') || rel.endsWith('.lock')) return [];
  return refs.some((r) => r === rel || (r.endsWith('/') && rel.startsWith(r))) ? [rel] : [];
}
