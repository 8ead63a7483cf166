// The status views' side of status repositories (docs/git-budget.md#status-repositories): the
// FleetConfig at HEAD assigns clusters to status repositories; each cluster's status branch and
// heartbeat are read from its repository (a path in place, a URL through the mirror `open`
// brings up to date), falling back to the fleet repository's while the repository holds none of
// that cluster yet (a cluster just moved). A repository that cannot be read makes its clusters
// unreadable, naming the repository, never the whole read.
import { listRefs } from '../../adapters/git/list-refs.js';
import { openObjectStore } from '../../adapters/git/object-store.js';
import { heartbeatRefPrefix, statusRefPrefix } from '../../core/publish/hub-refs.js';
import type { FleetRead } from './read-fleet-objects.js';

/** Heads (cluster → commit) to read, grouped by the repository they are read from. */
export interface HeadGroup {
  read: FleetRead;
  heads: Map<string, string>;
}

/** The status and heartbeat heads of every cluster, by where they are read. */
export interface AssignedHeads {
  status: HeadGroup[];
  heartbeats: HeadGroup[];
  /** Cluster → why its status repository cannot be read. */
  unreadable: Map<string, string>;
}

/** Returns where each cluster's status and heartbeat are read, given the fleet repository's own. */
export async function readAssignedHeads(opts: {
  read: FleetRead;
  branchPrefix: string;
  assignment: ReadonlyMap<string, string> | undefined;
  /** Returns the git directory of a status repository, up to date (throws when it cannot be read). */
  open: (url: string) => Promise<string>;
  statusHeads: ReadonlyMap<string, string>;
  heartbeatHeads: ReadonlyMap<string, string>;
}): Promise<AssignedHeads> {
  const fleetStatus = new Map(opts.statusHeads);
  const fleetBeats = new Map(opts.heartbeatHeads);
  const status: HeadGroup[] = [{ read: opts.read, heads: fleetStatus }];
  const heartbeats: HeadGroup[] = [{ read: opts.read, heads: fleetBeats }];
  const unreadable = new Map<string, string>();
  const byUrl = new Map<string, string[]>();
  for (const [cluster, url] of opts.assignment ?? []) byUrl.set(url, [...(byUrl.get(url) ?? []), cluster]);
  for (const [url, clusters] of byUrl) {
    let gitdir: string;
    try {
      gitdir = await opts.open(url);
    } catch (error) {
      const why = `status repository ${url} cannot be read: ${error instanceof Error ? error.message : String(error)}`;
      for (const cluster of clusters) {
        unreadable.set(cluster, why);
        fleetStatus.delete(cluster);
      }
      continue;
    }
    const read: FleetRead = { store: openObjectStore(gitdir), memo: opts.read.memo };
    const there = { status: new Map<string, string>(), heartbeats: new Map<string, string>() };
    const statusRefs = await listRefs(gitdir, statusRefPrefix(opts.branchPrefix));
    const beatRefs = await listRefs(gitdir, heartbeatRefPrefix(opts.branchPrefix));
    for (const cluster of clusters) {
      const head = statusRefs.get(`${statusRefPrefix(opts.branchPrefix)}${cluster}`);
      // None there yet: the fleet repository's report (if any) stands until the agent writes.
      if (head !== undefined) {
        there.status.set(cluster, head);
        fleetStatus.delete(cluster);
      }
      const beat = beatRefs.get(`${heartbeatRefPrefix(opts.branchPrefix)}${cluster}`);
      if (beat !== undefined) {
        there.heartbeats.set(cluster, beat);
        fleetBeats.delete(cluster);
      }
    }
    status.push({ read, heads: there.status });
    heartbeats.push({ read, heads: there.heartbeats });
  }
  return { status, heartbeats, unreadable };
}

/** Returns every group's heads in one map. */
export function allHeads(groups: readonly HeadGroup[]): Map<string, string> {
  return new Map(groups.flatMap((g) => [...g.heads]));
}
