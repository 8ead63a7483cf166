import type { Cluster } from './cluster.js';
import type { FleetConfig } from './fleet-config.js';
import type { KubeObject } from './kube-object.js';
import type { ObjectRef } from './object-ref.js';
import type { OverridePolicy } from './override-policy.js';
import type { PropagationPolicy } from './propagation-policy.js';
import type { SourceLocation } from './source-location.js';

/** A resource template: any document that is not a cluster, policy or fleet config. */
export interface Template {
  ref: ObjectRef;
  /** `refKey(ref)`, kept to avoid recomputing it. */
  key: string;
  object: KubeObject;
  source: SourceLocation;
}

/** Everything loaded from one commit (or directory) of a fleet repo, validated and defaulted. */
export interface Fleet {
  templates: Template[];
  clusters: Cluster[];
  /** PropagationPolicies and ClusterPropagationPolicies. */
  propagationPolicies: PropagationPolicy[];
  /** OverridePolicies and ClusterOverridePolicies. */
  overridePolicies: OverridePolicy[];
  config: FleetConfig;
}
