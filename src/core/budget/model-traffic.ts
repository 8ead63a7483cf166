// The traffic model: for a fleet and the settings in force, the Git requests each repository
// receives, from the hub, the agents and the dashboards. Each term counts what the code sends
// (measured against a counting smart-HTTP server, test/kube/budget-measured.test.ts):
//
// | who        | when                                   | requests                                   |
// |------------|----------------------------------------|--------------------------------------------|
// | agent      | each --branch-poll (or --safety-poll)  | 1 read: a protocol v2 ls-refs of its branch |
// | agent      | each pass (--interval, or a move)      | 1 read (ls-refs); +1 read (v2 fetch) when its branch moved |
// | agent      | each heartbeat, each status write      | 1 push (no advertisement first)            |
// | hub        | each --interval, per repository read   | 1 read: the ref advertisement              |
// | hub        | something it reads moved               | +1 read: the fetch                         |
// | hub        | a render or a bindings change          | 1 push carrying every moved branch         |
// | dashboard  | each --interval, per repository read   | 1 read; +1 read (fetch) when a ref moved   |
//
// A read is any upload-pack request (advertisement or POST), a push any receive-pack POST.
import { modelLatency, modelNotReadyDetection } from './model-latency.js';
import type { FleetShape, TrafficSettings } from './traffic-settings.js';

/** Requests a second (reads) and a minute (pushes). */
export interface Rates {
  readsPerSecond: number;
  pushesPerMinute: number;
}

/** One repository's traffic. */
export interface RepositoryTraffic {
  /** `fleet`, or `status-<k>` for the k-th status repository. */
  name: string;
  role: 'fleet' | 'status';
  /** Clusters whose status and heartbeats are written here. */
  statusClusters: number;
  /** Refs the repository holds (GitHub advises at most 5,000 branches). */
  refs: number;
  /** With nothing changing. */
  idle: Rates;
  /** With the shape's churn: what is compared with the budget. */
  total: Rates;
  /** Requests one source push causes here (counts, not rates). */
  perFleetPush: { reads: number; pushes: number };
  by: { hub: Rates; agents: Rates; dashboards: Rates };
}

/** The model's answer. */
export interface TrafficModel {
  repositories: RepositoryTraffic[];
  pushToAppliedSeconds: { p50: number; p99: number };
  notReadyDetectionSeconds: number;
}

/** Returns the traffic of every repository for the fleet under the settings. */
export function modelTraffic(fleet: FleetShape, settings: TrafficSettings): TrafficModel {
  const shares = statusShares(fleet.clusters, settings.statusRepositories);
  const repositories = [fleetRepository(fleet, settings)];
  shares.forEach((clusters, k) => repositories.push(statusRepository(fleet, settings, clusters, k + 1)));
  return {
    repositories,
    pushToAppliedSeconds: modelLatency(settings),
    notReadyDetectionSeconds: modelNotReadyDetection(settings),
  };
}

/** Clusters per status repository: as even as rendezvous hashing makes it on average. */
function statusShares(clusters: number, repositories: number): number[] {
  const n = Math.max(0, Math.floor(repositories));
  return Array.from({ length: n }, (_, k) => Math.floor(clusters / n) + (k < clusters % n ? 1 : 0));
}

interface Flow {
  /** Reads a second from each source. */
  hub: number;
  agents: number;
  dashboards: number;
  /** Pushes a second. */
  hubPushes: number;
  agentPushes: number;
}

function fleetRepository(fleet: FleetShape, s: TrafficSettings): RepositoryTraffic {
  const n = fleet.clusters;
  const here = s.statusRepositories > 0 ? 0 : n;
  const poll = s.doorbell ? s.agent.safetyPollSeconds : s.agent.branchPollSeconds;
  const pushRate = fleet.fleetPushesPerHour / 3600;
  const statusRate = statusWriteRate(fleet, s) * n;
  const idle: Flow = {
    hub: 1 / s.hub.intervalSeconds,
    agents: n * (1 / poll + 1 / s.agent.intervalSeconds),
    dashboards: s.dashboards.count / s.dashboards.refreshSeconds,
    hubPushes: 0,
    agentPushes: here / s.agent.heartbeatSeconds,
  };
  const hereStatusRate = here > 0 ? statusRate : 0;
  const changes: Flow = {
    // The hub fetches what moved (a source push; statuses written here) at most once a poll.
    hub: Math.min(pushRate + hereStatusRate, 1 / s.hub.intervalSeconds),
    // A moved branch: the pass's ls-refs and its fetch, on every cluster.
    agents: pushRate * 2 * n,
    dashboards: s.dashboards.count * Math.min(pushRate + hereStatusRate, 1 / s.dashboards.refreshSeconds),
    // The render's push, and a bindings push when statuses change what the records aggregate.
    hubPushes: pushRate + Math.min(pushRate + statusRate, 1 / s.hub.intervalSeconds),
    // Every cluster reports the new commit applied, and its other status changes.
    agentPushes: here > 0 ? pushRate * n + statusRate : 0,
  };
  return {
    name: 'fleet',
    role: 'fleet',
    statusClusters: here,
    refs: 2 + n + 2 * here,
    idle: ratesOf(idle),
    total: ratesOf(sum(idle, changes)),
    perFleetPush: {
      reads: 1 + 2 * n + s.dashboards.count + (here > 0 ? 1 + s.dashboards.count : 0),
      pushes: 2 + here,
    },
    by: bySource(sum(idle, changes)),
  };
}

function statusRepository(
  fleet: FleetShape,
  s: TrafficSettings,
  clusters: number,
  k: number,
): RepositoryTraffic {
  const pushRate = fleet.fleetPushesPerHour / 3600;
  const statusRate = statusWriteRate(fleet, s) * clusters;
  const moves = pushRate + statusRate;
  const idle: Flow = {
    hub: 1 / s.hub.intervalSeconds,
    agents: 0,
    dashboards: s.dashboards.count / s.dashboards.refreshSeconds,
    hubPushes: 0,
    agentPushes: clusters / s.agent.heartbeatSeconds,
  };
  const changes: Flow = {
    hub: Math.min(moves, 1 / s.hub.intervalSeconds),
    agents: 0,
    dashboards: s.dashboards.count * Math.min(moves, 1 / s.dashboards.refreshSeconds),
    hubPushes: 0,
    agentPushes: pushRate * clusters + statusRate,
  };
  return {
    name: `status-${k}`,
    role: 'status',
    statusClusters: clusters,
    refs: 2 * clusters,
    idle: ratesOf(idle),
    total: ratesOf(sum(idle, changes)),
    perFleetPush: { reads: 1 + s.dashboards.count, pushes: clusters },
    by: bySource(sum(idle, changes)),
  };
}

/** Status writes a second of one cluster: its churn, no more often than its facts are read. */
function statusWriteRate(fleet: FleetShape, s: TrafficSettings): number {
  return Math.min(fleet.statusChangesPerClusterPerHour / 3600, 1 / s.agent.statusUpdateFrequencySeconds);
}

function sum(a: Flow, b: Flow): Flow {
  return {
    hub: a.hub + b.hub,
    agents: a.agents + b.agents,
    dashboards: a.dashboards + b.dashboards,
    hubPushes: a.hubPushes + b.hubPushes,
    agentPushes: a.agentPushes + b.agentPushes,
  };
}

function ratesOf(f: Flow): Rates {
  return {
    readsPerSecond: f.hub + f.agents + f.dashboards,
    pushesPerMinute: 60 * (f.hubPushes + f.agentPushes),
  };
}

function bySource(f: Flow): RepositoryTraffic['by'] {
  return {
    hub: { readsPerSecond: f.hub, pushesPerMinute: 60 * f.hubPushes },
    agents: { readsPerSecond: f.agents, pushesPerMinute: 60 * f.agentPushes },
    dashboards: { readsPerSecond: f.dashboards, pushesPerMinute: 0 },
  };
}
