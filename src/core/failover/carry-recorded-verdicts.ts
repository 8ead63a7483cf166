// The verdicts a pass judges by when its monitor cannot judge yet. A restarted hub (a new `hub`
// process in its first grace period, or any `hub --once`, which has no monitor) has seen no
// agent move, so it has no verdict of its own; without one, a cluster the last pass judged
// Unknown would be judged by its last report, written before it went quiet (Ready), and an
// eviction that only waits for the cluster would end as if it were back. Karmada keeps the
// judgement in the Cluster's stored condition across a controller restart; gitfleet keeps it in
// the bindings commit (Gitfleet-Cluster-Judged), and so a recorded judgement stands, while the
// monitor cannot judge, until the cluster's agent has written a status commit since it was
// recorded (the status head named by that commit's Gitfleet-Status-Commit trailer moved).
import type { ClusterVerdict } from './monitored-status.js';

/** What the pass knows: its monitor's verdicts, and what the last bindings commit recorded. */
export interface CarryInput {
  /** The monitor's verdicts (none with --once). */
  monitor: ReadonlyMap<string, ClusterVerdict>;
  /** Whether the monitor judges already (past its first grace period); false with --once. */
  monitorJudging: boolean;
  /** The bindings head's Gitfleet-Cluster-Judged values (`member2=Unknown`). */
  recorded: readonly string[];
  /** The bindings head's Gitfleet-Status-Commit values (`member2=<commit>`). */
  recordedStatus: readonly string[];
  /** Each cluster's status branch head now. */
  statusHeads: ReadonlyMap<string, string>;
  /** The registered clusters: a cluster no longer registered is not carried. */
  clusters: ReadonlySet<string>;
}

/** Returns the verdicts to judge by: the monitor's, plus each recorded judgement that still stands. */
export function carryRecordedVerdicts(input: CarryInput): ReadonlyMap<string, ClusterVerdict> {
  if (input.monitorJudging || input.recorded.length === 0) return input.monitor;
  const recordedStatus = new Map(input.recordedStatus.map(splitPair));
  const verdicts = new Map(input.monitor);
  for (const [cluster] of input.recorded.map(splitPair)) {
    if (verdicts.has(cluster) || !input.clusters.has(cluster)) continue;
    const then = recordedStatus.get(cluster);
    const now = input.statusHeads.get(cluster);
    if (now !== undefined && now !== then) continue; // it reported since: alive again
    verdicts.set(cluster, {
      status: 'Unknown',
      reason: now === undefined ? 'ClusterStatusNeverUpdated' : 'ClusterStatusUnknown',
      message: 'judged Unknown by the last hub pass and not reported since (the hub restarted)',
    });
  }
  return verdicts;
}

function splitPair(value: string): [string, string] {
  const at = value.indexOf('=');
  return at < 0 ? [value, ''] : [value.slice(0, at), value.slice(at + 1)];
}
