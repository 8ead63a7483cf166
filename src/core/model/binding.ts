import type { Taint } from './cluster.js';
import type { FailoverBehavior, GracefulEvictionTask } from './failover.js';
import type { ObjectRef } from './object-ref.js';
import type { Placement, PolicyRef } from './propagation-policy.js';

/** One cluster of a scheduling result (Karmada's TargetCluster). */
export interface TargetCluster {
  name: string;
  replicas: number;
}

/**
 * What refused a cluster: one of Karmada's filter plugins (pkg/scheduler/framework/plugins),
 * `Unregistered` for a name in clusterNames no Cluster registers, `Capacity` when the replica
 * assignment found too little room (Karmada's UnschedulableError).
 */
export type RefusingFilter =
  | 'ClusterAffinity'
  | 'ClusterEviction'
  | 'TaintToleration'
  | 'APIEnablement'
  | 'SpreadConstraint'
  | 'Unregistered'
  | 'Capacity';

/** Why one cluster was not chosen, in words a user can read. */
export interface ClusterDiagnosis {
  cluster: string;
  /** The filter that said no. */
  filter: RefusingFilter;
  reason: string;
  /** For TaintToleration: the taint no toleration of the placement tolerates. */
  taint?: Taint;
  /** Set when only the ClusterEviction filter rejected the cluster: it fits but for the binding's eviction task. */
  onlyEviction?: true;
}

/**
 * Why a schedule failed, as the reason of Karmada's Scheduled condition (pkg/scheduler/helper.go
 * getConditionByError): no cluster passed the filters (FitError), the clusters cannot take the
 * replicas (UnschedulableError), or any other failure (spread constraints, no candidates).
 */
export type ScheduleFailureReason = 'NoClusterFit' | 'Unschedulable' | 'SchedulerError';

export type ScheduleResult =
  | {
      type: 'Scheduled';
      clusters: TargetCluster[];
      affinityName?: string;
      /**
       * Set when this schedule failed and Karmada leaves the binding's previous clusters in
       * place (a failure after filtering): `clusters` are the previous ones, and the record
       * says Scheduled=False with this reason and message.
       */
      failed?: { reason: ScheduleFailureReason; message: string };
      /**
       * The clusters a filter other than ClusterAffinity refused at the last schedule (a taint,
       * a missing API, an eviction, a spread field), and with `failed` every cluster the failed
       * attempt refused: recorded, so `status` can say why a cluster was left out. The
       * affinity's own refusals are the user's choice and are left out, or every record would
       * change when a cluster joins. Absent when none.
       */
      refused?: ClusterDiagnosis[];
    }
  | {
      type: 'NoFit';
      /** The failure's kind; absent: NoClusterFit (a filter failure, which clears the clusters). */
      reason?: ScheduleFailureReason;
      diagnosis: ClusterDiagnosis[];
      message: string;
      /**
       * True when scheduling failed after filtering (spread constraints, not enough replicas):
       * Karmada then leaves the binding's previous clusters in place. Absent for a filter
       * failure (no cluster fits), after which Karmada clears them.
       */
      keepPrevious?: boolean;
    };

/** Karmada's ResourceBinding: a template claimed by a policy, and where it goes. */
export interface Binding {
  /** Karmada's binding name: lower(name-kind). */
  name: string;
  resource: ObjectRef;
  /** `refKey(resource)`. */
  key: string;
  /** The claiming policy; absent for objects that only follow others (dependencies, HPAs, Namespaces). */
  policy?: PolicyRef;
  /** How the template got here (`quota`: a ResourceQuota a FederatedResourceQuota makes, core/quota). */
  origin: 'policy' | 'dependency' | 'scaleTarget' | 'namespace' | 'quota';
  /** The template's desired replicas (0 for objects without replicas). */
  replicas: number;
  placement: Placement;
  propagateDeps: boolean;
  conflictResolution: 'Abort' | 'Overwrite';
  preserveResourcesOnDeletion: boolean;
  schedule: ScheduleResult;
  /** For followers: the bindings (keys) whose clusters this object follows. */
  requiredBy: string[];
  /** The policy's suspension: suspended clusters keep what they have (Karmada's suspendDispatching). */
  suspension?: { dispatching?: boolean; dispatchingOnClusters?: { clusterNames: string[] } };
  /** Overrides to apply: all matching policies, or only ClusterOverridePolicies (auto-propagated Namespaces). */
  overrides: 'all' | 'clusterOnly';
  /**
   * For a binding of a policy with `activationPreference: Lazy`: the hash of the template it
   * was built from (templateHashOf). Recorded, it tells a later render whether the template
   * changed since, which Lazy needs: only a template change applies a changed policy.
   */
  templateHash?: string;
  /** The claiming policy's failover behaviour (Karmada copies `spec.failover` into the binding). */
  failover?: FailoverBehavior;
  /**
   * The binding's graceful eviction tasks (Karmada's spec.gracefulEvictionTasks): clusters it
   * was evicted from and how their copy goes away; recorded, so a hub restart continues them.
   */
  evictionTasks?: GracefulEvictionTask[];
  /** Karmada's spec.rescheduleTriggeredAt (RFC 3339): a WorkloadRebalancer asked for a fresh schedule. */
  rescheduleTriggeredAt?: string;
  /** Karmada's status.lastScheduledTime (RFC 3339), set when a fresh schedule asked for was made. */
  lastScheduledTime?: string;
  /**
   * The placement the clusters were last scheduled with, as canonical JSON (Karmada's
   * `policy.karmada.io/applied-placement` annotation): whether the placement changed since
   * is what asks for a new schedule (core/schedule/schedule-trigger.ts).
   */
  appliedPlacement?: string;
  /**
   * A ValidatingAdmissionPolicy or binding kept for the check only (`gitfleet.io/admission:
   * check-only`, docs/admission-policies.md): placed and checked against each cluster's render,
   * never written to the clusters, so no agent ever applies it.
   */
  checkOnly?: true;
}

/** What a Lazy policy's binding was built with, read back from its record: what it keeps until its template changes. */
export interface HeldSpec {
  templateHash: string;
  placement: Placement;
  propagateDeps: boolean;
  conflictResolution: 'Abort' | 'Overwrite';
  preserveResourcesOnDeletion: boolean;
}

/** What a render remembers from the previous one (read back from the bindings branch). */
export interface PreviousBinding {
  key: string;
  policy: PolicyRef;
  clusters: TargetCluster[];
  affinityName?: string;
  /** Set when the binding was built for a Lazy policy (a record carrying the template hash). */
  held?: HeldSpec;
  /** The recorded graceful eviction tasks (Binding.evictionTasks). */
  evictionTasks?: GracefulEvictionTask[];
  rescheduleTriggeredAt?: string;
  lastScheduledTime?: string;
  /** The recorded applied placement (Binding.appliedPlacement). */
  appliedPlacement?: string;
  /** The clusters the last schedule refused (ScheduleResult's `refused`), kept while it is not scheduled again. */
  refused?: ClusterDiagnosis[];
}
