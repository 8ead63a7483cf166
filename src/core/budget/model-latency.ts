// The latencies the timing settings cost: how long a source push takes to be applied, and how
// long a cluster that stopped takes to be judged not Ready.
import type { TrafficSettings } from './traffic-settings.js';
import { uniformSumQuantile } from './uniform-sum-quantile.js';

/**
 * Returns push → applied P50 and P99 in seconds: the hub's wait for its next poll (none with a
 * webhook), then the agent's wait for its next poll or pass (with the doorbell: for its turn to
 * fetch, `fetchSpreadSeconds` at most, model-pacing.ts), each uniform over its period, plus the
 * work itself.
 */
export function modelLatency(s: TrafficSettings, fetchSpreadSeconds = 0): { p50: number; p99: number } {
  const hubWait = s.hub.webhook ? 0 : s.hub.intervalSeconds;
  const agentWait = s.doorbell
    ? fetchSpreadSeconds
    : Math.min(s.agent.branchPollSeconds, s.agent.intervalSeconds);
  const at = (q: number) => round(uniformSumQuantile(hubWait, agentWait, q) + s.workSeconds);
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
