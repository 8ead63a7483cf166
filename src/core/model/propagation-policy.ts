import type { FailoverBehavior } from './failover.js';
import type { Toleration } from './cluster.js';
import type { ClusterAffinity, ResourceSelector } from './selectors.js';
import type { SourceLocation } from './source-location.js';

/** Karmada's OverflowClusterAffinity: a named group a term's workload may overflow to. */
export interface OverflowAffinity extends ClusterAffinity {
  affinityName: string;
}

/** Karmada's ClusterAffinityTerm: one named group of `clusterAffinities`. */
export interface ClusterAffinityTerm extends ClusterAffinity {
  affinityName: string;
  /** Groups tried in order when the inline affinity's clusters cannot take the replicas (v1.18). */
  overflowAffinities?: OverflowAffinity[];
}

export type SpreadByField = 'cluster' | 'region' | 'zone' | 'provider';

export interface SpreadConstraint {
  spreadByField?: SpreadByField;
  spreadByLabel?: string;
  maxGroups?: number;
  /** Defaulted to 1. */
  minGroups: number;
}

export interface StaticClusterWeight {
  targetCluster: ClusterAffinity;
  weight: number;
}

export interface ReplicaSchedulingStrategy {
  /** Defaulted to Duplicated when `replicaScheduling` is absent (Karmada's ReplicaSchedulingType()). */
  replicaSchedulingType: 'Duplicated' | 'Divided';
  /** Defaulted to Weighted for Divided. */
  replicaDivisionPreference?: 'Aggregated' | 'Weighted';
  weightPreference?: {
    staticWeightList?: StaticClusterWeight[];
    dynamicWeight?: 'AvailableReplicas';
  };
}

export interface Placement {
  clusterAffinity?: ClusterAffinity;
  clusterAffinities?: ClusterAffinityTerm[];
  clusterTolerations: Toleration[];
  spreadConstraints: SpreadConstraint[];
  replicaScheduling: ReplicaSchedulingStrategy;
}

export type PropagationPolicyKind = 'PropagationPolicy' | 'ClusterPropagationPolicy';

/** A PropagationPolicy or ClusterPropagationPolicy with Karmada's webhook defaults applied. */
export interface PropagationPolicy {
  kind: PropagationPolicyKind;
  name: string;
  /** Empty for ClusterPropagationPolicy. */
  namespace: string;
  resourceSelectors: ResourceSelector[];
  placement: Placement;
  priority: number;
  preemption: 'Always' | 'Never';
  propagateDeps: boolean;
  conflictResolution: 'Abort' | 'Overwrite';
  preserveResourcesOnDeletion: boolean;
  dependentOverrides: string[];
  /**
   * Set by the loader when some dependentOverrides are not in the fleet (labels such as
   * `OverridePolicy/ns/name`): Karmada's detector does not apply such a policy until they are.
   */
  missingOverrides?: string[];
  activationPreference?: 'Lazy';
  suspension?: { dispatching?: boolean; dispatchingOnClusters?: { clusterNames: string[] } };
  schedulerName: string;
  /** `spec.failover` with Karmada's defaults; absent: no failover. */
  failover?: FailoverBehavior;
  source: SourceLocation;
}

/** Identifies the policy that claimed a template. */
export interface PolicyRef {
  kind: PropagationPolicyKind;
  namespace: string;
  name: string;
}

/** Returns `PropagationPolicy/ns/name` or `ClusterPropagationPolicy/name`. */
export function policyLabel(ref: PolicyRef): string {
  return ref.namespace ? `${ref.kind}/${ref.namespace}/${ref.name}` : `${ref.kind}/${ref.name}`;
}
