// The trigger of a local repository: the adapter's ref watcher (adapters/watch) on the source
// branch and the agents' status branches, which sees their loose refs and packed-refs (after
// `git pack-refs` or `git gc`) in a bare repository and a work tree's `.git` alike. The hub's own
// branches are other refs, so its writes do not fire it. New status (a replica became ready, an
// exported slice changed, an object turned Healthy) thus reaches the hub as soon as an agent
// pushes it, not at the next resync: endpoint changes and eviction tasks wait on it.
import { watchLocalRefs as watchRefs, type RefWatcher } from '../../adapters/watch/watch-local-refs.js';
import type { Trigger } from './trigger.js';
import { fullSourceRef, statusRefPrefix } from '../../core/publish/hub-refs.js';

/**
 * Returns a trigger that fires when the source branch of a local repository moves, or, given
 * the hub's branch prefix, an agent's status branch.
 */
export function watchLocalRefs(opts: { gitdir: string; sourceRef: string; branchPrefix?: string }): Trigger {
  const ref = fullSourceRef(opts.sourceRef);
  const refs = [ref, ...(opts.branchPrefix !== undefined ? [statusRefPrefix(opts.branchPrefix)] : [])];
  let watcher: RefWatcher | undefined;
  return {
    name: `watch ${refs.join(', ')} in ${opts.gitdir}`,
    start: async (notify) => {
      watcher = await watchRefs({
        gitdir: opts.gitdir,
        refs,
        onChange: (changed) => notify(`${changed.join(', ')} changed`),
      });
    },
    stop: async () => {
      await watcher?.close();
      watcher = undefined;
    },
  };
}
