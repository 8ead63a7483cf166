import type { PreviousBinding } from './binding.js';
import type { ClusterStatus } from './cluster.js';
import type { TimedTaint } from './failover.js';
import type { ExportedSlice } from './exported-slice.js';
import type { Fleet } from './fleet.js';

/** Everything a render depends on, passed in as data. */
export interface Snapshot {
  fleet: Fleet;
  /** Cluster name → the status its agent last reported. Absent: unknown. */
  clusterStatus: ReadonlyMap<string, ClusterStatus>;
  /** Binding key (refKey of the template) → what the previous render decided. */
  previous: ReadonlyMap<string, PreviousBinding>;
  /** Cluster name → the EndpointSlices of the Services it exports, as its agent last reported them. */
  exportedSlices?: ReadonlyMap<string /* cluster */, readonly ExportedSlice[]>;
  /**
   * Cluster → the taints the hub keeps on it (core/failover/cluster-taints.ts: from its
   * conditions and the ClusterTaintPolicies), added to its spec taints by the scheduler.
   * Absent: the taints are derived from the Ready condition alone (effectiveTaints).
   */
  clusterTaints?: ReadonlyMap<string, readonly TimedTaint[]>;
}

/** Returns a snapshot of a fleet with no status and no history. */
export function freshSnapshot(fleet: Fleet): Snapshot {
  return { fleet, clusterStatus: new Map(), previous: new Map() };
}
