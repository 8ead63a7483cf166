// How the hub paces its agents so that a fleet starting together, or one source push that
// moves every cluster branch, never bursts past a repository's budget
// (docs/git-budget.md#pacing):
//
// - **Push slots.** A status repository (or the fleet repository, when statuses live there)
//   takes at most `pushesPerMinute` pushes a minute. Its clusters, sorted by name, get one slot
//   each in turn, `spacing` apart and half a spacing wide: a time-division schedule with a
//   period of clusters × spacing, by the wall clock. An agent pushes its status or heartbeat
//   only inside its own slot, once per slot. Two pushes k slots apart are at least
//   (k − ½) × spacing apart, so a spacing of 60 s / (budget − 1.5) leaves every minute at most
//   budget − 1 pushes (GitHub: 13.4 s, 5 a minute at most, 4.5 on average), whatever the fleet
//   does; on the fleet repository, where the hub's renders and people's pushes need room too,
//   60 s / (budget − 2.5): at most budget − 2 (GitHub: 17.2 s, 4 a minute).
// - **Rings.** After a source push every agent fetches its branch: from a render repository 1
//   read (the v2 fetch of the head the ring named, adapters/remote/fetch-known-head.ts), from
//   the fleet repository 2 (an ls-refs and the fetch, measured: that mirror reads the bindings
//   branch, status and heartbeat too, so it asks where they are). The doorbell answers at most
//   `ringsPerSecond` agents a second per branch repository, which with the agents' safety
//   polls keeps the reads within 80% of the
//   budget. Starts are paced on the same timeline: a starting agent waits for its turn before
//   its first fetch, which reads the fleet repository twice (an ls-refs and a fetch, measured;
//   an agent whose branch lives in a render repository learns where from the bindings branch
//   its one fleet mirror holds). A start's reads land later than planned and bunch (a fetch
//   answered slowly overlaps the next starts'; a busy process fires its timers late), so starts
//   take twice the turns their reads need: planned at 40 % of the read budget, not 80 %.
//
// Both are plans of numbers: the doorbell (adapters/http) and the agent (loops/agent) carry them out.
import type { ForgeBudget } from './forge-budget.js';

/** One cluster's push slot: it may push when (now − offset) mod period < width, once per slot. */
export interface PushSlot {
  periodMs: number;
  offsetMs: number;
  widthMs: number;
}

/**
 * Reads an agent's fetch of its moved branch costs on the fleet repository (ls-refs + fetch,
 * measured), and a turn of that repository's timeline, on which starts are counted too.
 */
export const readsPerRing = 2;

/**
 * Reads a ring costs a render repository: the one v2 fetch of the head the ring named, no
 * ls-refs (fetch-known-head.ts; test/e2e-git/doorbell-render-ring.test.ts counts it). A head
 * refused costs the usual 2 more, a server without protocol v2 the v0 way's 3: not planned for.
 */
export const readsPerRingFromRender = 1;

/**
 * Reads an agent's first fetch costs the fleet repository: an ls-refs and a fetch, wherever its
 * branch lives (one fleet mirror tells it where and keeps the bindings branch;
 * test/e2e-git/agent-render-start-reads.test.ts counts them; 3 was planned until 6 December, and
 * 4 for a branch in a render repository, whose second fleet mirror read the bindings branch again).
 */
export const readsPerStart = 2;

/**
 * How many times the turns its reads need a start takes: the budget bench at 24 agents in one
 * process (6 December, load 4–9: main 5f97495) planned starts at 10 reads a second on the fleet repository
 * and saw 15 in its busiest second (100 agents in 4 processes: past 15, 82 answers 429), so
 * starts plan half that, and a bunch of three times the plan still fits the budget.
 */
export const startHeadroom = 2;

/** Returns the turns of a read timeline (readsPerRing reads each) a start of `reads` reads takes. */
export function startTurnsOf(reads: number): number {
  return (reads / readsPerRing) * startHeadroom;
}

/** Share of a repository's read budget the pacing plans to spend. */
const readShare = 0.8;

/**
 * Returns the spacing of push slots on one repository in milliseconds, or undefined when the
 * budget is unlimited (no pacing). `holdsSource`: the fleet repository, which leaves more room.
 */
export function pushSpacingMs(budget: ForgeBudget, holdsSource: boolean): number | undefined {
  if (!Number.isFinite(budget.pushesPerMinute)) return undefined;
  const spare = holdsSource ? 2.5 : 1.5;
  return Math.ceil(60_000 / Math.max(budget.pushesPerMinute - spare, 0.5));
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
 * polls, divided by the reads of one fetch there (default the fleet repository's); at least one a second.
 */
export function ringsPerSecond(
  budget: ForgeBudget,
  readers: number,
  safetyPollSeconds: number,
  readsPerFetch: number = readsPerRing,
): number | undefined {
  const shared = budget.sharedOperationsPerMinute;
  const reads = Math.min(budget.readsPerSecond, shared === undefined ? Infinity : shared / 60);
  if (!Number.isFinite(reads)) return undefined;
  const room = readShare * reads - readers / Math.max(safetyPollSeconds, 1);
  return Math.max(1, Math.floor(room / readsPerFetch));
}

/**
 * Returns how long a spread of `count` paced events takes at `perSecond`, in seconds: the last
 * one's wait (the first goes at once).
 */
export function spreadSeconds(count: number, perSecond: number): number {
  return count <= 1 || !Number.isFinite(perSecond) ? 0 : (count - 1) / perSecond;
}

/**
 * Returns the status repositories a fleet needs so that every status goes within
 * `statusLagSeconds` of its apply: a repository's slot period (its clusters × the spacing) is
 * the longest a status waits for its slot. 0 when the forge is unlimited (no pacing).
 */
export function statusRepositoriesFor(
  clusters: number,
  budget: ForgeBudget,
  statusLagSeconds: number,
): number {
  const spacing = pushSpacingMs(budget, false);
  if (spacing === undefined || clusters <= 0) return 0;
  const perRepository = Math.max(1, Math.floor((statusLagSeconds * 1000) / spacing));
  return Math.ceil(clusters / perRepository);
}

/**
 * Returns the render repositories a fleet needs so that after a source push the last reader of
 * each waits at most `fetchSpreadSeconds` for its turn to fetch (0: the fleet repository holds
 * every branch within it; 0 too when the forge is unlimited, no pacing). A render repository's
 * ring costs fewer reads than the fleet repository's, so its readers go faster.
 */
export function renderRepositoriesFor(
  clusters: number,
  budget: ForgeBudget,
  safetyPollSeconds: number,
  fetchSpreadSeconds: number,
): number {
  const fits = (readers: number, readsPerFetch: number) => {
    const rate = ringsPerSecond(budget, readers, safetyPollSeconds, readsPerFetch);
    return rate === undefined || spreadSeconds(readers, rate) <= fetchSpreadSeconds;
  };
  if (clusters <= 0 || fits(clusters, readsPerRing)) return 0;
  let readers = clusters;
  while (readers > 1 && !fits(readers, readsPerRingFromRender)) readers--;
  return Math.ceil(clusters / readers);
}
