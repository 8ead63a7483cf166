// What a render keeps for the next one, so a render costs what changed
// (docs/architecture.md#the-render-memo). Reuse is decided by identity: a load given its previous
// memo returns the same template, policy and cluster objects for unchanged files (load-fleet.ts),
// so "the same object as last time" means "the same input". Each stage reuses its last result for
// an input whose every dependency is the same:
//
// | stage      | reused per              | when these are the same as last time                          |
// |------------|-------------------------|---------------------------------------------------------------|
// | detect     | template                | the template, every propagation policy, the config, the previous claim (its own one is worked out ahead) |
// | schedule   | claim                   | the template, the policy, every cluster, cluster status, the previous placement (its own one is worked out ahead) |
// | follow     | template                | the template (its dependencies)                               |
// | bindings   | binding (followers too) | an equal binding is replaced by last time's object            |
// | namespaces | render                  | every binding's namespace and clusters, and every cluster     |
// | render     | binding                 | the binding, the template, every cluster, every override policy, its referrers, whether replicas stay with the member |
// | clusters   | cluster                 | no binding placed on it was rendered again: last time's output |
//
// Anything else is computed again; the output is the same with or without a memo.
import type { Binding, TargetCluster } from '../model/binding.js';
import type { Cluster, ClusterStatus } from '../model/cluster.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Fleet, Template } from '../model/fleet.js';
import type { ObjectRef } from '../model/object-ref.js';
import type { OverridePolicy } from '../model/override-policy.js';
import type { PropagationPolicy } from '../model/propagation-policy.js';
import type { DetectionMemo } from '../detect/detect-templates.js';
import type { NamespacesMemo } from '../follow/ensure-namespaces.js';
import type { ScheduleMemo } from '../schedule/schedule-claims.js';
import type { ClusterOutput } from './cluster-output.js';
import type { RenderOutcome } from './render-object.js';
import type { RenderUnit } from './render-unit.js';

/** The memo of a render: pass it to the next render (RenderOptions.memo). */
export interface RenderMemo {
  readonly context: RenderContext;
  /** Template key → its detection, with the inputs it was made from. */
  readonly detections: ReadonlyMap<string, DetectionMemo>;
  /** Template key → its scheduled binding, with the inputs it was made from. */
  readonly schedules: ReadonlyMap<string, ScheduleMemo>;
  /** Template key → the template and what it depends on (propagateDeps). */
  readonly dependencies: ReadonlyMap<string, { template: Template; dependencies: readonly ObjectRef[] }>;
  /** The Namespaces the clusters need, and the bindings they were found from. */
  readonly namespaces?: NamespacesMemo;
  /** Follower bindings by key, and per-cluster Namespace bindings by unit id. */
  readonly followers: ReadonlyMap<string, { binding: Binding; json: string }>;
  /** Namespace templates made up for namespaces the repo has no Namespace for, by key. */
  readonly generated: ReadonlyMap<string, Template>;
  /** Unit id → its rendered copies. */
  readonly units: ReadonlyMap<string, UnitRender>;
  /** Cluster name → its output and diagnostics. */
  readonly clusters: ReadonlyMap<string, ClusterRender>;
}

/** The fleet-wide inputs every stage depends on. */
export interface RenderContext {
  clusters: readonly Cluster[];
  propagationPolicies: readonly PropagationPolicy[];
  overridePolicies: readonly OverridePolicy[];
  /** The FleetConfig, as JSON. */
  config: string;
  /** The cluster status, as JSON. */
  status: string;
}

/**
 * One binding rendered on its clusters: a binding by its key, or a Namespace binding made for
 * one cluster (ensure-namespaces.ts) by `key\0cluster`.
 */
export interface UnitRender {
  unit: RenderUnit;
  binding: Binding;
  template: Template;
  keepsMemberReplicas: boolean;
  /** Where its referrers (requiredBy) are scheduled, which decides the referrers each copy names. */
  referrers: readonly (readonly TargetCluster[])[];
  /** Cluster → the rendered copy and its content key (render-key.ts). */
  copies: ReadonlyMap<string, { key: string; outcome: RenderOutcome }>;
}

export interface ClusterRender {
  output: ClusterOutput;
  /** The cluster's diagnostics, each with the unit it came from and its place in the order. */
  diagnostics: readonly RankedDiagnostic[];
}

export interface RankedDiagnostic {
  unit: string;
  rank: string;
  diagnostic: Diagnostic;
}

/** Returns the fleet-wide inputs of a render. */
export function renderContextOf(fleet: Fleet, status: ReadonlyMap<string, ClusterStatus>): RenderContext {
  return {
    clusters: fleet.clusters,
    propagationPolicies: fleet.propagationPolicies,
    overridePolicies: fleet.overridePolicies,
    config: JSON.stringify(fleet.config),
    status: JSON.stringify([...status].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))),
  };
}
