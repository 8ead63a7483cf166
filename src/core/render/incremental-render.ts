// The render memo as a layer over the pipeline (render-fleet.ts): what a render reuses from the
// last one (docs/architecture.md#the-render-memo). The stages compute; this layer hands them
// hooks (ReuseHook) that return a kept result when its inputs are the same, and records what
// each stage produced for the next render. Reuse is decided by identity: a load given its
// previous memo returns the same template, policy and cluster objects for unchanged files
// (load-fleet.ts), so "the same object as last time" means "the same input". The output is the
// same with or without a memo.
import type { Binding } from '../model/binding.js';
import type { Template } from '../model/fleet.js';
import type { ObjectRef } from '../model/object-ref.js';
import type { ReuseHook } from '../model/reuse-hook.js';
import type { Snapshot } from '../model/snapshot.js';
import type { Detection } from '../detect/detect-claims.js';
import type { DetectionInput } from '../detect/detect-templates.js';
import type { EnsureNamespacesInput } from '../follow/ensure-namespaces.js';
import type { EnsuredNamespaces } from '../follow/ensured-namespaces.js';
import type { ScheduledClaim, ScheduleInput } from '../schedule/schedule-claims.js';
import type {
  MultiClusterServices,
  MultiClusterServicesInput,
} from '../mcs/render-multi-cluster-services.js';
import { patchClusters, type AssembleInput, type ClusterRender } from './assemble-clusters.js';
import type {
  DependenciesMemo,
  DetectionMemo,
  FollowerMemo,
  NamespacesMemo,
  RenderContext,
  RenderMemo,
  ScheduleMemo,
} from './render-memo.js';
import type { RenderUnit, UnitRender, UnitRenderInput } from './render-unit.js';
import type { UnitInput } from './render-units.js';
import { reuseDetection, reuseSchedule } from './reuse-claims.js';
import { reuseDependencies, reuseFollower } from './reuse-followers.js';
import { reuseNamespaces } from './reuse-namespaces.js';
import { reuseServices, type ServicesMemo } from './reuse-services.js';
import { compareContexts, renderContextOf, sameUnitInputs } from './same-inputs.js';

/**
 * The memo table: for each entry of RenderMemo, what it is kept per, what must be the same as
 * last time for a kept result to be reused (keyedOn), and which fleet-wide change discards
 * every kept result of the entry (invalidatedBy). Anything not reused is computed again.
 * test/core/render/render-memo-table.test.ts changes each input in turn and checks that exactly
 * these entries are computed again.
 */
export const renderMemoTable = {
  detections: {
    per: 'template',
    keyedOn:
      'the template; the previous claim (with `ahead`, the detection for its own claim, which the next render reads back, is worked out too)',
    invalidatedBy: 'any propagation policy; the FleetConfig',
  },
  schedules: {
    per: 'claim',
    keyedOn:
      'the template; the claiming policy; the previous placement, by value, its eviction tasks and fresh-schedule times included (with `ahead`, the schedule for its own placement is worked out too); the APIs the fleet’s CRDs serve on each cluster',
    invalidatedBy: 'any cluster; the cluster status; the hub’s cluster taints',
  },
  dependencies: { per: 'template', keyedOn: 'the template', invalidatedBy: 'nothing' },
  followers: {
    per: 'follower binding',
    keyedOn: 'the binding, by value: an equal binding is replaced by last time’s object',
    invalidatedBy: 'nothing',
  },
  namespaces: {
    per: 'render',
    keyedOn:
      'every binding’s namespace, Namespace name and placed clusters (scheduled, or kept by an eviction task); the repo’s Namespace templates; every cluster (computed again, an equal made-up Namespace or Namespace binding is last time’s object)',
    invalidatedBy: 'nothing else',
  },
  services: {
    per: 'render',
    keyedOn:
      'the exported slices (by value); the ServiceImport, ServiceExport and Service bindings; the ServiceImport, ServiceExport, Service and MultiClusterService templates; every cluster and the cluster status (computed again, an equal made-up template or binding is last time’s object)',
    invalidatedBy: 'nothing else',
  },
  units: {
    per: 'unit (a binding, or a Namespace binding made for one cluster)',
    keyedOn:
      'the binding (the unit and its targets: the scheduled clusters and those its eviction tasks keep, with their replicas); for its copies also the template, its referrers’ clusters, whether replicas stay with the member and the FederatedResourceQuotas’ verdict on it (rendered again, a copy whose content key is last time’s keeps its text)',
    invalidatedBy:
      'any cluster; for its copies, also any override policy and any Tenant (then no copy is reused by content key either)',
  },
  clusters: {
    per: 'cluster',
    keyedOn:
      'no unit placed on it, now or last time, was rendered again, added or removed (else last time’s output is patched at those units’ paths)',
    invalidatedBy: 'any cluster (every cluster is assembled whole)',
  },
  admission: {
    per: 'cluster, and per policy set and object text',
    keyedOn:
      'the cluster’s assembled render (last time’s: its check is reused); else its policy set (the texts of its ValidatingAdmissionPolicies, their bindings and params, and its Namespaces) and each object’s text: a text checked under that policy set before, on any cluster, is not evaluated again (admit-clusters.ts)',
    invalidatedBy: 'nothing else',
  },
} as const satisfies Record<Exclude<keyof RenderMemo, 'context'>, MemoTableEntry>;

export interface MemoTableEntry {
  per: string;
  keyedOn: string;
  invalidatedBy: string;
}

/** The hooks a render passes to its stages, and the memo they fill for the next render. */
export interface IncrementalRender {
  detections: ReuseHook<DetectionInput, Detection>;
  schedules: ReuseHook<ScheduleInput, ScheduledClaim>;
  dependenciesOf: (template: Template) => readonly ObjectRef[];
  /** Returns last time's object for a follower binding equal to it, else the binding. */
  follower: (binding: Binding) => Binding;
  namespaces: ReuseHook<EnsureNamespacesInput, EnsuredNamespaces>;
  /** The multi-cluster service stage (core/mcs). */
  services: ReuseHook<MultiClusterServicesInput, MultiClusterServices>;
  /** A unit (its rank and targets); kept in `units`, with its copies. */
  unit: ReuseHook<UnitInput, RenderUnit>;
  /** A unit's rendered copies. */
  units: ReuseHook<UnitRenderInput, UnitRender>;
  clusters: ReuseHook<AssembleInput, Map<string, ClusterRender>>;
  /** Returns what this render kept, for the next one (RenderResult.memo). */
  memo(): RenderMemo;
}

/**
 * Returns the reuse hooks of one render of `snapshot`, given the memo of the last render (none:
 * every hook computes). With `ahead`, detections and schedules are also worked out for what the
 * next render will ask (each binding's own claim and placement as the previous ones).
 */
export function incrementalRender(
  snapshot: Snapshot,
  options: { memo?: RenderMemo | undefined; ahead?: boolean | undefined },
): IncrementalRender {
  const last = options.memo;
  const ahead = options.ahead ?? false;
  const context = renderContextOf(snapshot.fleet, snapshot.clusterStatus, snapshot.clusterTaints);
  const same = compareContexts(last?.context, context);
  const next = emptyMemo(context);
  // The units rendered again, added or removed: their clusters are patched at their paths.
  const dirty = new Set<string>();
  return {
    detections: (input, compute) =>
      reuseDetection(input, compute, {
        kept: same.policies ? last?.detections : undefined,
        into: next.detections,
        ahead,
      }),
    schedules: (input, compute) =>
      reuseSchedule(input, compute, {
        kept: same.placement ? last?.schedules : undefined,
        into: next.schedules,
        ahead,
      }),
    dependenciesOf: (template) =>
      reuseDependencies(template, { kept: last?.dependencies, into: next.dependencies }),
    follower: (binding) => reuseFollower(binding, { kept: last?.followers, into: next.followers }),
    namespaces(input, compute) {
      next.namespaces = reuseNamespaces(input, compute, last?.namespaces);
      return next.namespaces.result;
    },
    services(input, compute) {
      next.services = reuseServices(input, compute, last?.services, same.placement);
      return next.services.result;
    },
    unit(input, compute) {
      const kept = same.clusters ? last?.units.get(input.id)?.unit : undefined;
      return kept?.binding === input.binding ? kept : compute(input);
    },
    units(input, compute) {
      const { unit } = input;
      const kept = last?.units.get(unit.id);
      const reusable = same.clusters && same.overrides && same.tenants && sameUnitInputs(kept, input);
      // A Tenant changed: a copy's content key does not say whose rules refused or decorated it.
      const entry = reusable ? kept : compute(input, same.tenants ? kept : undefined);
      if (!reusable) dirty.add(unit.id);
      next.units.set(unit.id, entry);
      return entry;
    },
    clusters(input, compute) {
      if (last && same.clusters) {
        for (const id of last.units.keys()) if (!input.rendered.has(id)) dirty.add(id);
        next.clusters = patchClusters(input, { rendered: last.units, clusters: last.clusters, dirty });
      } else next.clusters = compute(input);
      return next.clusters;
    },
    memo: () => ({ ...next }),
  };
}

/** The memo a render fills as its stages ask their hooks (RenderMemo, before the admission check). */
interface MemoUnderWay {
  context: RenderContext;
  detections: Map<string, DetectionMemo>;
  schedules: Map<string, ScheduleMemo>;
  dependencies: Map<string, DependenciesMemo>;
  followers: Map<string, FollowerMemo>;
  namespaces: NamespacesMemo | undefined;
  services: ServicesMemo | undefined;
  units: Map<string, UnitRender>;
  clusters: Map<string, ClusterRender>;
}

function emptyMemo(context: RenderContext): MemoUnderWay {
  return {
    context,
    detections: new Map(),
    schedules: new Map(),
    dependencies: new Map(),
    followers: new Map(),
    namespaces: undefined,
    services: undefined,
    units: new Map(),
    clusters: new Map(),
  };
}
