import type { Binding } from '../model/binding.js';
import type { ExportedSlice } from '../model/exported-slice.js';
import type { Template } from '../model/fleet.js';
import type { Snapshot } from '../model/snapshot.js';
import { compileSkipRules, type SkipRules } from '../detect/skip-rules.js';
import { detectTemplates } from '../detect/detect-templates.js';
import { scheduleClaims } from '../schedule/schedule-claims.js';
import { ensureNamespaces } from '../follow/ensure-namespaces.js';
import type { EnsuredNamespaces } from '../follow/ensured-namespaces.js';
import { placeFollowers, type FollowResult } from '../follow/place-followers.js';
import {
  renderMultiClusterServices,
  type MultiClusterServices,
} from '../mcs/render-multi-cluster-services.js';
import { admitClusters } from './admit-clusters.js';
import { assembleClusters } from './assemble-clusters.js';
import { incrementalRender, type IncrementalRender } from './incremental-render.js';
import { createObjectRenderer } from './render-object.js';
import type { RenderMemo } from './render-memo.js';
import type { RenderUnit } from './render-unit.js';
import { renderUnits, unitsOf } from './render-units.js';
import { resultOf, type RenderResult } from './render-result.js';
import { createTenancy } from '../tenancy/create-tenancy.js';
import { enforceQuotas, type QuotaCheck } from '../quota/enforce-quotas.js';
import { quotaUnitsOf, type QuotaUnit } from './quota-units.js';

export type { RenderMemo } from './render-memo.js';
export type { ClusterOutput } from './cluster-output.js';
export type { RenderResult } from './render-result.js';

export interface RenderOptions {
  /**
   * The memo of a previous render (its `memo`): what did not change is not computed again
   * (the memo table in incremental-render.ts), so a render costs what changed. The output is
   * the same with or without it.
   */
  memo?: RenderMemo;
  /**
   * Also work out what the next render will be asked (each binding's detection and schedule
   * with its own claim and placement as the previous ones), so that it finds them in the memo.
   * For callers that render again and again (the hub, render --watch): it costs the first
   * render about a tenth more and saves the next one most of its scheduling.
   */
  ahead?: boolean;
  /**
   * Told after each template's copies are rendered (done of total), for a progress line on a
   * terminal: a first render of a large fleet takes a while. Called in the render's order.
   */
  progress?: (done: number, total: number) => void;
}

/**
 * Returns, for every registered cluster, exactly the manifests it must run: detect, schedule,
 * follow, override, render and admit (docs/architecture.md#the-pipeline). Pure: the same snapshot gives
 * byte-identical output. Each stage is handed the memo's hook for its results
 * (incremental-render.ts), which reuses the last render's where their inputs are the same.
 */
export function renderFleet(snapshot: Snapshot, options: RenderOptions = {}): RenderResult {
  const { fleet } = snapshot;
  const reuse = incrementalRender(snapshot, options);
  const skipRules = compileSkipRules(fleet.config);
  const pipeline: Pipeline = { snapshot, reuse, templates: new Map(fleet.templates.map((t) => [t.key, t])) };
  // Detect: which policy claims each template. Schedule: each claim's clusters and replicas.
  const detected = detectTemplates({ snapshot, skipRules, reuse: reuse.detections });
  const bound = scheduleClaims({ snapshot, claims: detected.claims, reuse: reuse.schedules });
  const { followed, bindings } = followBindings(pipeline, bound.bindings, skipRules);
  const services = placeServices(pipeline, bindings);
  const quotas = checkQuotas(pipeline, bindings);
  const namespaces = placeNamespaces(pipeline, { bindings, services, quotas });
  const { units, rendered } = renderCopies(pipeline, { bindings, namespaces, services, quotas }, options);
  const assembled = reuse.clusters({ clusters: fleet.clusters, units, rendered }, assembleClusters);
  // Admission: each cluster's objects checked by the ValidatingAdmissionPolicies placed there.
  const admitted = admitClusters(assembled, options.memo?.admission);
  const memo = { ...reuse.memo(), admission: admitted.memo };
  return resultOf({
    fleet,
    detected,
    bound,
    followed,
    services,
    bindings,
    assembled: admitted.clusters,
    quotas: quotas.check,
    memo,
  });
}

/** What the stages share: the snapshot, the memo's hooks, and the templates, made-up ones added as they are made. */
interface Pipeline {
  snapshot: Snapshot;
  reuse: IncrementalRender;
  templates: Map<string, Template>;
}

/** The FederatedResourceQuotas' ResourceQuota units and their verdict on the bindings (core/quota). */
interface Quotas {
  units: QuotaUnit[];
  check: QuotaCheck;
}

/** Follow: dependencies, HPAs and Namespaces go where others go. Returns every binding, by key. */
function followBindings(
  pipeline: Pipeline,
  claimed: Binding[],
  skipRules: SkipRules,
): { followed: FollowResult; bindings: Binding[] } {
  const { reuse, templates } = pipeline;
  const followed = placeFollowers({
    bindings: claimed,
    templates,
    clusters: pipeline.snapshot.fleet.clusters,
    skipRules,
    dependenciesOf: reuse.dependenciesOf,
  });
  const bindings = [...claimed, ...followed.followers.map(reuse.follower)].sort(byKey);
  return { followed, bindings };
}

/** Multi-cluster services: what the importing and consuming clusters get from the exported slices. */
function placeServices(pipeline: Pipeline, bindings: Binding[]): MultiClusterServices {
  const { snapshot, templates } = pipeline;
  const services = pipeline.reuse.services(
    {
      bindings,
      templates,
      clusters: snapshot.fleet.clusters,
      clusterStatus: snapshot.clusterStatus,
      exportedSlices: snapshot.exportedSlices ?? noExportedSlices,
      ...(snapshot.exportedSlices === undefined ? { slicesReported: false } : {}),
    },
    renderMultiClusterServices,
  );
  for (const made of services.generated) templates.set(made.key, made);
  return services;
}

/**
 * FederatedResourceQuotas: the ResourceQuotas of their static assignments, and the overall
 * limits enforced on what is placed in their namespaces (core/quota).
 */
function checkQuotas(pipeline: Pipeline, bindings: Binding[]): Quotas {
  const { snapshot, templates } = pipeline;
  const quotas = snapshot.fleet.federatedResourceQuotas;
  return {
    units: quotaUnitsOf(quotas),
    check: enforceQuotas({ quotas, bindings, templates, previous: snapshot.previous }),
  };
}

/** Namespaces: each cluster gets the Namespaces of what is placed on it. */
function placeNamespaces(
  pipeline: Pipeline,
  stages: { bindings: Binding[]; services: MultiClusterServices; quotas: Quotas },
): EnsuredNamespaces {
  const { bindings, services, quotas } = stages;
  const { templates } = pipeline;
  // A repo Service placed on more clusters by a MultiClusterService shares its binding's key:
  // the Namespaces stage (and its memo, by key) sees it under its unit id.
  const placed =
    services.units.length > 0 || quotas.units.length > 0
      ? [
          ...bindings,
          ...services.units.map((u) => (u.id === u.binding.key ? u.binding : { ...u.binding, key: u.id })),
          ...quotas.units.map((u) => ({ ...u.binding, key: u.id })),
        ]
      : bindings;
  const clusters = pipeline.snapshot.fleet.clusters;
  const namespaces = pipeline.reuse.namespaces({ bindings: placed, templates, clusters }, ensureNamespaces);
  for (const made of namespaces.generated) templates.set(made.key, made);
  return namespaces;
}

/** Override and render: every binding's copy on each of its clusters. */
function renderCopies(
  pipeline: Pipeline,
  stages: {
    bindings: Binding[];
    namespaces: EnsuredNamespaces;
    services: MultiClusterServices;
    quotas: Quotas;
  },
  options: RenderOptions,
): { units: RenderUnit[]; rendered: ReturnType<typeof renderUnits> } {
  const { bindings, quotas } = stages;
  const { reuse, templates } = pipeline;
  const { fleet } = pipeline.snapshot;
  const registered = new Map(fleet.clusters.map((c) => [c.name, c]));
  const units = unitsOf({
    bindings,
    namespaces: stages.namespaces.perCluster,
    clusters: registered,
    services: stages.services.units,
    quotas: quotas.units,
    reuse: reuse.unit,
  });
  const keyed = new Map(bindings.map((b) => [b.key, b]));
  const tenancy = createTenancy(fleet);
  const renderer = createObjectRenderer({ fleet, templates, bindings: keyed, tenancy });
  const rendered = renderUnits({
    units,
    clusters: registered,
    templates,
    bindings: keyed,
    renderer,
    tenancy,
    quotaUnits: quotas.units,
    quotaRefusals: quotas.check.refused,
    reuse: reuse.units,
    ...(options.progress ? { progress: options.progress } : {}),
  });
  return { units, rendered };
}

const noExportedSlices: ReadonlyMap<string, readonly ExportedSlice[]> = new Map();

function byKey(a: Binding, b: Binding): number {
  return a.key < b.key ? -1 : 1;
}
