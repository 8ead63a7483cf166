import type { PreviousBinding } from '../model/binding.js';
import type { Cluster, ClusterStatus } from '../model/cluster.js';
import type { TimedTaint } from '../model/failover.js';
import type { ObjectRef } from '../model/object-ref.js';
import type { Placement } from '../model/propagation-policy.js';
import type { FleetApis } from './fleet-apis.js';
import type { ReplicaRequest } from './replica-request-of.js';

// The scheduler's input on its own, so the steps scheduleBinding calls (scheduleForAffinity)
// can take it without importing scheduleBinding back.

/** Everything the scheduler needs for one binding. */
export interface ScheduleInput {
  /** The template. */
  resource: ObjectRef;
  /** refKey(resource): the stable tie-break key used where Karmada uses the object UID. */
  key: string;
  /** Desired replicas of the template (0 for objects without replicas). */
  replicas: number;
  replicaRequest?: ReplicaRequest;
  /** With Karmada's defaults already applied. */
  placement: Placement;
  /** All registered clusters, sorted by name. */
  clusters: readonly Cluster[];
  /** Absent entry = unknown status. */
  clusterStatus: ReadonlyMap<string, ClusterStatus>;
  /** The taints the hub keeps per cluster (Snapshot.clusterTaints); absent: derived from status. */
  clusterTaints?: ReadonlyMap<string, readonly TimedTaint[]>;
  /** The APIs the fleet's own CRDs serve on each cluster (fleet-apis.ts); absent: none. */
  fleetApis?: FleetApis;
  /** The last scheduling result (stickiness). */
  previous?: PreviousBinding;
  /**
   * A reschedule was asked for (rescheduleTriggeredAt after lastScheduledTime): Karmada's Fresh
   * assignment mode, and clusterAffinities tried again from the first term.
   */
  fresh?: boolean;
  /** Karmada's --enable-empty-workload-propagation (default false): see assignReplicas. */
  emptyWorkloadPropagation?: boolean;
}
