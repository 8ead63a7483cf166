// What a render keeps for the next one, so a render costs what changed (DESIGN.md §4: "a pass
// costs what changed"). Reuse is decided by identity: a load given its previous memo returns the
// same template, policy and cluster objects for unchanged files (load-fleet.ts), so "the same
// object as last time" means "the same input". Each stage reuses its last result for an input
// whose every dependency is the same:
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
import type { Binding, PreviousBinding, TargetCluster } from '../model/binding.js';
import type { Cluster, ClusterStatus } from '../model/cluster.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Fleet, Template } from '../model/fleet.js';
import type { ObjectRef } from '../model/object-ref.js';
import type { OverridePolicy } from '../model/override-policy.js';
import type { PropagationPolicy } from '../model/propagation-policy.js';
import type { Detection } from '../detect/detect-claims.js';
import type { EnsuredNamespaces } from './ensured-namespaces.js';
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

export interface NamespacesMemo {
  clusters: readonly Cluster[];
  /** The repo's v1 Namespace templates. */
  namespaceTemplates: readonly Template[];
  /** Every binding by key: one that changed counts only if its namespace or clusters did. */
  bindings: ReadonlyMap<string, Binding>;
  result: EnsuredNamespaces;
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

/** A template's detection for each previous claim it was worked out with (at most two). */
export interface DetectionMemo {
  template: Template;
  /** previousPolicy: the previous claim's policy as `kind/namespace/name` ('' for none). */
  results: { previousPolicy: string; detection: Detection }[];
}

/** A claim's binding for each previous placement it was scheduled with (at most two). */
export interface ScheduleMemo {
  template: Template;
  policy: PropagationPolicy;
  results: ScheduledWith[];
}

export interface ScheduledWith {
  previous: PreviousBinding | undefined;
  binding: Binding;
  diagnostic?: Diagnostic;
  /** The binding's own placement: what the next render reads back as its previous one. */
  own: PreviousBinding | undefined;
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

/** Returns whether two lists hold the same objects in the same order. */
export function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Returns whether two previous placements are equal (they are read back from records every pass). */
export function samePrevious(a: PreviousBinding | undefined, b: PreviousBinding | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  if (a.key !== b.key || a.affinityName !== b.affinityName) return false;
  if (a.policy.kind !== b.policy.kind || a.policy.namespace !== b.policy.namespace) return false;
  if (a.policy.name !== b.policy.name || a.clusters.length !== b.clusters.length) return false;
  return a.clusters.every((c, i) => c.name === b.clusters[i]!.name && c.replicas === b.clusters[i]!.replicas);
}
