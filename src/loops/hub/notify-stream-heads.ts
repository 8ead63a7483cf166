// The heads of the notifier's streams (notify-worker.ts): the bindings branch and every
// cluster's status branch, read where it lives: the hub's repository, or the status repository
// the fleet assigns the cluster (docs/notifications.md#where-events-come-from).
import { listRefs } from '../../adapters/git/list-refs.js';
import { openObjectStore } from '../../adapters/git/object-store.js';
import { statusRefPrefix } from '../../core/publish/hub-refs.js';
import { createFleetStatusMemo } from '../views/fleet-status-memo.js';
import type { FleetRead } from '../views/read-fleet-objects.js';
import type { Stream } from './notify-router.js';
import type { StatusRepositories } from './status-repositories.js';

/** The status branches of clusters whose status lives in a status repository (status-repositories.ts). */
export type StatusBranches = Pick<StatusRepositories, 'overlay' | 'gitdirOf'>;

/**
 * The streams events are read from: the bindings branch, then each cluster's status branch by
 * name, read from its status repository when it has one (the head the hub's last refresh of it
 * saw, its commits from that repository's mirror).
 */
export async function streamsOf(
  gitdir: string,
  opts: { branchPrefix: string; statusRepositories?: StatusBranches | undefined },
  bindingsHead: string,
): Promise<Stream[]> {
  const streams: Stream[] = [{ name: 'bindings', head: bindingsHead, kind: 'bindings' }];
  const prefix = statusRefPrefix(opts.branchPrefix);
  const status = opts.statusRepositories;
  const fleetRefs = await listRefs(gitdir, prefix);
  const refs = status ? status.overlay(fleetRefs) : fleetRefs;
  const stores = new Map<string, FleetRead>();
  for (const [name, head] of [...refs].filter(([ref]) => ref.startsWith(prefix)).sort()) {
    const cluster = name.slice(prefix.length);
    const elsewhere = status?.gitdirOf(cluster, name);
    const stream: Stream = { name: `status/${cluster}`, head, kind: 'status' };
    if (elsewhere !== undefined) stream.read = storeOf(stores, elsewhere);
    streams.push(stream);
  }
  return streams;
}

// One object store per status repository read in a look.
function storeOf(stores: Map<string, FleetRead>, gitdir: string): FleetRead {
  let read = stores.get(gitdir);
  if (!read) stores.set(gitdir, (read = { store: openObjectStore(gitdir), memo: createFleetStatusMemo() }));
  return read;
}
