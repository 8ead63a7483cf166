// What the hub pass needs for failover (docs/failover.md) beyond the repository: the settings,
// the process's failover memory, and the cluster monitor's verdicts.
import { defaultFailoverSettings, type FailoverSettings } from '../../core/model/failover.js';
import { newFailoverMemory, type FailoverMemory } from '../../core/failover/eviction-request.js';
import { carryRecordedVerdicts } from '../../core/failover/carry-recorded-verdicts.js';
import type { ClusterVerdict } from '../../core/failover/monitored-status.js';
import { failoverDir } from '../../core/failover/plan-failover.js';
import { parseTime } from '../../core/model/rfc3339.js';
import { readBlobText } from '../../adapters/git/read-typed-object.js';
import type { ReadContext } from './read-git-state.js';

export interface HubFailover {
  settings: FailoverSettings;
  memory: FailoverMemory;
  /** The monitor's verdicts now: the clusters it judges Unknown (none without a monitor). */
  verdicts: () => ReadonlyMap<string, ClusterVerdict>;
  /**
   * Whether the verdicts are a judgement of their own: false while a monitor is in its first
   * grace period, and always for `hub --once` (no monitor); then the judgements the last bindings
   * commit recorded stand (carry-recorded-verdicts.ts). Absent: true (verdicts a caller sets).
   */
  judging?: () => boolean;
}

/** Returns failover with the defaults, no memory and no monitor (`hub --once`, tests). */
export function defaultHubFailover(): HubFailover {
  return {
    settings: defaultFailoverSettings,
    memory: newFailoverMemory(),
    verdicts: () => new Map(),
    judging: () => false,
  };
}

/** Returns the texts of the failover records of the bindings branch (path → text). */
export async function readFailoverRecords(
  ctx: ReadContext,
  files: ReadonlyMap<string, string>,
): Promise<Map<string, string>> {
  const recorded = new Map<string, string>();
  for (const [path, oid] of files) {
    if (!path.startsWith(failoverDir)) continue;
    recorded.set(path, await readBlobText(ctx.store, oid, path));
  }
  return recorded;
}

/** Returns whether a recorded wake-at time (absent: none) has come; one that does not parse has. */
export function wakeAtDue(recorded: string | null, now: Date): boolean {
  if (recorded === null) return false;
  const at = parseTime(recorded);
  return at === undefined || at <= now.getTime();
}

/**
 * Returns the verdicts a pass judges by: the monitor's, and, until it judges, each judgement the
 * bindings head recorded that still stands (core/failover/carry-recorded-verdicts.ts). Without
 * `now`, the statuses are taken as the head recorded them and every judged cluster as registered.
 */
export function passVerdicts(
  failover: HubFailover,
  head: { judged: readonly string[]; lastStatus: readonly string[] },
  now?: { statusHeads: ReadonlyMap<string, string>; clusters: ReadonlySet<string> },
): ReadonlyMap<string, ClusterVerdict> {
  const clusterOf = (value: string) => value.slice(0, value.indexOf('='));
  return carryRecordedVerdicts({
    monitor: failover.verdicts(),
    monitorJudging: failover.judging?.() ?? true,
    recorded: head.judged,
    recordedStatus: head.lastStatus,
    statusHeads:
      now?.statusHeads ?? new Map(head.lastStatus.map((v) => [clusterOf(v), v.slice(v.indexOf('=') + 1)])),
    clusters: now?.clusters ?? new Set(head.judged.map(clusterOf)),
  });
}
