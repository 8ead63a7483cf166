import type { PreviousBinding } from './binding.js';
import type { ClusterStatus } from './cluster.js';
import type { Fleet } from './fleet.js';

/** Everything a render depends on, passed in as data. */
export interface Snapshot {
  fleet: Fleet;
  /** Cluster name → the status its agent last reported. Absent: unknown. */
  clusterStatus: ReadonlyMap<string, ClusterStatus>;
  /** Binding key (refKey of the template) → what the previous render decided. */
  previous: ReadonlyMap<string, PreviousBinding>;
}

/** Returns a snapshot of a fleet with no status and no history. */
export function freshSnapshot(fleet: Fleet): Snapshot {
  return { fleet, clusterStatus: new Map(), previous: new Map() };
}
