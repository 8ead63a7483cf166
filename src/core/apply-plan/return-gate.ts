// The return handshake (docs/failover.md#a-returning-cluster): an agent whose cluster the hub may
// have judged NotReady or Unknown must not prune what left its branch until the hub has rendered
// for its return. While the cluster was judged down, the hub evicted objects from its branch;
// pruning them the moment the agent is back deletes what the hub puts back seconds later (new
// ClusterIPs for Services, and for a CRD every custom resource of its kind). So, once returning,
// the agent applies (creates and updates) as always but holds every deletion, reports Ready with
// "pruning waits for the hub" (a status commit: the return report), and prunes once the hub's
// bindings head names that status commit or a later one (Gitfleet-Status-Commit, which every
// bindings commit carries for every cluster, so the hub needs no extra commit), no longer judges
// the cluster, and the branch the agent applies is the one that pass rendered or a later one.
// A timeout bounds the wait: then it prunes as before and says so.
//
// | signal (nextReturnState)                                    | returning because                 |
// |-------------------------------------------------------------|-----------------------------------|
// | the process's first pass (the loop; not `agent --once`)     | the agent (re)started             |
// | the first pass finds its last report NotReady, or waiting   | its last report said so           |
// | the cluster did not answer (the agent reported it NotReady) | its cluster did not answer        |
// | Git unreachable for longer than the lease duration          | its heartbeat could not be pushed |
// | the bindings head judges the cluster (Gitfleet-Cluster-Judged) | the hub judges it <status>     |
//
// | state (judgeReturnGate)                                     | gate                              |
// |-------------------------------------------------------------|-----------------------------------|
// | not returning                                               | open                              |
// | the hub's head names the return report or a later status, judges the cluster no more, and rendered the branch applied or an earlier one | open: state ends |
// | waited the timeout                                          | open, said: state ends            |
// | otherwise                                                   | wait: deletions held              |
//
// Memory only: a restart (kill -9 at any point) is a new return, and a return that has nothing
// to delete ends at once (the run-agent-pass shell drops the state), so a restart costs no wait.
import { formatTime } from '../model/rfc3339.js';

/** Why and since when the agent holds its deletions for the hub; `report`: the status commit that said so. */
export interface ReturnState {
  sinceMs: number;
  reason: string;
  report?: string;
}

export interface ReturnSignals {
  nowMs: number;
  /** No pass of this process ran before, and a start counts as a return (the loop). */
  firstPass: boolean;
  /** On the first pass: what the agent's last report on its status branch said, when it matters. */
  lastReport?: 'NotReady' | 'WaitingForHub';
  /**
   * With lastReport WaitingForHub: since when that report says deletions wait, and its commit.
   * The restart goes on with that return (its start, so the timeout holds across `--once` runs;
   * its reason, so the report reads the same and is not written again; and its report, which
   * the hub may have read already).
   */
  lastWait?: { sinceMs: number; reason: string; report: string };
  /** The cluster did not answer this pass. */
  clusterUnreachable: boolean;
  /** How long Git was unreachable before this pass reached it again (undefined: it was not). */
  gitDownMs?: number;
  leaseDurationMs: number;
  /** How the hub's bindings head judges this cluster (Gitfleet-Cluster-Judged), if it does. */
  hubJudged?: string;
}

/** Returns the return state after this pass's signals (see the first table); an ongoing return keeps its start. */
export function nextReturnState(
  previous: ReturnState | undefined,
  s: ReturnSignals,
): ReturnState | undefined {
  if (previous !== undefined && !s.clusterUnreachable) return previous;
  const reason = s.clusterUnreachable
    ? 'its cluster did not answer (reported NotReady)'
    : s.lastReport === 'NotReady'
      ? 'its last report said the cluster was NotReady'
      : s.lastReport === 'WaitingForHub'
        ? 'its last report said pruning waits for the hub'
        : s.firstPass
          ? 'the agent (re)started'
          : s.gitDownMs !== undefined && s.gitDownMs > s.leaseDurationMs
            ? `its heartbeat could not be pushed for ${seconds(s.gitDownMs)} (longer than the ${seconds(s.leaseDurationMs)} lease)`
            : s.hubJudged !== undefined
              ? `the hub judges it ${s.hubJudged}`
              : undefined;
  if (reason === undefined) return previous;
  if (s.lastReport === 'WaitingForHub' && s.lastWait !== undefined && !s.clusterUnreachable)
    return { ...s.lastWait };
  return { sinceMs: s.nowMs, reason };
}

/** What the hub's bindings head says of this cluster. */
export interface HubRecord {
  /** It names the return report or a later status commit of this cluster. */
  readsReport: boolean;
  /** How it judges the cluster, if it does. */
  judged?: string;
  /** The cluster-branch commit it records is the one the agent applies, or an earlier one (or it records none). */
  renderedApplied: boolean;
}

export type ReturnGate =
  /** `note`: how the wait ended, when it did in this pass. */
  { type: 'open'; note?: string } | { type: 'wait'; message: string };

/** Returns whether the pass may prune (see the second table). */
export function judgeReturnGate(input: {
  cluster: string;
  state: ReturnState | undefined;
  record: HubRecord;
  nowMs: number;
  timeoutMs: number;
}): ReturnGate {
  const { state, record, cluster } = input;
  if (state === undefined) return { type: 'open' };
  const waited = input.nowMs - state.sinceMs;
  if (
    state.report !== undefined &&
    record.readsReport &&
    record.judged === undefined &&
    record.renderedApplied
  ) {
    return {
      type: 'open',
      note: `${cluster}: the hub rendered from status commit ${state.report.slice(0, 12)} or a later one; pruning resumes (it waited ${seconds(waited)}: ${state.reason})`,
    };
  }
  if (waited >= input.timeoutMs) {
    return {
      type: 'open',
      note: `${cluster}: pruning waited ${seconds(waited)} for the hub to render for the cluster's return (${state.reason}) and no longer waits (the ${seconds(input.timeoutMs)} timeout); pruning as before`,
    };
  }
  return {
    type: 'wait',
    message: `${cluster}: pruning waits for the hub since ${formatTime(state.sinceMs)}: ${state.reason}; deletions are held until the hub renders from this report or a later one (at most ${seconds(input.timeoutMs)})`,
  };
}

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)}s`;
}
