// The latencies the timing settings cost: how long a source push takes to be applied, and how
// long a cluster that stopped takes to be judged not Ready.
import type { TrafficSettings, WorkCosts } from './traffic-settings.js';
import { uniformSumQuantile } from './uniform-sum-quantile.js';

/**
 * The work of a source push that moves every branch, as measured behind one hub on 2 cores with
 * the forge emulator on the same cores (docs/git-budget.md#measured, `bench/budget.js --observe
 * 25`, doorbell and webhook on, 6 December): the observed agents' push → applied was P50 0.8 s,
 * P99 1.1 s at 25 clusters in 3 render repositories, 1.3 s and 1.8 s at 100 in 9, 3.7 s and 4.5 s
 * at 1,000 in 84. Fitted to the three: 0.5 s whatever the fleet, 1 ms a cluster the hub renders,
 * 28 ms a render repository it publishes (its copy, push and record, and the forge's
 * receive-pack beside it on the same cores). A forge of its own would take its share off.
 */
export const measuredWork: WorkCosts = {
  fixedSeconds: 0.5,
  perClusterSeconds: 0.001,
  perRenderRepositorySeconds: 0.028,
};

/** The work of a source push, in seconds, beside the waits. */
export interface WorkFigures {
  /** Whatever the fleet (model-latency.ts measuredWork). */
  fixedSeconds: number;
  /** The hub's pass over every cluster it renders. */
  hubPassSeconds: number;
  /** From the hub's first render push to its last: a cluster waits uniformly within it. */
  renderPublishSeconds: number;
}

/** Returns what a source push costs in work for a fleet of `clusters` under the settings. */
export function workFigures(s: TrafficSettings, clusters: number): WorkFigures {
  return {
    fixedSeconds: s.work.fixedSeconds,
    hubPassSeconds: round(s.work.perClusterSeconds * clusters),
    renderPublishSeconds: round(s.work.perRenderRepositorySeconds * s.renderRepositories),
  };
}

/**
 * Returns push → applied P50 and P99 in seconds for a fleet of `clusters`: the hub's wait for its
 * next poll (none with a webhook), its pass over every cluster, the wait for the cluster's render
 * repository's turn among the hub's pushes, then the agent's wait for its next poll or pass (with
 * the doorbell: for its turn to fetch, `fetchSpreadSeconds` at most, model-pacing.ts) and its
 * fetch and apply. The waits are each uniform over their period.
 */
export function modelLatency(
  s: TrafficSettings,
  clusters: number,
  fetchSpreadSeconds = 0,
): { p50: number; p99: number } {
  const hubWait = s.hub.webhook ? 0 : s.hub.intervalSeconds;
  const publishWait = s.work.perRenderRepositorySeconds * s.renderRepositories;
  const agentWait = s.doorbell
    ? fetchSpreadSeconds
    : Math.min(s.agent.branchPollSeconds, s.agent.intervalSeconds);
  const work = s.work.fixedSeconds + s.work.perClusterSeconds * clusters;
  const at = (q: number) => round(uniformSumQuantile([hubWait, publishWait, agentWait], q) + work);
  return { p50: at(0.5), p99: at(0.99) };
}

/**
 * Returns the longest time, in seconds, from an agent's last sign of life to the hub judging its
 * cluster not Ready: the grace period, plus the hub's poll that sees heartbeats (beacons over the
 * doorbell reach it at once), plus one monitor period.
 */
export function modelNotReadyDetection(s: TrafficSettings): number {
  const seen = s.doorbell ? 0 : s.hub.intervalSeconds;
  return round(s.hub.monitorGracePeriodSeconds + seen + s.hub.monitorPeriodSeconds);
}

function round(seconds: number): number {
  return Math.round(seconds * 10) / 10;
}
