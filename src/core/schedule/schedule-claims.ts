// Stage 2 of a render (docs/architecture.md#schedule): every claim scheduled into a binding.
import type { Binding, PreviousBinding, TargetCluster } from '../model/binding.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { ReuseHook } from '../model/reuse-hook.js';
import type { Snapshot } from '../model/snapshot.js';
import type { Claim } from '../detect/detect-claims.js';
import { previousBindingOf } from '../publish/previous-binding-of.js';
import { bindClaim } from './bind-claims.js';
import { fleetApisOf, fleetApisText, isCrdResource, noFleetApis, type FleetApis } from './fleet-apis.js';

/** What one claim's schedule depends on besides the fleet's clusters and their status. */
export interface ScheduleInput {
  claim: Claim;
  /** The claim's placement in the previous render (the snapshot's `previous`), if any. */
  previous: PreviousBinding | undefined;
  /** The APIs the fleet's CRDs serve per cluster (fleet-apis.ts), and their canonical text (memo key). */
  fleetApis: FleetApis;
  apis: string;
}

/** One claim scheduled: its binding, the diagnostic of a failed schedule, and its own placement. */
export interface ScheduledClaim {
  binding: Binding;
  diagnostic?: Diagnostic;
  /** The binding's placement as the next render reads it back as its previous one. */
  placement: PreviousBinding | undefined;
}

/**
 * Stage 2: returns each claim's binding, the diagnostics of failed schedules, and each
 * binding's own placement by key. `reuse` may give a schedule kept from an earlier render for
 * the same input (RenderOptions.memo).
 */
export function scheduleClaims(opts: {
  snapshot: Snapshot;
  claims: readonly Claim[];
  reuse?: ReuseHook<ScheduleInput, ScheduledClaim>;
}): { bindings: Binding[]; diagnostics: Diagnostic[]; placements: Map<string, PreviousBinding> } {
  const { fleet, clusterStatus, clusterTaints } = opts.snapshot;
  const context = { clusters: fleet.clusters, clusterStatus, ...(clusterTaints ? { clusterTaints } : {}) };
  const lists = new TargetLists();
  const schedule = (input: ScheduleInput): ScheduledClaim => {
    const apis = input.fleetApis.size > 0 ? { fleetApis: input.fleetApis } : {};
    const bound = bindClaim(input.claim, { ...context, ...apis }, input.previous);
    const binding = lists.shared(bound.binding);
    return { ...bound, binding, placement: previousBindingOf(binding) ?? undefined };
  };
  const scheduleOne = (claim: Claim, fleetApis: FleetApis, apis: string): ScheduledClaim => {
    const input = { claim, previous: opts.snapshot.previous.get(claim.template.key), fleetApis, apis };
    return opts.reuse ? opts.reuse(input, schedule) : schedule(input);
  };
  // The fleet's CRDs first: the APIs they serve where they are placed count as enabled there
  // for every other claim (fleet-apis.ts).
  const results = new Map<Claim, ScheduledClaim>();
  for (const claim of opts.claims) {
    if (isCrdResource(claim.template.ref)) results.set(claim, scheduleOne(claim, noFleetApis, ''));
  }
  const crdTemplates = new Map([...results.keys()].map((c) => [c.template.key, c.template]));
  const fleetApis = fleetApisOf(
    [...results.values()].map((r) => r.binding),
    crdTemplates,
  );
  const apis = fleetApisText(fleetApis);
  const bindings: Binding[] = [];
  const diagnostics: Diagnostic[] = [];
  const placements = new Map<string, PreviousBinding>();
  for (const claim of opts.claims) {
    const scheduled = results.get(claim) ?? scheduleOne(claim, fleetApis, apis);
    bindings.push(scheduled.binding);
    if (scheduled.placement) placements.set(claim.template.key, scheduled.placement);
    if (scheduled.diagnostic) diagnostics.push(scheduled.diagnostic);
  }
  return { bindings, diagnostics, placements };
}

/**
 * One list for each distinct schedule of a render: the bindings scheduled on the same clusters
 * with the same replicas (every ConfigMap of a fleet placed everywhere) share one frozen list,
 * so what keeps them (the render memo, the hub memo on disk) holds it once.
 */
class TargetLists {
  readonly #lists = new Map<string, TargetCluster[]>();

  /** Returns the binding with its scheduled clusters as the render's shared list. */
  shared(binding: Binding): Binding {
    const schedule = binding.schedule;
    if (schedule.type !== 'Scheduled' || schedule.clusters.length === 0) return binding;
    let key = '';
    for (const c of schedule.clusters) key += `${c.name}\0${c.replicas}\0`;
    const list = this.#lists.get(key);
    if (list === undefined) {
      // A list kept from an earlier render (a binding that kept its clusters) is shared already.
      if (Object.isFrozen(schedule.clusters)) {
        this.#lists.set(key, schedule.clusters);
        return binding;
      }
      const frozen = schedule.clusters.map((c) => Object.freeze({ name: c.name, replicas: c.replicas }));
      this.#lists.set(key, Object.freeze(frozen) as TargetCluster[]);
      return { ...binding, schedule: { ...schedule, clusters: frozen } };
    }
    return list === schedule.clusters ? binding : { ...binding, schedule: { ...schedule, clusters: list } };
  }
}
