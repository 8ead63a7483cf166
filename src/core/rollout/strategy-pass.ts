// One strategy's rollout in one pass (plan-rollouts.ts has the steps): start or continue its record,
// move, gate, soak and pass steps until one has to wait, halt or roll back.
import type { Cluster } from '../model/cluster.js';
import type { Diagnostic } from '../model/diagnostic.js';
import { formatTime, parseTime } from '../model/rfc3339.js';
import type {
  RolloutClusterState,
  RolloutDecision,
  RolloutState,
  RolloutStep,
  RolloutStrategy,
} from '../model/rollout.js';
import { strategyLabel } from '../model/rollout.js';
import type { ObjectStatusRecord } from '../status/status-branch.js';
import { stepOfCluster } from './rollout-steps.js';
import { completedState, continuedState, startedState, type Scope } from './rollout-state.js';
import { gateOf, noteGates, setMessage, type Gate } from './rollout-gate.js';
import type { ClusterView, RolloutInput } from './rollout-input.js';
import { approveTrailer } from './rollout-trailers.js';
import {
  findStepApproval,
  unverifiedApprovals,
  waitingForApproval,
  type RefusedApproval,
  type StepApproval,
} from './judge-approval.js';

/** The clusters of a step with their gates. */
type Gated = ReadonlyArray<readonly [RolloutClusterState, Gate]>;

/** Plans one strategy's rollout for this pass; its decisions, diagnostics and wake times are read after `run`. */
export class StrategyPass {
  readonly decisions: RolloutDecision[] = [];
  readonly diagnostics: Diagnostic[] = [];
  readonly wakes: number[] = [];
  private readonly label: string;
  private readonly view: ReadonlyMap<string, ClusterView>;
  private readonly now: number;

  constructor(
    private readonly strategy: RolloutStrategy,
    private readonly input: RolloutInput,
    private readonly clusters: ReadonlyMap<string, Cluster>,
    private readonly objectsOf: (cluster: string) => ReadonlyMap<string, ObjectStatusRecord>,
  ) {
    this.label = strategyLabel(strategy);
    this.view = input.views.get(this.label) ?? new Map();
    this.now = input.now.getTime();
  }

  /** Returns the rollout after this pass, or undefined when there is none to record. */
  run(recorded: RolloutState | undefined): RolloutState | undefined {
    const digests = this.digests();
    const pending = [...this.view.values()].some((v) => v.pending);
    let state: RolloutState;
    if (!recorded) {
      if (!pending) return undefined;
      state = this.start(undefined, digests);
    } else if (recorded.source !== this.input.sourceCommit && changedContent(recorded.digests, digests)) {
      state = pending
        ? this.start(recorded, digests)
        : this.complete(recorded, digests, 'nothing left to move');
    } else {
      state = this.continueWith(recorded, digests);
    }
    if (state.phase === 'Progressing' || state.phase === 'WaitingApproval') this.advance(state);
    this.reportStopped(state);
    return { ...state, objects: this.objects() };
  }

  // What the rollout holds, for the record's readers (core/status/explain-template.ts).
  private objects(): string[] {
    const paths = new Set<string>();
    for (const view of this.view.values()) for (const path of view.paths) paths.add(path);
    return [...paths].sort();
  }

  private digests(): Record<string, string> {
    const digests: Record<string, string> = {};
    for (const name of [...this.view.keys()].sort()) digests[name] = this.view.get(name)!.digest;
    return digests;
  }

  private start(before: RolloutState | undefined, digests: Record<string, string>): RolloutState {
    const unfinished = before && before.phase !== 'Complete';
    const revision = this.input.sourceCommit;
    this.decide(
      unfinished ? 'Restarted' : 'Started',
      `${unfinished ? 'a new change restarts the rollout' : 'rollout started'} for ${revision}: step 1/${this.strategy.steps.length} first`,
    );
    return startedState(this.scope(), before, digests);
  }

  private complete(before: RolloutState, digests: Record<string, string>, why: string): RolloutState {
    if (before.phase !== 'Complete')
      this.decide('Complete', `complete for ${this.input.sourceCommit}: ${why}`);
    return completedState(this.scope(), before, digests);
  }

  private continueWith(recorded: RolloutState, digests: Record<string, string>): RolloutState {
    return continuedState(this.scope(), recorded, digests);
  }

  private scope(): Scope {
    return {
      strategy: this.strategy,
      label: this.label,
      clusters: [...this.view.keys()].sort(),
      stepOf: (name) => this.stepOf(name),
      input: this.input,
      now: this.now,
    };
  }

  /** Steps 2: moves, gates, soaks and passes steps until one has to wait (or fails). */
  private advance(state: RolloutState): void {
    while (this.advanceStep(state));
  }

  /** Takes the current step as far as it goes; true when it passed and the next step is up. */
  private advanceStep(state: RolloutState): boolean {
    const k = state.step;
    const step = this.strategy.steps[k - 1]!;
    if (state.phase === 'WaitingApproval' && !this.approved(state, k, step)) return false;
    const members = state.clusters.filter((c) => c.step === k);
    const gates = this.moveAndGate(state, members, step);
    if (!gates || !this.healthyAndSoaked(state, k, step, gates)) return false;
    this.decide('StepPassed', `step ${k}/${state.steps} passed: ${names(members)} Healthy`);
    delete state.healthySince;
    if (k >= state.steps) {
      state.phase = 'Complete';
      delete state.message;
      this.decide('Complete', `complete: every step runs ${state.revision}`);
      return false;
    }
    state.step = k + 1;
    state.stepStartedAt = formatTime(this.now);
    if (this.strategy.steps[k]!.approval === 'Manual') state.phase = 'WaitingApproval';
    return true;
  }

  /** A step waiting for approval goes on once approved (or no longer Manual); false while it waits. */
  private approved(state: RolloutState, k: number, step: RolloutStep): boolean {
    // The strategy as it is now decides: a step made Auto since no longer waits.
    const found = step.approval === 'Manual' ? this.approval(state, k) : undefined;
    if (found?.type === 'waiting') {
      this.waitForApproval(state, found.refused);
      return false;
    }
    state.phase = 'Progressing';
    state.stepStartedAt = formatTime(this.now);
    this.decide(
      'Approved',
      found
        ? `step ${k}/${state.steps} approved by ${found.by} (${approveTrailer}${found.verified ? '' : ', unverified: the strategy names no approvers'})`
        : `step ${k}/${state.steps} no longer asks for an approval`,
    );
    return true;
  }

  /** Moves the step's clusters and returns their gates; undefined once the step failed. */
  private moveAndGate(
    state: RolloutState,
    members: RolloutClusterState[],
    step: RolloutStep,
  ): Gated | undefined {
    // A step found broken moves no more of its clusters: the change reaches none after that.
    const before = members.map((c) => [c, this.gate(c)] as const);
    const broken = before.find(([, g]) => !g.ok && g.failed);
    if (broken) {
      noteGates(before);
      this.fail(state, broken[0], (broken[1] as { reason: string }).reason);
      return undefined;
    }
    this.moveClusters(state, members, step.maxUnavailable ?? Number.POSITIVE_INFINITY);
    const gates = members.map((c) => [c, this.gate(c)] as const);
    const failed = gates.find(([, g]) => !g.ok && g.failed);
    noteGates(gates);
    if (!failed) return gates;
    this.fail(state, failed[0], (failed[1] as { reason: string }).reason);
    return undefined;
  }

  /** True once every cluster of the step is through its gate and the soak is over; else says why. */
  private healthyAndSoaked(state: RolloutState, k: number, step: RolloutStep, gates: Gated): boolean {
    const waiting = gates.find(([c, g]) => !g.ok || c.state !== 'Moved');
    for (const c of state.clusters) if (c.step > k) setMessage(c, `waiting for step ${k}/${state.steps}`);
    const started = parseTime(state.stepStartedAt) ?? this.now;
    const deadline = started + this.strategy.progressDeadlineSeconds * 1000;
    if (waiting) {
      delete state.healthySince;
      const [c, g] = waiting;
      const why = g.ok ? 'waiting to move' : g.reason;
      if (this.now >= deadline) {
        const seconds = this.strategy.progressDeadlineSeconds;
        this.fail(
          state,
          c,
          `step ${k}/${state.steps} not Healthy within progressDeadlineSeconds ${seconds}: ${c.name}: ${why}`,
        );
        return false;
      }
      this.wakes.push(deadline);
      state.message = `step ${k}/${state.steps}: ${c.name}: ${why}`;
      return false;
    }
    const since = state.healthySince ? (parseTime(state.healthySince) ?? this.now) : this.now;
    state.healthySince = formatTime(since);
    const soakEnd = since + step.soakSeconds * 1000;
    if (this.now >= soakEnd) return true;
    this.wakes.push(soakEnd);
    state.message = `step ${k}/${state.steps}: Healthy since ${state.healthySince}, soaking ${step.soakSeconds}s`;
    return false;
  }

  /** Moves held clusters of the step, in name order, while fewer than maxUnavailable are not yet through their gate. */
  private moveClusters(state: RolloutState, members: RolloutClusterState[], maxUnavailable: number): void {
    let unavailable = members.filter((c) => c.state === 'Moved' && !this.gate(c).ok).length;
    for (const c of members) {
      if (c.state !== 'Held') continue;
      if (unavailable >= maxUnavailable) break;
      // What it runs now is its last good commit, unless a failed rollout left it an older one.
      const head = this.input.clusterHeads.get(c.name);
      if (!c.lastGood) {
        if (head) c.lastGood = head;
        if (head && c.commit) c.lastGoodCommit = c.commit;
      }
      c.state = 'Moved';
      c.commit = state.revision;
      this.decide('Moved', `step ${state.step}/${state.steps}: ${c.name} moves to ${state.revision}`);
      if (!this.gate(c).ok) unavailable++;
    }
  }

  private gate(c: RolloutClusterState): Gate {
    return gateOf(c, {
      view: this.view.get(c.name),
      report: this.input.reports.get(c.name),
      head: this.input.clusterHeads.get(c.name),
      objects: () => this.objectsOf(c.name),
    });
  }

  private fail(state: RolloutState, cluster: RolloutClusterState, reason: string): void {
    const k = state.step;
    const why = reason.startsWith(`step ${k}/`)
      ? reason
      : `step ${k}/${state.steps} failed on ${cluster.name}: ${reason}`;
    delete state.healthySince;
    setMessage(cluster, reason);
    if (this.strategy.onFailure === 'Rollback') {
      state.phase = 'RolledBack';
      state.message = `${why}; rolled back`;
      for (const c of state.clusters) {
        if (c.state !== 'Moved') continue;
        if (c.lastGood) {
          c.state = 'RolledBack';
          if (c.lastGoodCommit) c.commit = c.lastGoodCommit;
          else delete c.commit;
        } else setMessage(c, 'moved with no earlier commit of its branch: nothing to roll back to');
      }
      this.decide('RolledBack', state.message);
    } else {
      state.phase = 'Halted';
      state.message = `${why}; halted`;
      this.decide('Halted', state.message);
    }
  }

  /** Halted, rolled back or waiting for a person: the pass says so in an error or warning. */
  private reportStopped(state: RolloutState): void {
    const subject = `${this.strategy.kind}/${this.label}`;
    if (state.phase === 'Halted' || state.phase === 'RolledBack') {
      // The cluster whose gate failed: its message is the reason the rollout's message gives.
      const failed = state.clusters.find(
        (c) => c.step === state.step && c.message && state.message?.includes(c.message),
      );
      this.diagnostics.push({
        severity: 'error',
        code: 'RolloutHalted',
        subject,
        ...(failed ? { cluster: failed.name } : {}),
        message: `${state.message ?? 'halted'}: the later steps keep what they run; push a fix or a revert to start again`,
      });
    } else if (state.phase === 'WaitingApproval') {
      this.diagnostics.push({
        severity: 'warning',
        code: 'RolloutWaitingApproval',
        subject,
        message: state.message ?? 'waiting for approval',
      });
    }
  }

  private waitForApproval(state: RolloutState, refused: readonly RefusedApproval[]): void {
    const k = state.step;
    const waiting = waitingForApproval({
      strategy: this.strategy,
      label: this.label,
      step: k,
      steps: state.steps,
      refused,
    });
    if (state.message !== waiting.message) this.decide('WaitingApproval', waiting.message);
    state.message = waiting.message;
    for (const c of state.clusters)
      if (c.step >= k && c.state === 'Held') setMessage(c, `waiting for approval of step ${k}`);
    this.diagnostics.push(...waiting.diagnostics);
  }

  /** Whether a source commit from the revision on (first parents) approves the step with an approval that counts. */
  private approval(state: RolloutState, step: number): StepApproval {
    if (!this.strategy.approvers && !this.diagnostics.some((d) => d.code === 'RolloutApprovalsUnverified'))
      this.diagnostics.push(unverifiedApprovals(this.strategy, this.label));
    return findStepApproval({
      approvals: this.input.approvals,
      label: this.label,
      step,
      revision: state.revision,
      approvers: this.strategy.approvers,
      change: this.input.changes?.get(state.revision),
    });
  }

  private stepOf(name: string): number {
    const cluster = this.clusters.get(name);
    return cluster ? stepOfCluster(this.strategy, cluster) : this.strategy.steps.length;
  }

  private decide(type: RolloutDecision['type'], message: string): void {
    this.decisions.push({ strategy: this.label, type, message });
  }
}

/** Whether the content of a cluster the record knows changed (a cluster new to either side is a placement, not a change). */
function changedContent(
  before: Readonly<Record<string, string>>,
  after: Readonly<Record<string, string>>,
): boolean {
  for (const [name, digest] of Object.entries(after)) {
    const was = before[name];
    if (was !== undefined && was !== digest) return true;
  }
  return false;
}

function names(clusters: readonly RolloutClusterState[]): string {
  return clusters.length === 0 ? 'no cluster' : clusters.map((c) => c.name).join(', ');
}
