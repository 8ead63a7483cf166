import type { Binding, TargetCluster } from '../model/binding.js';
import type { Template } from '../model/fleet.js';
import type { RenderOutcome } from './render-copy.js';

/** One binding to render on its clusters. */
export interface RenderUnit {
  /** The binding's key; `key\0cluster` for a Namespace binding made for one cluster. */
  id: string;
  /** Its place in a cluster's diagnostics: bindings by key, then the Namespaces made per cluster. */
  rank: string;
  binding: Binding;
  /** The registered clusters it is scheduled on. */
  targets: readonly TargetCluster[];
}

/** What a unit's rendered copies depend on besides the clusters and the override policies. */
export interface UnitRenderInput {
  unit: RenderUnit;
  template: Template;
  keepsMemberReplicas: boolean;
  /** Where its referrers (requiredBy) are scheduled, which decides the referrers each copy names. */
  referrers: readonly (readonly TargetCluster[])[];
  /** Set when a FederatedResourceQuota refuses the binding (core/quota): every copy is held. */
  quotaRefused?: string;
}

/** One unit rendered on its clusters. */
export interface UnitRender extends UnitRenderInput {
  /** Cluster → the rendered copy and its content key (render-key.ts). */
  copies: ReadonlyMap<string, { key: string; outcome: RenderOutcome }>;
}
