// The inputs of the traffic model: the fleet's shape and the timing settings in force. Every
// period is in seconds. The settings mirror the flags (docs/git-budget.md has the table).
import type { ForgeBudget } from './forge-budget.js';

/** What the fleet is and how much it changes. */
export interface FleetShape {
  clusters: number;
  /** Resource templates: they size packs, not requests; shown with the figures. */
  templates: number;
  /** People's pushes to the source branch an hour; each is assumed to change every cluster's branch. */
  fleetPushesPerHour: number;
  /** Status writes per cluster an hour (apply results, health, the cluster's facts changing). */
  statusChangesPerClusterPerHour: number;
  /**
   * Clusters whose registration names a signing key (gitfleet.io/signing-key): the hub checks
   * their heartbeats' signatures, so its mirror fetches a heartbeat of theirs that moved (default 0).
   */
  keyedClusters?: number;
}

/** The hub's timing flags. */
export interface HubTiming {
  /** `--interval`: the hub polls every repository it reads this often. */
  intervalSeconds: number;
  /** A push webhook (`--webhook-port`): a source push is seen at once instead of at the next poll. */
  webhook: boolean;
  /** `--cluster-monitor-period`. */
  monitorPeriodSeconds: number;
  /** `--cluster-monitor-grace-period`. */
  monitorGracePeriodSeconds: number;
  /** `--status-record-interval`: the least time between two records of moved statuses (absent: none). */
  statusRecordSeconds?: number;
}

/** The agent's timing flags. */
export interface AgentTiming {
  /** `--interval`: the resync pass, one refresh of the cluster branch each. */
  intervalSeconds: number;
  /** `--branch-poll`: one ls-refs of the cluster branch each. */
  branchPollSeconds: number;
  /** `--cluster-lease-duration` × `--cluster-lease-renew-interval-fraction`: one push each. */
  heartbeatSeconds: number;
  /** `--cluster-status-update-frequency`: facts change a status at most this often. */
  statusUpdateFrequencySeconds: number;
  /** `--safety-poll`: the slow poll while the doorbell is connected (replaces --branch-poll). */
  safetyPollSeconds: number;
  /** `--doorbell-heartbeat`: the heartbeat push while the doorbell is connected (default: the safety poll). */
  doorbellHeartbeatSeconds?: number;
  /** `--push-spread`: without the hub's push slots, at most one push per this long (0 or absent: unpaced). */
  pushSpreadSeconds?: number;
}

/**
 * What a source push costs in work, beside the waits: one hub renders the whole fleet and
 * publishes every render repository, so its part grows with both (model-latency.ts has the
 * measured figures).
 */
export interface WorkCosts {
  /** Whatever the fleet: the hub's fetch of the push and its pass's start; an agent's fetch and apply. */
  fixedSeconds: number;
  /** The hub's pass, for each cluster it renders. */
  perClusterSeconds: number;
  /**
   * The hub's publish of one render repository: they go out side by side but as fast as one hub
   * works, so the k-th of R is out about k times this after the first, and a cluster's wait
   * for its repository's push is uniform over R times this.
   */
  perRenderRepositorySeconds: number;
}

/** Everything the model reads. */
export interface TrafficSettings {
  hub: HubTiming;
  agent: AgentTiming;
  /** Dashboards (`gitfleet ui`) and `gitfleet status --watch` running, and their `--interval`. */
  dashboards: { count: number; refreshSeconds: number };
  /** The hub's doorbell (`--notify-addr`): agents are told when their branch moved. */
  doorbell: boolean;
  /** Status repositories (0: status and heartbeats live in the fleet repository, as by default). */
  statusRepositories: number;
  /** Render repositories holding the cluster branches (0: the fleet repository, as by default). */
  renderRepositories: number;
  /** Time a change spends being worked on (render, push, fetch, apply), beside the waits. */
  work: WorkCosts;
  /**
   * The budget the hub's doorbell paces by (its forge; core/budget/plan-pacing.ts): push slots
   * per status repository and fetches a second. Absent, or without the doorbell: no hub pacing.
   */
  pacingBudget?: ForgeBudget;
}
