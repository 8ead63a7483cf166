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
import { policyLabel, type PolicyRef } from '../model/propagation-policy.js';
import type { ReuseHook } from '../model/reuse-hook.js';
import { sameItems } from '../model/same-items.js';
import type { Snapshot } from '../model/snapshot.js';
import type { Detection } from '../detect/detect-claims.js';
import type { DetectionInput } from '../detect/detect-templates.js';
import type { EnsureNamespacesInput } from '../follow/ensure-namespaces.js';
import type { EnsuredNamespaces } from '../follow/ensured-namespaces.js';
import { findDependencies } from '../follow/find-dependencies.js';
import type { ScheduledClaim, ScheduleInput } from '../schedule/schedule-claims.js';
import type {
  MultiClusterServices,
  MultiClusterServicesInput,
} from '../mcs/render-multi-cluster-services.js';
import { patchClusters, type AssembleInput, type ClusterRender } from './assemble-clusters.js';
import type { DetectionMemo, NamespacesMemo, RenderMemo, ScheduleMemo } from './render-memo.js';
import type { RenderUnit, UnitRender, UnitRenderInput } from './render-unit.js';
import type { UnitInput } from './render-units.js';
import { reuseServices, type ServicesMemo } from './reuse-services.js';
import {
  compareContexts,
  namespaceTemplatesOf,
  renderContextOf,
  sameNamespacePlacement,
  samePrevious,
  sameReferrers,
  sameSchedule,
} from './same-inputs.js';

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
  const detections = new Map<string, DetectionMemo>();
  const schedules = new Map<string, ScheduleMemo>();
  const dependencies = new Map<string, { template: Template; dependencies: readonly ObjectRef[] }>();
  const followers = new Map<string, { binding: Binding; json: string }>();
  const units = new Map<string, UnitRender>();
  const dirty = new Set<string>();
  let namespaces: NamespacesMemo | undefined;
  let services: ServicesMemo | undefined;
  let clusters = new Map<string, ClusterRender>();

  return {
    detections(input, compute) {
      const { template } = input;
      const previousPolicy = labelOf(input.previous);
      const kept = same.policies ? last?.detections.get(template.key) : undefined;
      let entry =
        kept?.template === template && kept.results.some((r) => r.previousPolicy === previousPolicy)
          ? kept
          : undefined;
      if (!entry) {
        const detection = compute(input);
        entry = { template, results: [{ previousPolicy, detection }] };
        const own = detection.type === 'claimed' ? detection.claim.policy : undefined;
        // The next render reads the template's own claim back as the previous one: working
        // that detection out now (it costs microseconds) lets the next render find it.
        if (ahead && labelOf(own) !== previousPolicy) {
          entry.results.push({
            previousPolicy: labelOf(own),
            detection: compute({ template, previous: own }),
          });
        }
      }
      detections.set(template.key, entry);
      return entry.results.find((r) => r.previousPolicy === previousPolicy)!.detection;
    },

    schedules(input, compute) {
      const { claim, previous } = input;
      const kept = same.placement ? last?.schedules.get(claim.template.key) : undefined;
      const known =
        kept?.template === claim.template && kept.policy === claim.policy && (kept.apis ?? '') === input.apis
          ? kept.results
          : [];
      let found = known.find((r) => samePrevious(r.previous, previous));
      let entry = found ? kept! : undefined;
      if (!found || !entry) {
        found = { previous, scheduled: compute(input) };
        entry = { template: claim.template, policy: claim.policy, apis: input.apis, results: [found] };
        const own = found.scheduled.placement;
        if (ahead && !samePrevious(own, previous)) {
          // Scheduled with its own placement, a claim usually gets the same binding (then the
          // same object, so later stages reuse their work), but not always: e.g. a NotReady
          // cluster passes the filters only while it is in the previous placement.
          const again = compute({ ...input, previous: own });
          const scheduled = sameSchedule(again, found.scheduled) ? found.scheduled : again;
          entry.results.push({ previous: own, scheduled });
        }
      }
      schedules.set(claim.template.key, entry);
      return found.scheduled;
    },

    dependenciesOf(template) {
      const kept = last?.dependencies.get(template.key);
      const entry =
        kept?.template === template ? kept : { template, dependencies: findDependencies(template.object) };
      dependencies.set(template.key, entry);
      return entry.dependencies;
    },

    follower(binding) {
      const json = JSON.stringify(binding);
      const kept = last?.followers.get(binding.key);
      const entry = kept && kept.json === json ? kept : { binding, json };
      followers.set(binding.key, entry);
      return entry.binding;
    },

    namespaces(input, compute) {
      const bindings = new Map(input.bindings.map((b) => [b.key, b]));
      const namespaceTemplates = namespaceTemplatesOf(input.templates);
      const kept = last?.namespaces;
      const reusable =
        kept !== undefined &&
        sameItems(kept.clusters, input.clusters) &&
        sameItems(kept.namespaceTemplates, namespaceTemplates) &&
        kept.bindings.size === bindings.size &&
        input.bindings.every((b) => sameNamespacePlacement(kept.bindings.get(b.key), b));
      const result = reusable ? kept.result : keepEqualNamespaces(compute(input), kept?.result);
      namespaces = { clusters: input.clusters, namespaceTemplates, bindings, result };
      return result;
    },

    services(input, compute) {
      services = reuseServices(input, compute, last?.services, same.placement);
      return services.result;
    },

    unit(input, compute) {
      const kept = same.clusters ? last?.units.get(input.id)?.unit : undefined;
      return kept?.binding === input.binding ? kept : compute(input);
    },

    units(input, compute) {
      const { unit } = input;
      const kept = last?.units.get(unit.id);
      const reusable =
        same.clusters &&
        same.overrides &&
        same.tenants &&
        kept !== undefined &&
        kept.unit === unit &&
        kept.template === input.template &&
        kept.keepsMemberReplicas === input.keepsMemberReplicas &&
        kept.quotaRefused === input.quotaRefused &&
        sameReferrers(kept.referrers, input.referrers);
      // A Tenant changed: a copy's content key does not say whose rules refused or decorated it.
      const entry = reusable ? kept : compute(input, same.tenants ? kept : undefined);
      if (!reusable) dirty.add(unit.id);
      units.set(unit.id, entry);
      return entry;
    },

    clusters(input, compute) {
      if (last && same.clusters) {
        for (const id of last.units.keys()) if (!input.rendered.has(id)) dirty.add(id);
        clusters = patchClusters(input, { rendered: last.units, clusters: last.clusters, dirty });
      } else clusters = compute(input);
      return clusters;
    },

    memo: () => ({
      context,
      detections,
      schedules,
      dependencies,
      followers,
      namespaces,
      services,
      units,
      clusters,
    }),
  };
}

function labelOf(policy: PolicyRef | undefined): string {
  return policy ? policyLabel(policy) : '';
}

// Namespaces computed again: a made-up Namespace template, or a Namespace binding for a cluster,
// equal to last time's is last time's object, so the units that render it can be reused.
function keepEqualNamespaces(now: EnsuredNamespaces, kept: EnsuredNamespaces | undefined): EnsuredNamespaces {
  if (!kept) return now;
  const generated = new Map(kept.generated.map((t) => [t.key, t]));
  const perCluster = new Map<string, Binding[]>();
  for (const [cluster, list] of now.perCluster) {
    const before = new Map((kept.perCluster.get(cluster) ?? []).map((b) => [b.key, b]));
    perCluster.set(
      cluster,
      list.map((b) => {
        const old = before.get(b.key);
        return old && JSON.stringify(old) === JSON.stringify(b) ? old : b;
      }),
    );
  }
  // A made-up Namespace is a bare Namespace of its name: the same key, the same template.
  return { perCluster, generated: now.generated.map((t) => generated.get(t.key) ?? t) };
}
