// The cluster monitor's rules (Karmada's cluster controller, tryUpdateClusterHealth in
// pkg/controllers/cluster/cluster_controller.go), as a function of what the hub saw and when it
// saw it. Nothing here reads a clock: every time is the hub's own monotonic time, passed in,
// and no time an agent wrote is ever read. An agent proves it is alive by moving a ref (its
// heartbeat, or its status branch) or by a beacon over the doorbell (cluster-beacons.ts: their
// count moves); the hub notes when, by its own clock, it saw the value change. A restarted hub
// has heard no beacon: what it sees first is the refs, and, as below, it judges no one before
// a full grace period in which the agents can be heard again (their beacons, or their
// heartbeat pushes, which go back to the renew interval once the doorbell is gone).
//
//   the cluster                                     its probe time           its grace period
//   |-----------------------------------------------|------------------------|---------------------|
//   first seen (the hub started, or it was just     the time it was first    startup grace if it
//   registered): a value seen once proves nothing   seen                     never reported, else
//   about when it was written                                                the monitor grace
//   its heartbeat or status head changed            the time of that look    the same
//
// A cluster is judged Unknown when the hub's time is past its probe time plus its grace period,
// and no one is judged before a full monitor grace period has passed since the monitor started
// (whatever the startup grace is set to): a restarted hub has seen nobody change yet. A hub
// that saw nothing for longer than `blindAfterMs` (default: the grace period) between two
// looks (cut off from the Git host, or stalled) starts over as a restarted hub does: the agents
// may have been as cut off as it was, and their first heartbeat back is yet to come. The
// verdict's reason is ClusterStatusUnknown when the cluster has a status branch (it reported
// once), ClusterStatusNeverUpdated when it has none. A judged cluster whose refs move again is
// un-judged once it has been seen alive for `successThresholdMs` (--cluster-success-threshold,
// 30 s), its refs never standing still for a grace period meanwhile: one move starts the count,
// a silence of a grace period breaks it, so an agent that flaps stays judged (Karmada's status
// controller damps a recovery the same way, by its own observations). Only registered
// clusters are judged; one that leaves the fleet is forgotten, so coming back starts afresh.
import type { ClusterVerdict } from '../../core/failover/monitored-status.js';

/** The monitor's settings, in milliseconds (Karmada's controller-manager flags). */
export interface ClusterMonitorSettings {
  /** How often the hub looks at the refs (`--cluster-monitor-period`). */
  periodMs: number;
  /** How long a reported cluster may go without a heartbeat (`--cluster-monitor-grace-period`). */
  gracePeriodMs: number;
  /** How long a cluster that never reported may take to start (`--cluster-startup-grace-period`). */
  startupGracePeriodMs: number;
  /**
   * How long a judged cluster must be seen alive before it is un-judged (`--cluster-success-threshold`,
   * Karmada's name for the same damping in its cluster status controller). 0: at its first sign of life.
   */
  successThresholdMs: number;
}

/** Karmada's defaults: look every 5 s, judge after 40 s (60 s for a cluster that never reported), trust a recovery after 30 s. */
export const defaultClusterMonitorSettings: ClusterMonitorSettings = {
  periodMs: 5_000,
  gracePeriodMs: 40_000,
  startupGracePeriodMs: 60_000,
  successThresholdMs: 30_000,
};

/** One look at the refs: for each registered cluster, its heartbeat and status heads (null: none). */
export interface MonitorLook {
  /** The hub's monotonic time of the look (for a remote, of the fetch the refs came from). */
  at: number;
  clusters: ReadonlyMap<string, { heartbeat: string | null; status: string | null; beacons?: number }>;
}

/** What the monitor remembers of one cluster. */
interface Probe {
  /** The heads last seen, as one value. */
  value: string;
  /** When the value was first seen, or last seen changing. */
  probeAt: number;
  /** The verdict while the cluster is judged. */
  judged?: ClusterVerdict;
  /** For a judged cluster seen alive again: the first look that saw it move, unbroken since. */
  recoveringSince?: number;
}

/** The monitor's memory: the start time, the last look's and each cluster's probe. */
export interface MonitorMemory {
  startedAt: number;
  lastLookAt?: number;
  probes: Map<string, Probe>;
}

/** Returns a fresh memory: a hub that starts has seen nobody change. */
export function newMonitorMemory(startedAt: number): MonitorMemory {
  return { startedAt, probes: new Map() };
}

/** Records a look in the memory and returns the verdicts it gives, by cluster. */
export function judgeClusters(
  memory: MonitorMemory,
  look: MonitorLook,
  settings: ClusterMonitorSettings,
  blindAfterMs: number = settings.gracePeriodMs,
): Map<string, ClusterVerdict> {
  if (memory.lastLookAt !== undefined && look.at - memory.lastLookAt > blindAfterMs) {
    memory.startedAt = look.at;
    memory.probes.clear();
  }
  memory.lastLookAt = look.at;
  for (const cluster of [...memory.probes.keys()])
    if (!look.clusters.has(cluster)) memory.probes.delete(cluster);
  const verdicts = new Map<string, ClusterVerdict>();
  const judging = look.at - memory.startedAt > settings.gracePeriodMs;
  for (const [cluster, heads] of look.clusters) {
    const beacons = heads.beacons === undefined ? '' : ` ${heads.beacons}`;
    const value = `${heads.heartbeat ?? '-'} ${heads.status ?? '-'}${beacons}`;
    const probe = memory.probes.get(cluster);
    if (probe === undefined) {
      memory.probes.set(cluster, { value, probeAt: look.at });
      continue;
    }
    if (probe.value !== value) {
      probe.value = value;
      probe.probeAt = look.at;
      if (probe.judged) probe.recoveringSince ??= look.at;
    }
    const reported = heads.status !== null;
    const grace = reported ? settings.gracePeriodMs : settings.startupGracePeriodMs;
    const alive = look.at - probe.probeAt <= grace;
    if (probe.judged) {
      const verdict = judgedStill(probe, alive, look.at, settings);
      if (verdict) verdicts.set(cluster, verdict);
      continue;
    }
    if (!judging || alive) continue;
    probe.judged = verdictOf(reported, grace);
    verdicts.set(cluster, probe.judged);
  }
  return verdicts;
}

// A judged cluster stays judged until it has been seen alive for the success threshold without
// a break (a grace period with no move breaks it): a flapping agent stays judged, so its flaps
// make no taint, verdict or bindings commit each (Karmada's --cluster-success-threshold).
function judgedStill(
  probe: Probe,
  alive: boolean,
  at: number,
  settings: ClusterMonitorSettings,
): ClusterVerdict | undefined {
  if (!alive) delete probe.recoveringSince;
  else if (probe.recoveringSince !== undefined && at - probe.recoveringSince >= settings.successThresholdMs) {
    delete probe.judged;
    delete probe.recoveringSince;
    return undefined;
  }
  return probe.judged;
}

function verdictOf(reported: boolean, graceMs: number): ClusterVerdict {
  // The message names the grace period, not how long it has been: it is part of the rendered
  // status, which must not change from one pass to the next while nothing else does.
  return reported
    ? {
        status: 'Unknown',
        reason: 'ClusterStatusUnknown',
        message: `the agent stopped reporting: neither its heartbeat nor its status branch moved for longer than ${formatMs(graceMs)}`,
      }
    : {
        status: 'Unknown',
        reason: 'ClusterStatusNeverUpdated',
        message: `the agent never reported: it wrote no status branch, and its heartbeat did not move for longer than ${formatMs(graceMs)}`,
      };
}

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

/** Returns whether two sets of verdicts judge the same clusters the same way. */
export function sameVerdicts(
  a: ReadonlyMap<string, ClusterVerdict>,
  b: ReadonlyMap<string, ClusterVerdict>,
): boolean {
  if (a.size !== b.size) return false;
  for (const [cluster, v] of a) {
    const w = b.get(cluster);
    if (!w || w.status !== v.status || w.reason !== v.reason || w.message !== v.message) return false;
  }
  return true;
}
