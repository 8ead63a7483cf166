// The doorbell's pacing, wired (core/budget/plan-pacing.ts, docs/git-budget.md#pacing): from the
// forge's budget, how many agents a second it sends to fetch (rings and starts), and each
// cluster's push slot in its status repository (the fleet repository for clusters with none).
// Fetches are paced per branch repository: the fleet repository's timeline (and every start) at
// the rate all readers leave, 2 reads a ring, a render repository's at the rate its own readers
// leave, 1 read a ring (plan-pacing.ts readsPerRingFromRender). A start
// takes the turns of the reads it makes of the fleet repository (plan-pacing.ts readsPerStart,
// wherever its branch lives), twice over (startHeadroom): a start's reads land later than
// planned, and bunch.
// Clusters are those with a branch, grouped by the assignment of the last pass; before the hub
// knows both, a pacing request is asked to come back (the agent waits, it does not start unpaced).
import { forgeBudget, type Forge } from '../../core/budget/forge-budget.js';
import {
  planPushSlots,
  pushSpacingMs,
  readsPerRingFromRender,
  readsPerStart,
  ringsPerSecond,
  startTurnsOf,
  type PushSlot,
} from '../../core/budget/plan-pacing.js';
import type { NotifyPacing } from '../../adapters/http/notify-server.js';
import type { StatusRepositories } from '../../loops/hub/status-repositories.js';
import type { RenderRepositories } from '../../loops/hub/render-repositories.js';
import { forgeProfiles } from '../forge-profile.js';
import { parseInterval } from '../parse-interval.js';

/** Returns the doorbell's pacing for the forge, or nothing for an unlimited one (generic). */
export function hubPacing(opts: {
  forge: Forge;
  /** Agents that read the branch repository (the doorbell's clusters). */
  readers: number;
  /** The clusters with a branch, undefined before the doorbell's first look. */
  clusters: () => readonly string[] | undefined;
  statusRepositories?: StatusRepositories;
  /** Where each cluster branch lives: a render repository's readers fetch on its own timeline. */
  render?: Pick<RenderRepositories, 'branchRepositoryOf'>;
  now: () => number;
}): { pacing?: NotifyPacing } {
  const budget = forgeBudget(opts.forge);
  // The agents' safety poll as their profile sets it: what they read while the doorbell answers.
  const safetyPollMs = parseInterval(forgeProfiles[opts.forge].agent['safety-poll'] ?? '5m') ?? 300_000;
  const rings = ringsPerSecond(budget, opts.readers, safetyPollMs / 1000);
  const statusSpacing = pushSpacingMs(budget, false);
  const fleetSpacing = pushSpacingMs(budget, true);
  if (rings === undefined && statusSpacing === undefined) return {};
  const pushSlot = (cluster: string): PushSlot | undefined | 'unknown' => {
    if (statusSpacing === undefined || fleetSpacing === undefined) return undefined;
    const clusters = opts.clusters();
    const where = (c: string) => opts.statusRepositories?.repositoryOf(c) ?? undefined;
    if (clusters === undefined || opts.statusRepositories?.repositoryOf(cluster) === null) return 'unknown';
    const mine = where(cluster);
    const peers = clusters.filter((c) => where(c) === mine);
    const slots = planPushSlots(
      peers.includes(cluster) ? peers : [...peers, cluster],
      mine ? statusSpacing : fleetSpacing,
    );
    return slots.get(cluster);
  };
  const render = opts.render;
  const timelineOf =
    rings === undefined || render === undefined
      ? undefined
      : (cluster: string) => {
          const there = render.branchRepositoryOf(cluster);
          if (there === undefined) return undefined;
          // A ring there is one read (the head it names, fetched alone), so its readers go twice as fast.
          const perSecond =
            ringsPerSecond(budget, there.branches, safetyPollMs / 1000, readsPerRingFromRender) ?? rings;
          return { key: there.url, perSecond };
        };
  // A start reads the fleet repository as much wherever its branch lives (the branch, or the
  // bindings branch that says where it lives).
  const startTurns = (): number => startTurnsOf(readsPerStart);
  return {
    pacing: {
      ...(rings !== undefined ? { ringsPerSecond: rings } : {}),
      ...(timelineOf ? { timelineOf } : {}),
      startTurns,
      pushSlot,
      now: opts.now,
    },
  };
}
