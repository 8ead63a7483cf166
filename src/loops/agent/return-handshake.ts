// The shell of the return handshake (core/apply-plan/return-gate.ts): before a pass prunes, it
// updates what the agent remembers of its return from the pass's signals and the hub's bindings
// head, and asks the gate whether deletions may go; after the pass reported, it remembers the
// status commit that said they wait (the return report the hub must read).
import {
  judgeReturnGate,
  nextReturnState,
  type ReturnGate,
  type ReturnState,
} from '../../core/apply-plan/return-gate.js';
import type { AgentMemory } from './agent-memory.js';
import type { PruneOutcome } from './prune-objects.js';
import { readHubRecord } from './read-hub-record.js';
import { parseStatusBranch } from '../../core/status/status-branch.js';
import { readStatusFiles } from './write-status-branch.js';
import { readRef } from '../../adapters/git/read-ref.js';
import { parseTime } from '../../core/model/rfc3339.js';
import type { StatusOutcome } from './report-pass.js';

/** How long deletions wait for the hub after a return, by default (`agent --return-prune-timeout`). */
export const defaultReturnPruneTimeoutMs = 5 * 60_000;
/** Karmada's cluster lease duration, the default of `agent --cluster-lease-duration`. */
export const defaultLeaseDurationMs = 40_000;

export interface ReturnGateInput {
  gitdir: string;
  /** Where the cluster branch's commits are, when not in `gitdir` (a render repository). */
  branchGitdir?: string;
  /** Where the status branch lives, when not in `gitdir` (a status repository's mirror). */
  statusGitdir?: string;
  branchPrefix: string;
  cluster: string;
  memory: AgentMemory;
  nowMs: number;
  /** The cluster-branch commit the pass applies. */
  applied: string;
  /** How long Git was unreachable before this pass reached it again. */
  gitDownMs?: number;
  timeoutMs?: number;
  leaseDurationMs?: number;
  /** Whether the process's first pass starts a return (the loop: yes; `agent --once`: no). */
  returnOnStart?: boolean;
  /** The status branch, read on the first pass for what the last report said. */
  statusRef: string;
}

/** Returns whether this pass may prune, having brought the remembered return up to date. */
export async function gateReturn(input: ReturnGateInput): Promise<ReturnGate> {
  const memory = input.memory;
  const quick = await readHubRecord({
    gitdir: input.gitdir,
    branchPrefix: input.branchPrefix,
    cluster: input.cluster,
  });
  const first = memory.returnChecked !== true;
  const last = first ? await lastReportSaid(input.statusGitdir ?? input.gitdir, input.statusRef) : undefined;
  const state = nextReturnState(memory.returning, {
    nowMs: input.nowMs,
    firstPass: first && input.returnOnStart === true,
    ...(last !== undefined ? { lastReport: last.said } : {}),
    ...(last?.wait !== undefined ? { lastWait: last.wait } : {}),
    clusterUnreachable: false,
    ...(input.gitDownMs !== undefined ? { gitDownMs: input.gitDownMs } : {}),
    leaseDurationMs: input.leaseDurationMs ?? defaultLeaseDurationMs,
    ...(quick.judged !== undefined ? { hubJudged: quick.judged } : {}),
  });
  memory.returnChecked = true;
  setReturning(memory, state);
  if (state === undefined) return { type: 'open' };
  const record = await readHubRecord({
    gitdir: input.gitdir,
    ...(input.branchGitdir ? { branchGitdir: input.branchGitdir } : {}),
    branchPrefix: input.branchPrefix,
    cluster: input.cluster,
    applied: input.applied,
    ...(state.report !== undefined ? { report: state.report } : {}),
  });
  return judgeReturnGate({
    cluster: input.cluster,
    state,
    record,
    nowMs: input.nowMs,
    timeoutMs: input.timeoutMs ?? defaultReturnPruneTimeoutMs,
  });
}

/** Remembers a pass whose cluster did not answer: the agent reported it NotReady, so the hub may judge it down. */
export function noteClusterUnreachable(memory: AgentMemory, nowMs: number): void {
  memory.returnChecked = true;
  setReturning(
    memory,
    nextReturnState(memory.returning, {
      nowMs,
      firstPass: false,
      clusterUnreachable: true,
      leaseDurationMs: defaultLeaseDurationMs,
    }),
  );
}

/**
 * After the pass: a gate that opened ends the return; so does a return with nothing to delete
 * (nothing the hub could put back); a pass that held deletions remembers its status commit as
 * the return report, once.
 */
export function settleReturn(
  memory: AgentMemory,
  gate: ReturnGate | undefined,
  prune: PruneOutcome | undefined,
  status: StatusOutcome,
): void {
  if (gate === undefined || memory.returning === undefined) return;
  const held = prune?.plan.held.some((h) => h.reason === 'WaitingForHub') ?? false;
  if (gate.type === 'open' || (prune !== undefined && !held)) {
    delete memory.returning;
    return;
  }
  if (held && (status.type === 'written' || status.type === 'unchanged') && status.commit !== undefined)
    memory.returning.report ??= status.commit;
}

/**
 * Returns what the last report on the status branch said that starts a return, if anything;
 * for a report that said deletions wait, since when (its message says) and its commit.
 */
async function lastReportSaid(
  gitdir: string,
  statusRef: string,
): Promise<{ said: 'NotReady' | 'WaitingForHub'; wait?: ReturnState & { report: string } } | undefined> {
  const last = parseStatusBranch(await readStatusFiles(gitdir, statusRef));
  if (last === undefined) return undefined;
  const ready = last.clusterStatus?.conditions?.find((c) => c.type === 'Ready');
  if (ready !== undefined && ready.status !== 'True') return { said: 'NotReady' };
  const pruned = last.conditions?.find((c) => c.type === 'Pruned');
  if (pruned?.reason !== 'WaitingForHub') return undefined;
  // The message judgeReturnGate wrote: "... since <time>: <reason>; deletions are held until ...".
  const said = /waits for the hub since (\S+): (.+); deletions are held until/.exec(pruned.message ?? '');
  const sinceMs = said?.[1] === undefined ? undefined : parseTime(said[1]);
  const report = await readRef(gitdir, statusRef);
  if (sinceMs === undefined || report === null) return { said: 'WaitingForHub' };
  return { said: 'WaitingForHub', wait: { sinceMs, reason: said![2]!, report } };
}

function setReturning(memory: AgentMemory, state: ReturnState | undefined): void {
  if (state === undefined) delete memory.returning;
  else memory.returning = state;
}
