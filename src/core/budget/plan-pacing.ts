// How the hub paces its agents so that a fleet starting together, or one source push that
// moves every cluster branch, never bursts past a repository's budget
// (docs/git-budget.md#pacing):
//
// - **Push slots.** A status repository (or the fleet repository, when statuses live there)
//   takes at most `pushesPerMinute` pushes a minute. Its clusters, sorted by name, get one slot
//   each in turn, `spacing` apart: a time-division schedule with a period of clusters × spacing,
//   by the wall clock. An agent pushes its status or heartbeat only inside its own slot, once
//   per slot, so the repository sees at most 60 s / spacing (+1 at the edges) pushes in any
//   minute, whatever the fleet does. The spacing spends 80% of the budget (60% on the fleet
//   repository, where the hub's renders and people's pushes need room too).
// - **Rings.** After a source push every agent fetches its branch: 2 reads each (an ls-refs and
//   the fetch, measured). The doorbell answers at most `ringsPerSecond` agents a second per
//   branch repository, which with the agents' safety polls keeps the reads within 80% of the
//   budget. Starts are paced the same way: a starting agent waits for its first answer before
//   its first fetch.
//
// Both are plans of numbers: the doorbell (adapters/http) and the agent (loops/agent) carry them out.
import type { ForgeBudget } from './forge-budget.js';

/** One cluster's push slot: it may push when (now − offset) mod period < width, once per slot. */
export interface PushSlot {
  periodMs: number;
  offsetMs: number;
  widthMs: number;
}

/** Reads an agent's fetch of its moved branch costs on the branch's repository (ls-refs + fetch). */
export const readsPerRing = 2;

/** Share of a repository's budget the pacing plans to spend. */
const share = { status: 0.8, fleet: 0.6, reads: 0.8 } as const;

/**
 * Returns the spacing of push slots on one repository in milliseconds, or undefined when the
 * budget is unlimited (no pacing). `holdsSource`: the fleet repository, which leaves more room.
 */
export function pushSpacingMs(budget: ForgeBudget, holdsSource: boolean): number | undefined {
  if (!Number.isFinite(budget.pushesPerMinute)) return undefined;
  const perMinute = budget.pushesPerMinute * (holdsSource ? share.fleet : share.status);
  return Math.ceil(60_000 / Math.max(perMinute, 1e-9));
}

/**
 * Returns each cluster's push slot on one repository: sorted by name, `spacingMs` apart; the
 * slot is half the spacing wide, so pushes that start late in their slot still land apart.
 */
export function planPushSlots(clusters: readonly string[], spacingMs: number): Map<string, PushSlot> {
  const sorted = [...new Set(clusters)].sort();
  const periodMs = Math.max(1, sorted.length) * spacingMs;
  const widthMs = Math.max(1, Math.floor(spacingMs / 2));
  return new Map(sorted.map((cluster, k) => [cluster, { periodMs, offsetMs: k * spacingMs, widthMs }]));
}

/**
 * Returns how many agents a second the doorbell may send to fetch from one branch repository,
 * or undefined when the budget is unlimited: 80% of the read budget, less the readers' safety
 * polls, divided by the reads of one fetch; at least one a second.
 */
export function ringsPerSecond(
  budget: ForgeBudget,
  readers: number,
  safetyPollSeconds: number,
): number | undefined {
  const shared = budget.sharedOperationsPerMinute;
  const reads = Math.min(budget.readsPerSecond, shared === undefined ? Infinity : shared / 60);
  if (!Number.isFinite(reads)) return undefined;
  const room = share.reads * reads - readers / Math.max(safetyPollSeconds, 1);
  return Math.max(1, Math.floor(room / readsPerRing));
}

/**
 * Returns how long a spread of `count` paced events takes at `perSecond`, in seconds: the last
 * one's wait (the first goes at once).
 */
export function spreadSeconds(count: number, perSecond: number): number {
  return count <= 1 || !Number.isFinite(perSecond) ? 0 : (count - 1) / perSecond;
}
