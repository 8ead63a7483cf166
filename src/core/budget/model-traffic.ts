// The traffic model: for a fleet and the settings in force, the Git requests each repository
// receives, from the hub, the agents and the dashboards. Each term counts what the code sends
// (measured against a counting smart-HTTP server, test/kube/budget-measured.test.ts):
//
// | who        | when                                   | requests                                   |
// |------------|----------------------------------------|--------------------------------------------|
// | agent      | each --branch-poll (or --safety-poll)  | 1 read: a protocol v2 ls-refs of its branch |
// |            |   finding the head its mirror holds    | no move: no refresh (branch-poll.ts), so no read of the bindings branch after a ring |
// | agent      | each pass (--interval, or a move)      | 1 read (ls-refs); +1 read (v2 fetch) when its branch moved |
// |            |   with render repositories             | the same on the render repository; on the fleet repository (the bindings branch) only when its branch did not move |
// |            |   with the doorbell connected          | a resync (--interval) reads nothing (refresh-gate.ts): only a ring or the safety poll's move refreshes |
// |            |   a ring, render repository            | 1 read: the v2 fetch of the head the ring named, no ls-refs (fetch-known-head.ts) |
// | agent      | each heartbeat, each status write      | 1 push (no advertisement first)            |
// | hub        | each --interval (fleet repository),    | 1 read: the ref advertisement              |
// |            |   each --cluster-monitor-period (status repository: the monitor refreshes it) |  |
// |            |   a pass, a render repository not read within the last --interval (its read stands that long) | |
// | hub        | something it reads moved               | +2 reads: the fetch (two POSTs), at most once a look |
// |            |   heartbeats                           | move nothing in the fleet repository (read from the advertisement) unless the cluster is keyed; a status repository's mirror fetches every one |
// | hub        | a render or a bindings change          | 1 push carrying every moved branch         |
// |            |   moved statuses alone                 | at most one a look, or a --status-record-interval |
// | dashboard  | each --interval, per repository read   | 1 read; +2 reads (fetch) when a ref moved  |
//
// A read is any upload-pack request (advertisement or POST), a push any receive-pack POST.
import { modelLatency, modelNotReadyDetection, workFigures, type WorkFigures } from './model-latency.js';
import { agentPushCap, pacingFigures, type PacingFigures } from './model-pacing.js';
import { readsPerRing, readsPerRingFromRender } from './plan-pacing.js';
import type { FleetShape, TrafficSettings } from './traffic-settings.js';

/** Requests of one mirror fetch after the advertisement showed a move (measured: two POSTs). */
const fetchReads = 2;

/** Requests a second (reads) and a minute (pushes). */
export interface Rates {
  readsPerSecond: number;
  pushesPerMinute: number;
}

/** One repository's traffic. */
export interface RepositoryTraffic {
  /** `fleet`, `render-<k>` or `status-<k>` for the k-th render or status repository. */
  name: string;
  role: 'fleet' | 'render' | 'status';
  /** Clusters whose status and heartbeats are written here. */
  statusClusters: number;
  /** Clusters whose branch is here (their agents poll it). */
  branchClusters: number;
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
  /** What pacing costs (model-pacing.ts): the fetch spread, the status lag, a start's length. */
  pacing: PacingFigures;
  /** The work in push → applied beside the waits: the hub's pass and its render pushes grow with the fleet. */
  work: WorkFigures;
}

/** Returns the traffic of every repository for the fleet under the settings. */
export function modelTraffic(fleet: FleetShape, settings: TrafficSettings): TrafficModel {
  const n = fleet.clusters;
  const render = shares(n, settings.renderRepositories);
  const status = shares(n, settings.statusRepositories);
  const repositories = [
    repositoryTraffic(fleet, settings, {
      name: 'fleet',
      role: 'fleet',
      holdsSource: true,
      readers: render.length > 0 ? 0 : n,
      // Agents whose branch is elsewhere still read the bindings branch here at each pass.
      passReaders: render.length > 0 ? n : 0,
      statusClusters: status.length > 0 ? 0 : n,
    }),
  ];
  render.forEach((readers, k) =>
    repositories.push(
      repositoryTraffic(fleet, settings, {
        name: `render-${k + 1}`,
        role: 'render',
        holdsSource: false,
        readers,
        statusClusters: 0,
      }),
    ),
  );
  status.forEach((clusters, k) =>
    repositories.push(
      repositoryTraffic(fleet, settings, {
        name: `status-${k + 1}`,
        role: 'status',
        holdsSource: false,
        readers: 0,
        statusClusters: clusters,
      }),
    ),
  );
  const pacing = pacingFigures(
    settings,
    repositories.map((r) => ({ ...r, holdsSource: r.role === 'fleet' })),
    n,
  );
  return {
    repositories,
    pushToAppliedSeconds: modelLatency(settings, n, pacing.fetchSpreadSeconds),
    notReadyDetectionSeconds: modelNotReadyDetection(settings),
    pacing,
    work: workFigures(settings, n),
  };
}

/** Clusters per repository: as even as hashing makes it on average (none: no such repositories). */
function shares(clusters: number, repositories: number): number[] {
  const n = Math.max(0, Math.floor(repositories));
  return Array.from({ length: n }, (_, k) => Math.floor(clusters / n) + (k < clusters % n ? 1 : 0));
}

/** What one repository holds. */
interface Holding {
  name: string;
  role: RepositoryTraffic['role'];
  /** The source branch and the bindings record (the fleet repository). */
  holdsSource: boolean;
  /** Clusters whose branch is here: their agents poll it. */
  readers: number;
  /** Clusters whose agents read only the hub's record here, once a pass (their branch is in a render repository). */
  passReaders?: number;
  /** Clusters whose status and heartbeat are written here. */
  statusClusters: number;
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

function repositoryTraffic(fleet: FleetShape, s: TrafficSettings, h: Holding): RepositoryTraffic {
  const pushRate = fleet.fleetPushesPerHour / 3600;
  const statusRate = statusWriteRate(fleet, s);
  const hasReaders = h.readers > 0 ? 1 : 0;
  const source = h.holdsSource ? 1 : 0;
  // What the hub sees move here: a source push, and the statuses it causes or that change alone.
  const hubSees = source * pushRate + h.statusClusters * (pushRate + statusRate);
  const hub = hubLooks(fleet, s, h);
  const idle = idleFlow(s, h, hub);
  const changes: Flow = {
    // The hub fetches what moved at most once a look (beyond the heartbeats it fetches idle).
    hub:
      fetchReads *
      (Math.min(hubSees + hub.heartbeatMovesPerSecond, hub.looksPerSecond) -
        Math.min(hub.heartbeatMovesPerSecond, hub.looksPerSecond)),
    // A moved branch: the pass's ls-refs and its fetch, or a ring's fetch alone, on every cluster
    // reading here (an agent whose branch moved in a render repository reads no bindings branch for it).
    agents: pushRate * readsPerMove(s, h) * h.readers,
    dashboards:
      fetchReads *
      s.dashboards.count *
      Math.min(hubSees + hasReaders * pushRate, 1 / s.dashboards.refreshSeconds),
    // The render's push here, and the bindings record when statuses change what it aggregates:
    // at most once a look at the statuses, or once a --status-record-interval.
    hubPushes:
      hasReaders * pushRate + source * Math.min(pushRate + fleet.clusters * statusRate, 1 / recordSeconds(s)),
    // Every cluster reports the new commit applied, and its other status changes.
    agentPushes: h.statusClusters * (pushRate + statusRate),
  };
  // Pacing bounds the agents' pushes, whatever the churn: statuses wait and coalesce instead.
  const cap = agentPushCap(s, { ...h, branchClusters: h.readers });
  idle.agentPushes = Math.min(idle.agentPushes, cap);
  const total = sum(idle, changes);
  total.agentPushes = Math.min(total.agentPushes, cap);
  return {
    name: h.name,
    role: h.role,
    statusClusters: h.statusClusters,
    branchClusters: h.readers,
    refs: 2 * source + h.readers + 2 * h.statusClusters,
    idle: ratesOf(idle),
    total: ratesOf(total),
    perFleetPush: perFleetPush(s, h),
    by: bySource(total),
  };
}

// What a repository serves with nothing changing: the hub's looks (and the heartbeats its mirror
// fetches), the agents' polls and resyncs, the dashboards' refreshes, the heartbeat pushes.
function idleFlow(s: TrafficSettings, h: Holding, hub: ReturnType<typeof hubLooks>): Flow {
  const poll = s.doorbell ? s.agent.safetyPollSeconds : s.agent.branchPollSeconds;
  // With the doorbell connected a resync reads nothing: the mirror is as the doorbell vouches.
  const resync = s.doorbell ? 0 : 1 / s.agent.intervalSeconds;
  return {
    hub: hub.looksPerSecond + fetchReads * Math.min(hub.heartbeatMovesPerSecond, hub.looksPerSecond),
    agents: h.readers * (1 / poll + resync) + (h.passReaders ?? 0) * resync,
    dashboards: s.dashboards.count / s.dashboards.refreshSeconds,
    hubPushes: 0,
    agentPushes: h.statusClusters / heartbeatPushSeconds(s),
  };
}

// The reads and pushes one source push costs here: the hub fetches the source and, once agents
// report, their statuses; a dashboard fetches each of those moves too (and a render repository's
// moved branches).
function perFleetPush(s: TrafficSettings, h: Holding): { reads: number; pushes: number } {
  const source = h.holdsSource ? 1 : 0;
  const hasReaders = h.readers > 0 ? 1 : 0;
  const statusHere = h.statusClusters > 0 ? 1 : 0;
  return {
    reads:
      fetchReads * (source + statusHere) +
      readsPerMove(s, h) * h.readers +
      fetchReads * s.dashboards.count * (Math.max(source, hasReaders) + statusHere),
    pushes: hasReaders + source + h.statusClusters,
  };
}

/**
 * Reads an agent spends here when its branch moved: with the doorbell, a render repository's ring
 * fetches the head it named alone (1); otherwise the pass asks where the branch is and fetches (2).
 */
function readsPerMove(s: TrafficSettings, h: Holding): number {
  return s.doorbell && h.role === 'render' ? readsPerRingFromRender : readsPerRing;
}

/**
 * How often the hub reads a repository, and how often a heartbeat there moves that its mirror
 * must fetch: the fleet repository is polled every --interval and its heartbeats are read from
 * the advertisement, except a keyed cluster's, whose signature the monitor checks; a status
 * repository is refreshed at every look of the cluster monitor, and its mirror fetches every
 * heartbeat that moved (hub-status-repos.ts); a render repository is read at a pass at most once
 * an --interval, however many passes statuses and pushes cause (render-repositories.ts).
 */
function hubLooks(
  fleet: FleetShape,
  s: TrafficSettings,
  h: Holding,
): { looksPerSecond: number; heartbeatMovesPerSecond: number } {
  const keyedShare = fleet.clusters > 0 ? Math.min(1, (fleet.keyedClusters ?? 0) / fleet.clusters) : 0;
  const fetched = h.role === 'status' ? h.statusClusters : h.statusClusters * keyedShare;
  return {
    looksPerSecond: 1 / (h.role === 'status' ? s.hub.monitorPeriodSeconds : s.hub.intervalSeconds),
    heartbeatMovesPerSecond: fetched / heartbeatPushSeconds(s),
  };
}

/** Seconds between heartbeat pushes: with the doorbell, its stretched period (beacons prove life meanwhile). */
function heartbeatPushSeconds(s: TrafficSettings): number {
  if (!s.doorbell) return s.agent.heartbeatSeconds;
  return Math.max(s.agent.heartbeatSeconds, s.agent.doorbellHeartbeatSeconds ?? s.agent.safetyPollSeconds);
}

/**
 * Seconds between two bindings records of moved statuses: the hub sees statuses at each look of
 * its cluster monitor (status repositories) or of its poll (the fleet repository), and records
 * them at most once a --status-record-interval (status-record-gap.ts).
 */
function recordSeconds(s: TrafficSettings): number {
  const look = s.statusRepositories > 0 ? s.hub.monitorPeriodSeconds : s.hub.intervalSeconds;
  return Math.max(look, s.hub.statusRecordSeconds ?? 0);
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
