// The rollout stage of a hub pass (docs/rollout.md), after the render and the failover stage:
// for every strategy, where its rollout stands and what each cluster gets of the objects it
// selects this pass (move to the render, hold what it runs, or roll back to its last good
// objects). Pure: the hub's clock, the agents' reports, the cluster heads, the approvals found
// on the source branch and the records of the bindings branch come in as data; the records to
// keep, the decisions (Gitfleet-Rollout trailers) and the next time a soak or deadline falls due
// (Gitfleet-Wake-At) go out.
//
// One strategy, one pass:
//   1. read its record; a source commit new to it whose render changes the selected objects'
//      content (contentDigest) on a cluster the record knows starts the rollout over at step 1,
//      with that commit as its revision (no record and a pending change: it starts);
//   2. then, step by step: move the step's clusters (maxUnavailable at a time), gate them
//      (every one applied its branch's head and reports every selected object Healthy), soak,
//      pass to the next step (a Manual one waits for `Gitfleet-Approve: <strategy> step <n>`);
//      an object Degraded or the step past its progress deadline halts it (or rolls back);
//   3. write the record back and say what each cluster gets.
import type { Cluster } from '../model/cluster.js';
import type { Diagnostic } from '../model/diagnostic.js';
import { dateOf, formatTime, parseTime } from '../model/rfc3339.js';
import type {
  RolloutClusterState,
  RolloutDecision,
  RolloutState,
  RolloutStrategy,
} from '../model/rollout.js';
import { strategyLabel } from '../model/rollout.js';
import type { ObjectStatusRecord } from '../status/status-branch.js';
import { parseRolloutRecord, rolloutDir, rolloutRecordPath, rolloutRecordText } from './rollout-record.js';
import { stepOfCluster } from './rollout-steps.js';
import { completedState, continuedState, startedState, type Scope } from './rollout-state.js';
import { gateOf, noteGates, reportObjectsCache, setMessage, type Gate } from './rollout-gate.js';
import type { ClusterAction, ClusterView, RolloutInput, RolloutOutput } from './rollout-input.js';
import { approveTrailer } from './rollout-trailers.js';
import {
  findStepApproval,
  unverifiedApprovals,
  waitingForApproval,
  type RefusedApproval,
  type StepApproval,
} from './judge-approval.js';

export type { ClusterAction, ClusterView, RolloutInput, RolloutOutput };
export { rolloutDir };

/** Returns every strategy's rollout after this pass and what each cluster gets. */
export function planRollouts(input: RolloutInput): RolloutOutput {
  const out: RolloutOutput = {
    actions: new Map(),
    states: new Map(),
    files: new Map(),
    decisions: [],
    diagnostics: [],
  };
  const clusters = new Map(input.clusters.map((c) => [c.name, c]));
  const objectsOf = reportObjectsCache(input.reports);
  const wakes: number[] = [];
  const kept = new Set<string>();
  for (const strategy of [...input.strategies].sort(byLabel)) {
    const path = rolloutRecordPath(strategy);
    kept.add(path);
    const text = input.recorded.get(path);
    const parsed = text === undefined ? undefined : parseRolloutRecord(text);
    const recorded = parsed && parsed.strategy.kind === strategy.kind ? parsed : undefined;
    const planner = new StrategyPass(strategy, input, clusters, objectsOf);
    const state = planner.run(recorded);
    out.decisions.push(...planner.decisions);
    out.diagnostics.push(...planner.diagnostics);
    wakes.push(...planner.wakes);
    if (!state) continue;
    out.states.set(strategyLabel(strategy), state);
    out.files.set(path, rolloutRecordText(state));
    out.actions.set(strategyLabel(strategy), actionsOf(state));
  }
  // A record whose strategy is gone from the fleet is removed: nothing is held any more.
  for (const path of input.recorded.keys()) {
    if (!path.startsWith(rolloutDir) || kept.has(path)) continue;
    const gone = parseRolloutRecord(input.recorded.get(path)!);
    const label = gone ? strategyLabel(gone.strategy) : path.slice(rolloutDir.length).replace(/\.yaml$/, '');
    out.decisions.push({
      strategy: label,
      type: 'Removed',
      message: 'the strategy is gone: nothing is held',
    });
  }
  const now = input.now.getTime();
  const next = wakes.filter((t) => t > now).sort((a, b) => a - b)[0];
  if (next !== undefined) out.wakeAt = dateOf(next);
  return out;
}

/** What the clusters of a rollout get this pass: nothing is held once it is complete. */
function actionsOf(state: RolloutState): Map<string, ClusterAction> {
  const actions = new Map<string, ClusterAction>();
  if (state.phase === 'Complete') return actions;
  for (const c of state.clusters) {
    if (c.state === 'Held') actions.set(c.name, { type: 'hold' });
    else if (c.state === 'RolledBack' && c.lastGood)
      actions.set(c.name, { type: 'rollback', lastGood: c.lastGood });
    else actions.set(c.name, { type: 'move' });
  }
  return actions;
}

class StrategyPass {
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
    for (;;) {
      const k = state.step;
      const step = this.strategy.steps[k - 1]!;
      if (state.phase === 'WaitingApproval') {
        // The strategy as it is now decides: a step made Auto since no longer waits.
        const found = step.approval === 'Manual' ? this.approval(state, k) : undefined;
        if (found?.type === 'waiting') return this.waitForApproval(state, found.refused);
        state.phase = 'Progressing';
        state.stepStartedAt = formatTime(this.now);
        this.decide(
          'Approved',
          found
            ? `step ${k}/${state.steps} approved by ${found.by} (${approveTrailer}${found.verified ? '' : ', unverified: the strategy names no approvers'})`
            : `step ${k}/${state.steps} no longer asks for an approval`,
        );
      }
      const members = state.clusters.filter((c) => c.step === k);
      // A step found broken moves no more of its clusters: the change reaches none after that.
      const before = members.map((c) => [c, this.gate(c)] as const);
      const broken = before.find(([, g]) => !g.ok && g.failed);
      if (broken) {
        noteGates(before);
        return this.fail(state, broken[0], (broken[1] as { reason: string }).reason);
      }
      this.moveClusters(state, members, step.maxUnavailable ?? Number.POSITIVE_INFINITY);
      const gates = members.map((c) => [c, this.gate(c)] as const);
      const failed = gates.find(([, g]) => !g.ok && g.failed);
      noteGates(gates);
      if (failed) return this.fail(state, failed[0], (failed[1] as { reason: string }).reason);
      const waiting = gates.find(([c, g]) => !g.ok || c.state !== 'Moved');
      for (const c of state.clusters) if (c.step > k) setMessage(c, `waiting for step ${k}/${state.steps}`);
      const started = parseTime(state.stepStartedAt) ?? this.now;
      const deadline = started + this.strategy.progressDeadlineSeconds * 1000;
      if (waiting) {
        delete state.healthySince;
        const [c, g] = waiting;
        const why = g.ok ? 'waiting to move' : g.reason;
        if (this.now >= deadline) {
          return this.fail(
            state,
            c,
            `step ${k}/${state.steps} not Healthy within progressDeadlineSeconds ${this.strategy.progressDeadlineSeconds}: ${c.name}: ${why}`,
          );
        }
        this.wakes.push(deadline);
        state.message = `step ${k}/${state.steps}: ${c.name}: ${why}`;
        return;
      }
      const since = state.healthySince ? (parseTime(state.healthySince) ?? this.now) : this.now;
      state.healthySince = formatTime(since);
      const soakEnd = since + step.soakSeconds * 1000;
      if (this.now < soakEnd) {
        this.wakes.push(soakEnd);
        state.message = `step ${k}/${state.steps}: Healthy since ${state.healthySince}, soaking ${step.soakSeconds}s`;
        return;
      }
      this.decide('StepPassed', `step ${k}/${state.steps} passed: ${names(members)} Healthy`);
      delete state.healthySince;
      if (k >= state.steps) {
        state.phase = 'Complete';
        delete state.message;
        this.decide('Complete', `complete: every step runs ${state.revision}`);
        return;
      }
      state.step = k + 1;
      state.stepStartedAt = formatTime(this.now);
      if (this.strategy.steps[k]!.approval === 'Manual') state.phase = 'WaitingApproval';
    }
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

function byLabel(a: RolloutStrategy, b: RolloutStrategy): number {
  const x = strategyLabel(a);
  const y = strategyLabel(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
