// Keeps a repository gitfleet writes into from piling up packs: the hub's (a local one, or the
// mirror of a remote) and an agent's mirror. Every hub pass that writes more than a handful of
// objects adds a pack (adapters/git/write-objects.ts), every fetch into a mirror adds one, and
// every read walks the list of packs. After a pass, and never during one (a loop runs its
// passes one at a time and this runs in between, withRepoMaintenance), a cheap check decides whether to fold the small packs
// into one (adapters/git/repack-packs.ts); the repack runs at most once per interval so a burst
// of passes does not repack after each.
//
// | after a pass, when                                    | then                              |
// |-------------------------------------------------------|-----------------------------------|
// | the last repack was less than `minIntervalMs` ago     | nothing                           |
// | more than `maxPacks` packs, or about `maxLooseObjects` | repack (git's geometric rule)     |
// | loose objects (estimated as `git gc --auto` does)      |                                   |
// | otherwise                                             | nothing                           |
//
// The thresholds follow git's own (`gc.autoPackLimit` 50, `gc.auto` 6700), lowered for the
// pack count because gitfleet's reader pays for every pack on every miss.
import { estimateLooseObjects, listPacks } from '../../adapters/git/list-packs.js';
import { forgetRemovedPacks } from '../../adapters/git/forget-removed-packs.js';
import { repackPacks, type RepackOptions, type RepackResult } from '../../adapters/git/repack-packs.js';
import type { Clock } from './clock.js';
import type { Logger } from './logger.js';

export interface MaintenanceSettings {
  /** Repack once the repository holds more packs than this. */
  maxPacks: number;
  /** Or about this many loose objects. */
  maxLooseObjects: number;
  /** At most one repack per this many milliseconds. */
  minIntervalMs: number;
  /** The geometric factor of the repack. */
  factor: number;
}

export const defaultMaintenanceSettings: MaintenanceSettings = {
  maxPacks: 16,
  maxLooseObjects: 6700,
  minIntervalMs: 60_000,
  factor: 2,
};

/** What a check after a pass did. */
export type MaintenanceOutcome =
  { type: 'notDue' } | { type: 'ran'; result: RepackResult; ms: number } | { type: 'failed'; error: unknown };

export interface RepoMaintenance {
  /** Checks the repository and repacks it when due; never throws (a failure is logged and returned). */
  afterPass(): Promise<MaintenanceOutcome>;
}

/** Returns the maintenance of one repository, with the pack cache of the passes that read it. */
export function repoMaintenance(opts: {
  gitdir: string;
  clock: Clock;
  log: Logger;
  /** The pack cache the passes read through (HubPassCache.packs): removed packs are dropped from it. */
  packCache: object;
  settings?: MaintenanceSettings;
  /** The repack (tests substitute one that records its calls). */
  repack?: (opts: RepackOptions) => Promise<RepackResult>;
  /** Milliseconds of a monotonic clock, for the repack's duration. */
  elapsed?: () => number;
}): RepoMaintenance {
  const settings = opts.settings ?? defaultMaintenanceSettings;
  const repack = opts.repack ?? repackPacks;
  const elapsed = opts.elapsed ?? (() => opts.clock.now());
  let lastRun: number | null = null;
  const isDue = async (): Promise<boolean> => {
    if (lastRun !== null && opts.clock.now() - lastRun < settings.minIntervalMs) return false;
    if ((await listPacks(opts.gitdir)).length > settings.maxPacks) return true;
    return (await estimateLooseObjects(opts.gitdir)) > settings.maxLooseObjects;
  };
  return {
    afterPass: async () => {
      try {
        if (!(await isDue())) return { type: 'notDue' };
        lastRun = opts.clock.now();
        const began = elapsed();
        const result = await repack({
          gitdir: opts.gitdir,
          factor: settings.factor,
          packCache: opts.packCache,
          now: opts.clock.now(),
        });
        forgetRemovedPacks(opts.packCache);
        const ms = Math.round(elapsed() - began);
        opts.log.info(describe(opts.gitdir, result, ms));
        return { type: 'ran', result, ms };
      } catch (error) {
        opts.log.warn(
          `${opts.gitdir}: repack failed, the packs are left as they are: ${String((error as Error).message ?? error)}`,
        );
        return { type: 'failed', error };
      }
    },
  };
}

/**
 * Returns the maintenance of many repositories (the hub's status and render mirrors) that spends
 * at most about `budgetMs` after a pass: each member is checked in turn, from where the last
 * check stopped, and once the budget is spent no further member starts (one repack may run past
 * it); the rest are checked after the next pass. Mirrors filled at the same pace come due
 * together: the budget bench at 1,000 clusters saw 30 of 46 status mirrors repacked after one
 * pass, 2.6 s in which a source push's pass could not start (docs/git-budget.md#measured).
 */
export function roundRobinMaintenance(
  members: () => readonly RepoMaintenance[],
  opts: {
    budgetMs: number;
    /** Milliseconds of a monotonic clock. */
    elapsed: () => number;
  },
): RepoMaintenance {
  let next = 0;
  return {
    afterPass: async () => {
      const list = members();
      const began = opts.elapsed();
      const first = next;
      for (let k = 0; k < list.length && opts.elapsed() - began < opts.budgetMs; k++) {
        const i = (first + k) % list.length;
        await list[i]!.afterPass();
        next = (i + 1) % list.length;
      }
      return { type: 'notDue' };
    },
  };
}

/** Returns the pass followed by the maintenance check; the pass's result is returned as it was. */
export function withRepoMaintenance<T>(
  pass: () => Promise<T>,
  maintenance: RepoMaintenance,
): () => Promise<T> {
  return async () => {
    const result = await pass();
    await maintenance.afterPass();
    return result;
  };
}

function describe(gitdir: string, result: RepackResult, ms: number): string {
  if (result.type === 'busy') return `${gitdir}: repack skipped, another one runs (${result.holder})`;
  const leftovers = result.finished + result.tempFiles;
  const cleaned = leftovers > 0 ? `; removed ${leftovers} leftovers of a repack or write cut short` : '';
  if (result.type === 'nothingToDo') return `${gitdir}: packs checked, nothing to fold${cleaned} (${ms} ms)`;
  const loose = result.looseObjects > 0 ? ` and ${result.looseObjects} loose objects` : '';
  return `${gitdir}: folded ${result.folded.length} packs${loose} into ${result.pack} (${result.objects} objects${cleaned}, ${ms} ms)`;
}
