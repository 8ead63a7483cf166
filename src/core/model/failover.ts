import type { Taint } from './cluster.js';
import type { ClusterAffinity } from './selectors.js';
import type { SourceLocation } from './source-location.js';

// Failover (docs/failover.md): what the hub keeps and decides when clusters or applications fail,
// as Karmada's cluster, taint, graceful-eviction, application-failover and workload-rebalancer
// controllers do. Every value here is data: the decisions are pure functions of these values
// and the hub's clock (core/failover/*).

/** How the copy on a cluster a workload is evicted from goes away (Karmada's PurgeMode). */
export type PurgeMode = 'Directly' | 'Gracefully' | 'Never';

/** One `statePreservation.rules` entry: a value read from the old copy's status, injected as a label. */
export interface StatePreservationRule {
  aliasLabelName: string;
  /** A Kubernetes JSONPath evaluated against the reflected status (`{.availableReplicas}`). */
  jsonPath: string;
}

/** A propagation policy's `spec.failover`, with Karmada's defaults applied. */
export interface FailoverBehavior {
  application?: {
    /** decisionConditions.tolerationSeconds (default 300). */
    tolerationSeconds: number;
    /** Default Gracefully. */
    purgeMode: PurgeMode;
    /** Only with Gracefully (default 600 then). */
    gracePeriodSeconds?: number;
    statePreservation?: StatePreservationRule[];
  };
  cluster?: {
    /** Default Gracefully. */
    purgeMode: 'Directly' | 'Gracefully';
    statePreservation?: StatePreservationRule[];
  };
}

/**
 * Karmada's GracefulEvictionTask (work/v1alpha2): a cluster a binding was evicted from, kept in
 * the binding's record on the bindings branch until the task is done, so a hub restart continues it.
 */
export interface GracefulEvictionTask {
  fromCluster: string;
  purgeMode: PurgeMode;
  /** The replicas the binding had on the cluster (set when > 0). */
  replicas?: number;
  /** CamelCase, 1 to 32 characters: TaintUntolerated, ApplicationFailure. */
  reason: string;
  message?: string;
  /** Who decided: TaintManager, ApplicationFailover. */
  producer: string;
  gracePeriodSeconds?: number;
  suppressDeletion?: boolean;
  preservedLabelState?: Record<string, string>;
  clustersBeforeFailover?: string[];
  /** RFC 3339, from the hub's clock when the task was made. */
  creationTimestamp: string;
}

/** A taint the hub keeps on a cluster (from its conditions or a ClusterTaintPolicy), with when it was added. */
export interface TimedTaint extends Taint {
  /** RFC 3339, the hub's clock. */
  timeAdded: string;
}

/** One match of a ClusterTaintPolicy's addOnConditions / removeOnConditions (all must hold). */
export interface MatchCondition {
  conditionType: string;
  operator: 'In' | 'NotIn';
  statusValues: string[];
}

/** policy.karmada.io/v1alpha1 ClusterTaintPolicy, cluster-scoped, kept in the fleet repo. */
export interface ClusterTaintPolicy {
  name: string;
  /** Absent: every cluster. */
  targetClusters?: ClusterAffinity;
  addOnConditions: MatchCondition[];
  removeOnConditions: MatchCondition[];
  taints: Taint[];
  /** Karmada applies policies oldest first; here: in file order (the fleet repo has no creation time). */
  source: SourceLocation;
}

/** apps.karmada.io/v1alpha1 WorkloadRebalancer, cluster-scoped, kept in the fleet repo. */
export interface WorkloadRebalancer {
  name: string;
  workloads: { apiVersion: string; kind: string; name: string; namespace?: string }[];
  ttlSecondsAfterFinished?: number;
  source: SourceLocation;
}

/** The hub's failover settings, with Karmada's flag names (cli/commands/hub-spec.ts) and defaults. */
export interface FailoverSettings {
  /** --enable-no-execute-taint-eviction (default false, as in Karmada v1.14+). */
  enableNoExecuteTaintEviction: boolean;
  /** --no-execute-taint-eviction-purge-mode (default Gracefully). */
  noExecuteTaintEvictionPurgeMode: 'Directly' | 'Gracefully';
  /** --graceful-eviction-timeout in seconds (default 10m). */
  gracefulEvictionTimeoutSeconds: number;
  /** --resource-eviction-rate: evictions per second (default 0.5; 0 → one every 1800 s). */
  resourceEvictionRate: number;
  /**
   * --default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds (Karmada's
   * webhook flags, default 300): the NoExecute tolerations of cluster.karmada.io/not-ready and
   * cluster.karmada.io/unreachable a policy gets when it has none of its own (default-tolerations.ts).
   */
  defaultNotReadyTolerationSeconds: number;
  defaultUnreachableTolerationSeconds: number;
  /**
   * --unhealthy-fleet-threshold (default 0.55), --large-fleet-size-threshold (default 50) and
   * --secondary-resource-eviction-rate (default 0.01/s): the node lifecycle controller's
   * disruption rules with the fleet as its zone (fleet-disruption.ts).
   */
  unhealthyFleetThreshold: number;
  largeFleetSizeThreshold: number;
  secondaryResourceEvictionRate: number;
}

export const defaultFailoverSettings: FailoverSettings = {
  enableNoExecuteTaintEviction: false,
  noExecuteTaintEvictionPurgeMode: 'Gracefully',
  gracefulEvictionTimeoutSeconds: 600,
  resourceEvictionRate: 0.5,
  defaultNotReadyTolerationSeconds: 300,
  defaultUnreachableTolerationSeconds: 300,
  unhealthyFleetThreshold: 0.55,
  largeFleetSizeThreshold: 50,
  secondaryResourceEvictionRate: 0.01,
};

/** One decision of a failover pass, for the commits' trailers, the log and `gitfleet status`. */
export interface FailoverDecision {
  type:
    | 'TaintAdded'
    | 'TaintRemoved'
    | 'Evicted'
    | 'EvictionDone'
    | 'EvictionDeferred'
    | 'Rebalanced'
    | 'ClusterJudged'
    | 'FleetDisruption';
  cluster?: string;
  /** The binding key (refKey of the template). */
  binding?: string;
  /** CamelCase reason: TaintUntolerated, ApplicationFailure, HealthyOnNewClusters, Timeout, ... */
  reason: string;
  /** One line a person reads: names the taint, the condition, the policy. */
  message: string;
  /** The policy that decided (ClusterTaintPolicy name, the binding's PropagationPolicy), when one did. */
  policy?: string;
  /**
   * EvictionDone only: the same pass schedules the binding on the evicted cluster again, so its
   * copy stays there (no deletion is allowed for it, and the message says so).
   */
  copyKept?: true;
}
