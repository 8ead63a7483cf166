import type { RefusingFilter } from '../model/binding.js';
import type { Cluster, ClusterStatus, Taint } from '../model/cluster.js';
import type { GracefulEvictionTask, TimedTaint } from '../model/failover.js';
import type { FleetApis } from './fleet-apis.js';
import type { ObjectRef } from '../model/object-ref.js';
import type { Placement } from '../model/propagation-policy.js';
import type { ClusterAffinity } from '../model/selectors.js';

// The shape every filter plugin has, apart from the list that runs them (cluster-filter.ts),
// so each plugin depends on this shape and the list depends on the plugins, not both ways.

/**
 * A filter plugin's verdict on one cluster; `reason` is shown to users as `<cluster>: <reason>`,
 * `filter` names the plugin (the binding record keeps both, core/status/explain-refusal.ts words them).
 */
export type FilterResult =
  { ok: true } | { ok: false; filter: RefusingFilter; reason: string; taint?: Taint };

/** What every filter may look at besides the cluster itself. */
export interface FilterContext {
  resource: ObjectRef;
  placement: Placement;
  /** The affinity in force: `clusterAffinity`, or the current `clusterAffinities` term. */
  affinity: ClusterAffinity | undefined;
  clusterStatus: ReadonlyMap<string, ClusterStatus>;
  /** The taints the hub keeps per cluster (Snapshot.clusterTaints); absent: derived (effectiveTaints). */
  clusterTaints?: ReadonlyMap<string, readonly TimedTaint[]>;
  /** The APIs the fleet's own CRDs serve on each cluster (fleet-apis.ts); absent: none. */
  fleetApis?: FleetApis;
  /** Clusters of the previous scheduling result (Karmada's `spec.clusters`). */
  previousClusters: ReadonlySet<string>;
  /** The binding's graceful eviction tasks (Karmada's spec.gracefulEvictionTasks); absent: none. */
  evictionTasks?: readonly GracefulEvictionTask[];
}

/** A filter plugin: its verdict on one cluster, given what the scheduler knows. */
export type ClusterFilter = (cluster: Cluster, context: FilterContext) => FilterResult;
