// What the loops report to metrics, as a port: each loop reports a pass as data once it is done,
// and the remote repository each exchange with Git (loops/runtime/metrics.ts); the Prometheus
// adapter (adapters/metrics/prometheus-metrics.ts) turns the same types into metrics.

/** One hub pass, as the metrics see it. */
export interface HubPassReport {
  /** rendered, upToDate, loadFailed, or failed (the pass threw: Git unreachable, a write failed). */
  result: 'rendered' | 'upToDate' | 'loadFailed' | 'sourceRefused' | 'failed';
  /** For a refused source: the signature problem (Unsigned, UnknownKey, BadSignature, …). */
  sourceRefused?: string;
  /** Absent when the pass threw before it could time itself. */
  seconds?: number;
  /** The pass rendered or found everything rendered: the last-success gauge moves. */
  succeeded: boolean;
  /** Unix seconds, from the loop's clock. */
  at: number;
  /** The type of each rollout decision (Started, StepPassed, Halted, …). */
  rolloutDecisions: readonly string[];
  /** The reason of each eviction (TaintUntolerated, ApplicationFailure, …). */
  evictions: readonly string[];
}

/** One agent pass, as the metrics see it. */
export interface AgentPassReport {
  /** applied, partlyApplied, tombstoned, noBranch, clusterUnreachable, gitUnreachable, failed. */
  result: string;
  seconds?: number;
  succeeded: boolean;
  at: number;
  objects: { applied: number; unchanged: number; failed: number; pruned: number };
  driftCorrections: number;
  /** Objects whose drift correction was paused because something keeps undoing it. */
  fightsBackedOff: number;
}

/** One exchange with a remote repository. */
export interface GitExchangeReport {
  kind: 'fetch' | 'push';
  seconds: number;
  ok: boolean;
}

/** Notifications of one receiver that reached an end (loops/hub/notify-lane.ts), and its backlog after. */
export interface NotificationReport {
  /** `<policy>/<receiver>`. */
  receiver: string;
  /** delivered; failed (an attempt, retried); givenUp (refused for good: a redirect, a 4xx); dropped (the backlog was full). */
  outcome: 'delivered' | 'failed' | 'givenUp' | 'dropped';
  count: number;
  /** Events waiting for the receiver now. */
  backlog: number;
}
