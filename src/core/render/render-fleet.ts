import type { Binding, PreviousBinding } from '../model/binding.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { ExportedSlice } from '../model/exported-slice.js';
import type { Fleet, Template } from '../model/fleet.js';
import { refLabel } from '../model/object-ref.js';
import type { Snapshot } from '../model/snapshot.js';
import type { DetectResult } from '../detect/detect-claims.js';
import { compileSkipRules } from '../detect/skip-rules.js';
import { detectTemplates } from '../detect/detect-templates.js';
import { findUnregisteredClusters } from '../schedule/find-unregistered-clusters.js';
import { scheduleClaims } from '../schedule/schedule-claims.js';
import { ensureNamespaces } from '../follow/ensure-namespaces.js';
import { placeFollowers, type FollowResult } from '../follow/place-followers.js';
import {
  renderMultiClusterServices,
  type MultiClusterServices,
} from '../mcs/render-multi-cluster-services.js';
import { admitClusters } from './admit-clusters.js';
import { assembleClusters, type ClusterRender } from './assemble-clusters.js';
import type { ClusterOutput } from './cluster-output.js';
import { incrementalRender } from './incremental-render.js';
import { createObjectRenderer } from './render-object.js';
import type { RenderMemo } from './render-memo.js';
import { renderUnits, unitsOf } from './render-units.js';
import { createTenancy } from '../tenancy/create-tenancy.js';
import { enforceQuotas, type QuotaCheck, type QuotaUsage } from '../quota/enforce-quotas.js';
import { quotaUnitsOf } from './quota-units.js';

export type { RenderMemo } from './render-memo.js';
export type { ClusterOutput } from './cluster-output.js';

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

export interface RenderResult {
  /** What this render computed, to pass to the next render. */
  memo: RenderMemo;
  clusters: Map<string, ClusterOutput>;
  /** Claimed templates and their followers, sorted by key. */
  bindings: Binding[];
  /**
   * Each claimed binding's placement as the next render reads it back (binding key →
   * previousBindingOf(binding)). A caller that records bindings and passes these same objects
   * back as the next snapshot's `previous` lets that render see at once that nothing moved.
   */
  placements: ReadonlyMap<string, PreviousBinding>;
  diagnostics: Diagnostic[];
  /** Each FederatedResourceQuota's overall limits and what the placed templates use of them (core/quota). */
  quotas?: QuotaUsage[];
  stats: { templates: number; claimed: number; followers: number; skipped: number; unmatched: number };
}

/**
 * Returns, for every registered cluster, exactly the manifests it must run: detect, schedule,
 * follow, override, render and admit (docs/architecture.md#the-pipeline). Pure: the same snapshot gives
 * byte-identical output. Each stage is handed the memo's hook for its results
 * (incremental-render.ts), which reuses the last render's where their inputs are the same.
 */
export function renderFleet(snapshot: Snapshot, options: RenderOptions = {}): RenderResult {
  const { fleet } = snapshot;
  const { clusters } = fleet;
  const reuse = incrementalRender(snapshot, options);
  const skipRules = compileSkipRules(fleet.config);
  const templates = new Map(fleet.templates.map((t) => [t.key, t]));
  // Detect: which policy claims each template. Schedule: each claim's clusters and replicas.
  const detected = detectTemplates({ snapshot, skipRules, reuse: reuse.detections });
  const bound = scheduleClaims({ snapshot, claims: detected.claims, reuse: reuse.schedules });
  // Follow: dependencies, HPAs and Namespaces go where others go; each cluster gets its Namespaces.
  const followed = placeFollowers({
    bindings: bound.bindings,
    templates,
    clusters,
    skipRules,
    dependenciesOf: reuse.dependenciesOf,
  });
  const bindings = [...bound.bindings, ...followed.followers.map(reuse.follower)].sort(byKey);
  // Multi-cluster services: what the importing and consuming clusters get from the exported slices.
  const services = reuse.services(
    {
      bindings,
      templates,
      clusters,
      clusterStatus: snapshot.clusterStatus,
      exportedSlices: snapshot.exportedSlices ?? noExportedSlices,
      ...(snapshot.exportedSlices === undefined ? { slicesReported: false } : {}),
    },
    renderMultiClusterServices,
  );
  for (const made of services.generated) templates.set(made.key, made);
  // A repo Service placed on more clusters by a MultiClusterService shares its binding's key:
  // the Namespaces stage (and its memo, by key) sees it under its unit id.
  // FederatedResourceQuotas: the ResourceQuotas of their static assignments, and the overall
  // limits enforced on what is placed in their namespaces (core/quota).
  const quotaUnits = quotaUnitsOf(fleet.federatedResourceQuotas);
  const quotas = enforceQuotas({
    quotas: fleet.federatedResourceQuotas,
    bindings,
    templates,
    previous: snapshot.previous,
  });
  const placed =
    services.units.length > 0 || quotaUnits.length > 0
      ? [
          ...bindings,
          ...services.units.map((u) => (u.id === u.binding.key ? u.binding : { ...u.binding, key: u.id })),
          ...quotaUnits.map((u) => ({ ...u.binding, key: u.id })),
        ]
      : bindings;
  const namespaces = reuse.namespaces({ bindings: placed, templates, clusters }, ensureNamespaces);
  for (const made of namespaces.generated) templates.set(made.key, made);
  // Override and render: every binding's copy on each of its clusters, then each cluster's files.
  const registered = new Map(clusters.map((c) => [c.name, c]));
  const units = unitsOf({
    bindings,
    namespaces: namespaces.perCluster,
    clusters: registered,
    services: services.units,
    quotas: quotaUnits,
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
    quotaUnits,
    quotaRefusals: quotas.refused,
    reuse: reuse.units,
    ...(options.progress ? { progress: options.progress } : {}),
  });
  const assembled = reuse.clusters({ clusters, units, rendered }, assembleClusters);
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
    quotas,
    memo,
  });
}

/** The render's result, from what its stages returned. */
function resultOf(stages: {
  fleet: Fleet;
  detected: DetectResult;
  bound: ReturnType<typeof scheduleClaims>;
  followed: FollowResult;
  services: MultiClusterServices;
  bindings: Binding[];
  assembled: ReadonlyMap<string, ClusterRender>;
  quotas: QuotaCheck;
  memo: RenderMemo;
}): RenderResult {
  const { fleet, detected, bound, followed, services, assembled } = stages;
  const following = new Set(followed.followers.map((f) => f.key));
  // A MultiClusterService is read by the hub, not placed: no policy needs to match it.
  for (const t of fleet.templates) if (t.ref.kind === 'MultiClusterService') following.add(t.key);
  const made = new Set(services.generated.map((t) => `depends on ${refLabel(t.ref)},`));
  return {
    clusters: new Map([...assembled].map(([name, c]) => [name, c.output])),
    bindings: stages.bindings,
    placements: bound.placements,
    diagnostics: [
      ...findUnregisteredClusters(fleet),
      ...bound.diagnostics,
      // A ServiceImport's derived Service is made by the hub, not missing from the repo.
      ...followed.diagnostics.filter((d) => !(d.code === 'DependencyMissing' && isMade(d.message, made))),
      ...services.diagnostics,
      ...unmatchedDiagnostics(detected.unmatched, following),
      ...[...assembled.values()].flatMap((c) => c.diagnostics.map((d) => d.diagnostic)),
    ],
    memo: stages.memo,
    ...(stages.quotas.usage.length > 0 ? { quotas: stages.quotas.usage } : {}),
    stats: {
      templates: fleet.templates.length,
      claimed: bound.bindings.length,
      followers: followed.followers.length,
      skipped: detected.skipped.length,
      unmatched: detected.unmatched.filter((t) => !following.has(t.key)).length,
    },
  };
}

const noExportedSlices: ReadonlyMap<string, readonly ExportedSlice[]> = new Map();

function isMade(message: string, made: ReadonlySet<string>): boolean {
  const end = message.indexOf(',');
  return end > 0 && made.has(message.slice(0, end + 1));
}

function byKey(a: Binding, b: Binding): number {
  return a.key < b.key ? -1 : 1;
}

function unmatchedDiagnostics(unmatched: readonly Template[], following: ReadonlySet<string>): Diagnostic[] {
  return unmatched
    .filter((t) => t.ref.kind !== 'Namespace' && !following.has(t.key))
    .map((t) => ({
      severity: 'info' as const,
      code: 'NoPolicyMatch' as const,
      subject: refLabel(t.ref),
      message: `no propagation policy matches it (${t.source.file}); it is not rendered unless it follows another object`,
    }));
}
