// What the commit-status worker computes from: the fleet status as `gitfleet status` reads it
// (loops/shared/read-fleet-status.ts) from the repository the hub writes (a remote's mirror, as
// the last pass left it), with the status and render repositories read where the hub's own
// passes read them, never fetched again. The per-object records of a cluster whose status the
// bindings head already aggregated come from the binding records (`objects: 'fresh'`), and the
// parsed blobs stay in a memo between reads: a read after a status commit costs what changed.
import { deployStatusInputOf } from '../../core/notify/deploy-status-input.js';
import type { DeployStatusInput } from '../../core/notify/deploy-status.js';
import { createFleetStatusMemo } from '../shared/fleet-status-memo.js';
import { FleetStatusError, readFleetStatus } from '../shared/read-fleet-status.js';
import type { Clock } from '../runtime/clock.js';

export interface CommitStatusReaderOptions {
  /** The git directory the hub writes (its mirror, for a remote). */
  gitdir: string;
  /** Default: the FleetConfig's at the repository's HEAD. */
  branchPrefix?: string;
  clock: Clock;
  /** The git directory of a status or render repository the hub has read, by URL; undefined: not read yet. */
  gitdirOfRepository?: (url: string) => string | undefined;
}

/** Returns a reader of the worker's input; undefined before the hub's first bindings commit. */
export function commitStatusReader(
  opts: CommitStatusReaderOptions,
): () => Promise<DeployStatusInput | undefined> {
  const memo = createFleetStatusMemo();
  const open = (url: string): Promise<string> => {
    const gitdir = opts.gitdirOfRepository?.(url);
    return gitdir !== undefined
      ? Promise.resolve(gitdir)
      : Promise.reject(new Error(`${url}: not read by the hub yet`));
  };
  return async () => {
    try {
      const data = await readFleetStatus({
        dir: opts.gitdir,
        ...(opts.branchPrefix !== undefined ? { branchPrefix: opts.branchPrefix } : {}),
        objects: 'fresh',
        templateLabels: false,
        memo,
        openStatusRepository: open,
      });
      return deployStatusInputOf(data, new Date(opts.clock.now()));
    } catch (error) {
      if (error instanceof FleetStatusError && error.code === 'NoBindingsBranch') return undefined;
      throw error;
    }
  };
}
