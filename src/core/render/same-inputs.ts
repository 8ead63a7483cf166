// The equalities the render memo (incremental-render.ts) decides reuse by, where identity is
// not enough: inputs read back from records every pass, or made again every render.
import type { Binding, PreviousBinding, TargetCluster } from '../model/binding.js';
import type { ClusterStatus } from '../model/cluster.js';
import type { TimedTaint } from '../model/failover.js';
import type { Fleet, Template } from '../model/fleet.js';
import type { Tenant } from '../model/tenant.js';
import { sameItems } from '../model/same-items.js';
import type { ScheduledClaim } from '../schedule/schedule-claims.js';
import type { RenderContext } from './render-memo.js';
import type { UnitRender, UnitRenderInput } from './render-unit.js';
import { placedClusters } from '../follow/placed-clusters.js';

/** Returns whether two previous placements are equal (they are read back from records every pass). */
export function samePrevious(a: PreviousBinding | undefined, b: PreviousBinding | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  if (a.key !== b.key || a.affinityName !== b.affinityName) return false;
  if (a.policy.kind !== b.policy.kind || a.policy.namespace !== b.policy.namespace) return false;
  if (a.policy.name !== b.policy.name || a.clusters.length !== b.clusters.length) return false;
  if ((a.held || b.held) && JSON.stringify(a.held) !== JSON.stringify(b.held)) return false;
  if (!sameFailoverState(a, b)) return false;
  // What the scheduling gate reads (schedule-trigger.ts).
  if (a.appliedPlacement !== b.appliedPlacement) return false;
  return a.clusters.every((c, i) => c.name === b.clusters[i]!.name && c.replicas === b.clusters[i]!.replicas);
}

// The failover state a record carries (eviction tasks, asked-for fresh schedules): rare, so
// compared as text, and only when either side has any.
function sameFailoverState(
  a: Pick<PreviousBinding, 'evictionTasks' | 'rescheduleTriggeredAt' | 'lastScheduledTime'>,
  b: Pick<PreviousBinding, 'evictionTasks' | 'rescheduleTriggeredAt' | 'lastScheduledTime'>,
): boolean {
  if (a.rescheduleTriggeredAt !== b.rescheduleTriggeredAt || a.lastScheduledTime !== b.lastScheduledTime)
    return false;
  if (!a.evictionTasks && !b.evictionTasks) return true;
  return JSON.stringify(a.evictionTasks ?? []) === JSON.stringify(b.evictionTasks ?? []);
}

/** Returns whether two schedules of one claim place it the same way, with the same diagnostic. */
export function sameSchedule(a: ScheduledClaim, b: ScheduledClaim): boolean {
  const x = a.binding.schedule;
  const y = b.binding.schedule;
  if (a.diagnostic?.message !== b.diagnostic?.message) return false;
  if (!sameFailoverState(a.binding, b.binding)) return false;
  if (x.type !== 'Scheduled' || y.type !== 'Scheduled') return JSON.stringify(x) === JSON.stringify(y);
  if (x.affinityName !== y.affinityName || x.clusters.length !== y.clusters.length) return false;
  return x.clusters.every((c, i) => c.name === y.clusters[i]!.name && c.replicas === y.clusters[i]!.replicas);
}

/** Returns whether referrers are placed on the same clusters, in the same order. */
export function sameReferrers(
  a: readonly (readonly TargetCluster[])[],
  b: readonly (readonly TargetCluster[])[],
): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  return a.every((x, i) => {
    const y = b[i]!;
    return x === y || (x.length === y.length && x.every((c, j) => c.name === y[j]!.name));
  });
}

/**
 * Returns whether a unit rendered last time was rendered from the same inputs: the same unit and
 * template, whether replicas stay with the member, the quotas' verdict and the referrers' clusters.
 */
export function sameUnitInputs(kept: UnitRender | undefined, input: UnitRenderInput): kept is UnitRender {
  return (
    kept !== undefined &&
    kept.unit === input.unit &&
    kept.template === input.template &&
    kept.keepsMemberReplicas === input.keepsMemberReplicas &&
    kept.quotaRefused === input.quotaRefused &&
    sameReferrers(kept.referrers, input.referrers)
  );
}

/** Returns the repo's v1 Namespace templates, in order. */
export function namespaceTemplatesOf(templates: ReadonlyMap<string, Template>): Template[] {
  return [...templates.values()].filter((t) => t.ref.kind === 'Namespace' && t.ref.apiVersion === 'v1');
}

/**
 * Returns whether a binding needs the same Namespaces as before: the same object, or one with
 * the same namespace, Namespace name and placed clusters (ensureNamespaces reads nothing else).
 */
export function sameNamespacePlacement(before: Binding | undefined, now: Binding): boolean {
  return before === now || (before !== undefined && namespacePlacement(before) === namespacePlacement(now));
}

function namespacePlacement(binding: Binding): string {
  const { resource } = binding;
  const names = placedClusters(binding)
    .map((c) => c.name)
    .join(',');
  const namespace = resource.kind === 'Namespace' && resource.apiVersion === 'v1' ? resource.name : '';
  return `${resource.namespace}\u0000${namespace}\u0000${names}`;
}

/** Returns the fleet-wide inputs of a render. */
export function renderContextOf(
  fleet: Fleet,
  status: ReadonlyMap<string, ClusterStatus>,
  taints?: ReadonlyMap<string, readonly TimedTaint[]>,
): RenderContext {
  return {
    clusters: fleet.clusters,
    propagationPolicies: fleet.propagationPolicies,
    overridePolicies: fleet.overridePolicies,
    tenants: fleet.tenants ?? noTenants,
    config: JSON.stringify(fleet.config),
    status: JSON.stringify([...status].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))),
    taints: taints
      ? JSON.stringify([...taints].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)))
      : '',
  };
}

/**
 * Returns which fleet-wide inputs are the same as the memo's: the invalidatedBy column of the
 * memo table (incremental-render.ts).
 */
export function compareContexts(last: RenderContext | undefined, now: RenderContext) {
  if (!last) return { policies: false, placement: false, clusters: false, overrides: false, tenants: false };
  const clusters = sameItems(last.clusters, now.clusters);
  return {
    policies: sameItems(last.propagationPolicies, now.propagationPolicies) && last.config === now.config,
    placement: clusters && last.status === now.status && last.taints === now.taints,
    clusters,
    overrides: sameItems(last.overridePolicies, now.overridePolicies),
    // A memo a hub kept on disk before Tenants existed has none: read as no Tenants.
    tenants: sameItems((last.tenants as readonly Tenant[] | undefined) ?? noTenants, now.tenants),
  };
}

const noTenants: readonly Tenant[] = [];
