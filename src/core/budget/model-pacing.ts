// What pacing (plan-pacing.ts, docs/git-budget.md#pacing) does to the model: the agents' pushes
// to a repository can never exceed its pacing, whatever the churn (statuses wait and coalesce
// instead), and that waiting is a latency of its own:
//
//   pacing                      agents' pushes a second, at most       a status waits for the host, at most
//   the hub's push slots        1 / spacing (one cluster per slot)      clusters × spacing (a period)
//   (doorbell, a budget)
//   --push-spread S             clusters / S                            S
//   neither                     no bound                                0
//
// and the doorbell's rings: after a source push every reader of a branch repository fetches, a
// few a second (ringsPerSecond: 1 read a ring from a render repository, 2 from the fleet
// repository), so the last one fetches (readers − 1) / rate later. A fleet started together takes
// turns on the fleet repository's timeline, `startTurnsOf` turns a start (with headroom: starts
// bunch), and the last one's first status then waits up to a slot period.
import {
  pushSpacingMs,
  readsPerRing,
  readsPerRingFromRender,
  readsPerStart,
  ringsPerSecond,
  spreadSeconds,
  startTurnsOf,
} from './plan-pacing.js';
import type { TrafficSettings } from './traffic-settings.js';

/** The latencies pacing costs, in seconds (the longest over the repositories). */
export interface PacingFigures {
  /** After a source push, the last agent's wait for its turn to fetch (the doorbell's rings). */
  fetchSpreadSeconds: number;
  /** The longest a status waits for its push slot or spread: push → status on the host, beyond the apply. */
  statusLagSeconds: number;
  /** A fleet started together: until every agent fetched and pushed its first status. */
  startupSeconds: number;
}

/** What one repository holds, as pacing sees it. */
export interface PacedRepository {
  statusClusters: number;
  branchClusters: number;
  /** The fleet repository (else its branches are a render repository's, whose ring is one read). */
  holdsSource: boolean;
}

/** Returns whether the hub's doorbell paces by a finite budget. */
function hubPaces(s: TrafficSettings): boolean {
  return s.doorbell && s.pacingBudget !== undefined && Number.isFinite(s.pacingBudget.pushesPerMinute);
}

/** Returns the most agent pushes a second the repository takes under the pacing (Infinity: unpaced). */
export function agentPushCap(s: TrafficSettings, r: PacedRepository): number {
  if (r.statusClusters === 0) return Infinity;
  if (hubPaces(s)) return 1000 / pushSpacingMs(s.pacingBudget!, r.holdsSource)!;
  const spread = s.agent.pushSpreadSeconds ?? 0;
  return spread > 0 ? r.statusClusters / spread : Infinity;
}

/** Returns the longest a status waits to be pushed to the repository. */
function statusLagSeconds(s: TrafficSettings, r: PacedRepository): number {
  if (r.statusClusters === 0) return 0;
  if (hubPaces(s)) return (r.statusClusters * pushSpacingMs(s.pacingBudget!, r.holdsSource)!) / 1000;
  return s.agent.pushSpreadSeconds ?? 0;
}

/** Returns the last reader's wait for its turn to fetch from the repository after a push. */
function fetchSpread(s: TrafficSettings, r: PacedRepository): number {
  if (!s.doorbell || s.pacingBudget === undefined || r.branchClusters === 0) return 0;
  const reads = r.holdsSource ? readsPerRing : readsPerRingFromRender;
  const rate = ringsPerSecond(s.pacingBudget, r.branchClusters, s.agent.safetyPollSeconds, reads);
  return rate === undefined ? 0 : spreadSeconds(r.branchClusters, rate);
}

/** Returns the latencies pacing costs over the repositories. */
export function pacingFigures(
  s: TrafficSettings,
  repositories: readonly PacedRepository[],
  clusters: number,
): PacingFigures {
  const most = (f: (r: PacedRepository) => number) => round(Math.max(0, ...repositories.map(f)));
  const fetchSpreadSeconds = most((r) => fetchSpread(s, r));
  const statusLag = most((r) => statusLagSeconds(s, r));
  // The last of a fleet started together starts a start spread after the first, and its first
  // status waits up to a slot period after its apply.
  return {
    fetchSpreadSeconds,
    statusLagSeconds: statusLag,
    startupSeconds: round(startSpread(s, clusters) + statusLag),
  };
}

/**
 * Returns the last start's wait for its turn when the fleet starts together: starts take turns
 * on the fleet repository's timeline (every agent reads it first), `startTurnsOf` turns each.
 */
function startSpread(s: TrafficSettings, clusters: number): number {
  if (!s.doorbell || s.pacingBudget === undefined || clusters <= 1) return 0;
  const rate = ringsPerSecond(s.pacingBudget, clusters, s.agent.safetyPollSeconds, readsPerRing);
  return rate === undefined ? 0 : spreadSeconds(clusters, rate / startTurnsOf(readsPerStart));
}

function round(seconds: number): number {
  return Math.round(seconds * 10) / 10;
}
