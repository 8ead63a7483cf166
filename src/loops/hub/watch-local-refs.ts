// The trigger of a local repository: the adapter's ref watcher (adapters/watch) on the source
// branch, which sees its loose ref and packed-refs (after `git pack-refs` or `git gc`) in a
// bare repository and a work tree's `.git` alike. The hub's own branches are other refs, so
// its writes do not fire it.
import { watchLocalRefs as watchRefs, type RefWatcher } from '../../adapters/watch/watch-local-refs.js';
import type { Trigger } from '../runtime/trigger.js';
import { fullSourceRef } from '../../core/publish/hub-refs.js';

/** Returns a trigger that fires when the source branch of a local repository moves. */
export function watchLocalRefs(opts: { gitdir: string; sourceRef: string }): Trigger {
  const ref = fullSourceRef(opts.sourceRef);
  let watcher: RefWatcher | undefined;
  return {
    name: `watch ${ref} in ${opts.gitdir}`,
    start: async (notify) => {
      watcher = await watchRefs({
        gitdir: opts.gitdir,
        refs: [ref],
        onChange: () => notify(`${ref} changed`),
      });
    },
    stop: async () => {
      await watcher?.close();
      watcher = undefined;
    },
  };
}
