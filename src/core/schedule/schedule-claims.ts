// Stage 2 of a render (docs/architecture.md#schedule), with the render memo: every claim scheduled
// into a binding.
import type { Binding, PreviousBinding } from '../model/binding.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Snapshot } from '../model/snapshot.js';
import type { Claim } from '../detect/detect-claims.js';
import { previousBindingOf } from '../publish/previous-binding-of.js';
import type { PropagationPolicy } from '../model/propagation-policy.js';
import type { Template } from '../model/fleet.js';
import { bindClaim } from './bind-claims.js';

/** A claim's binding for each previous placement it was scheduled with (at most two). */
export interface ScheduleMemo {
  template: Template;
  policy: PropagationPolicy;
  results: ScheduledWith[];
}

/** One scheduling of a claim: the previous placement it was given, and the binding it gave. */
export interface ScheduledWith {
  previous: PreviousBinding | undefined;
  binding: Binding;
  diagnostic?: Diagnostic;
  /** The binding's own placement: what the next render reads back as its previous one. */
  own: PreviousBinding | undefined;
}

/**
 * Stage 2, per claim. A binding is kept for the previous placement it was scheduled with and,
 * with `ahead`, for its own placement, which the next render reads back as the previous one.
 * Scheduling with it usually gives the same binding (then the same object, so later stages
 * reuse their work), but not always, e.g. a NotReady cluster kept only because it was placed
 * before.
 */
export function scheduleClaims(opts: {
  snapshot: Snapshot;
  claims: readonly Claim[];
  /** The last render's bindings (RenderMemo.schedules), by template key. */
  memo: ReadonlyMap<string, ScheduleMemo> | undefined;
  /** Schedule with the binding's own placement too (RenderOptions.ahead). */
  ahead: boolean;
}) {
  const { fleet, clusterStatus } = opts.snapshot;
  const context = { clusters: fleet.clusters, clusterStatus };
  const bindings: Binding[] = [];
  const diagnostics: Diagnostic[] = [];
  const schedules = new Map<string, ScheduleMemo>();
  const placements = new Map<string, PreviousBinding>();
  for (const claim of opts.claims) {
    const previous = opts.snapshot.previous.get(claim.template.key);
    const last = opts.memo?.get(claim.template.key);
    const known = last?.template === claim.template && last.policy === claim.policy ? last.results : [];
    let bound = known.find((r) => samePrevious(r.previous, previous));
    let results = known;
    if (!bound) {
      bound = scheduledWith(previous, bindClaim(claim, context, previous));
      results = [bound];
      if (opts.ahead && !samePrevious(bound.own, previous)) {
        const again = bindClaim(claim, context, bound.own);
        results.push(
          sameSchedule(again, bound) ? { ...bound, previous: bound.own } : scheduledWith(bound.own, again),
        );
      }
    }
    schedules.set(claim.template.key, { template: claim.template, policy: claim.policy, results });
    bindings.push(bound.binding);
    if (bound.own) placements.set(claim.template.key, bound.own);
    if (bound.diagnostic) diagnostics.push(bound.diagnostic);
  }
  return { bindings, diagnostics, schedules, placements };
}

function scheduledWith(
  previous: PreviousBinding | undefined,
  bound: { binding: Binding; diagnostic?: Diagnostic },
): ScheduledWith {
  return { previous, ...bound, own: previousBindingOf(bound.binding) ?? undefined };
}

function sameSchedule(a: { binding: Binding; diagnostic?: Diagnostic }, b: typeof a): boolean {
  const x = a.binding.schedule;
  const y = b.binding.schedule;
  if (a.diagnostic?.message !== b.diagnostic?.message) return false;
  if (x.type !== 'Scheduled' || y.type !== 'Scheduled') return JSON.stringify(x) === JSON.stringify(y);
  if (x.affinityName !== y.affinityName || x.clusters.length !== y.clusters.length) return false;
  return x.clusters.every((c, i) => c.name === y.clusters[i]!.name && c.replicas === y.clusters[i]!.replicas);
}

/** Returns whether two previous placements are equal (they are read back from records every pass). */
export function samePrevious(a: PreviousBinding | undefined, b: PreviousBinding | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  if (a.key !== b.key || a.affinityName !== b.affinityName) return false;
  if (a.policy.kind !== b.policy.kind || a.policy.namespace !== b.policy.namespace) return false;
  if (a.policy.name !== b.policy.name || a.clusters.length !== b.clusters.length) return false;
  if ((a.held || b.held) && JSON.stringify(a.held) !== JSON.stringify(b.held)) return false;
  return a.clusters.every((c, i) => c.name === b.clusters[i]!.name && c.replicas === b.clusters[i]!.replicas);
}
