// What a render keeps for the next one (docs/architecture.md#the-render-memo). Which entry is
// reused when, and what invalidates it, is the memo table in incremental-render.ts, next to the
// code that implements it.
import type { Binding, PreviousBinding } from '../model/binding.js';
import type { Cluster } from '../model/cluster.js';
import type { Template } from '../model/fleet.js';
import type { ObjectRef } from '../model/object-ref.js';
import type { OverridePolicy } from '../model/override-policy.js';
import type { PropagationPolicy } from '../model/propagation-policy.js';
import type { Tenant } from '../model/tenant.js';
import type { Detection } from '../detect/detect-claims.js';
import type { EnsuredNamespaces } from '../follow/ensured-namespaces.js';
import type { ScheduledClaim } from '../schedule/schedule-claims.js';
import type { AdmissionMemo } from './admit-clusters.js';
import type { ClusterRender } from './assemble-clusters.js';
import type { UnitRender } from './render-unit.js';
import type { ServicesMemo } from './reuse-services.js';

/** The memo of a render: pass it to the next render (RenderOptions.memo). */
export interface RenderMemo {
  readonly context: RenderContext;
  /** Template key → its detection, with the inputs it was made from. */
  readonly detections: ReadonlyMap<string, DetectionMemo>;
  /** Template key → its scheduled binding, with the inputs it was made from. */
  readonly schedules: ReadonlyMap<string, ScheduleMemo>;
  /** Template key → the template and what it depends on (propagateDeps). */
  readonly dependencies: ReadonlyMap<string, DependenciesMemo>;
  /** Follower binding key → the binding and its JSON. */
  readonly followers: ReadonlyMap<string, FollowerMemo>;
  /** The Namespaces the clusters need, and what they were found from. */
  readonly namespaces: NamespacesMemo | undefined;
  /** What the multi-cluster service stage made, and what it was made from. */
  readonly services: ServicesMemo | undefined;
  /** Unit id → the unit rendered on its clusters, with the inputs it was rendered from. */
  readonly units: ReadonlyMap<string, UnitRender>;
  /** Cluster name → its output and diagnostics, before the admission check. */
  readonly clusters: ReadonlyMap<string, ClusterRender>;
  /** The admission check of each cluster and the verdicts by policy set and object text (admit-clusters.ts). */
  readonly admission?: AdmissionMemo;
}

/** The fleet-wide inputs every stage depends on. */
export interface RenderContext {
  clusters: readonly Cluster[];
  propagationPolicies: readonly PropagationPolicy[];
  overridePolicies: readonly OverridePolicy[];
  /** The Tenants (core/tenancy). */
  tenants: readonly Tenant[];
  /** The FleetConfig, as JSON. */
  config: string;
  /** The cluster status, as JSON. */
  status: string;
  /** The hub's cluster taints (Snapshot.clusterTaints), as JSON; '' when the snapshot has none. */
  taints: string;
}

/** A template's detection for each previous claim it was worked out with (at most two). */
export interface DetectionMemo {
  template: Template;
  /** previousPolicy: the previous claim's policy as `kind/namespace/name` ('' for none). */
  results: { previousPolicy: string; detection: Detection }[];
}

/** A claim's schedule for each previous placement it was scheduled with (at most two). */
export interface ScheduleMemo {
  template: Template;
  policy: PropagationPolicy;
  /** The APIs the fleet's CRDs served per cluster when these were scheduled (fleetApisText). */
  apis?: string;
  results: { previous: PreviousBinding | undefined; scheduled: ScheduledClaim }[];
}

export interface DependenciesMemo {
  template: Template;
  dependencies: readonly ObjectRef[];
}

export interface FollowerMemo {
  binding: Binding;
  json: string;
}

/** What the Namespaces a render added were found from. */
export interface NamespacesMemo {
  clusters: readonly Cluster[];
  /** The repo's v1 Namespace templates. */
  namespaceTemplates: readonly Template[];
  /** Every binding by key: one that changed counts only if its namespace or clusters did. */
  bindings: ReadonlyMap<string, Binding>;
  result: EnsuredNamespaces;
}
