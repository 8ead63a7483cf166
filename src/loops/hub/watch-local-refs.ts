// The trigger of a local repository: chokidar on the files git changes when the source branch
// moves, the loose ref `<gitdir>/refs/heads/<branch>` (git writes `<branch>.lock` and renames
// it over the ref) and `<gitdir>/packed-refs` (after `git pack-refs` or `git gc`). Both live in
// the git directory, so a bare repository and a work tree's `.git` are watched the same way.
// The hub's own branches are other files, so its writes do not trigger it.
import { existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { Trigger } from '../runtime/trigger.js';
import { fullSourceRef } from './hub-refs.js';

/** Returns a trigger that fires when the source branch of a local repository moves. */
export function watchLocalRefs(opts: { gitdir: string; sourceRef: string }): Trigger {
  const refFile = join(opts.gitdir, fullSourceRef(opts.sourceRef));
  const packedRefs = join(opts.gitdir, 'packed-refs');
  let watchers: FSWatcher[] = [];
  return {
    name: `watch ${refFile}`,
    start: (notify) => {
      // The branch's directory may not exist yet (refs/heads/feature/…): watch the nearest
      // existing one, deep enough to see the ref appear.
      let dir = dirname(refFile);
      while (!existsSync(dir) && dir.startsWith(opts.gitdir)) dir = dirname(dir);
      const depth = relative(dir, dirname(refFile)).split(sep).filter(Boolean).length;
      // Two watchers: the git directory itself only one level deep (never objects/).
      watchers = [watchFile(dir, depth, refFile, notify), watchFile(opts.gitdir, 0, packedRefs, notify)];
      return Promise.all(watchers.map(ready)).then(() => undefined);
    },
    stop: async () => {
      await Promise.all(watchers.splice(0).map((w) => w.close()));
    },
  };
}

function watchFile(dir: string, depth: number, file: string, notify: (reason: string) => void): FSWatcher {
  const watcher = watch(dir, { ignoreInitial: true, depth, persistent: true });
  watcher.on('all', (_event, path) => {
    if (path === file) notify(`${file} changed`);
  });
  return watcher;
}

function ready(watcher: FSWatcher): Promise<void> {
  return new Promise((resolve, reject) => {
    watcher.once('ready', () => resolve());
    watcher.once('error', reject);
  });
}
