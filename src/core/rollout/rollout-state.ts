// The record of a strategy's rollout as a pass finds it (plan-rollouts.ts): a new rollout of a
// change, a rollout complete, or the recorded one carried on with the clusters now in scope.
import { formatTime } from '../model/rfc3339.js';
import type { RolloutClusterState, RolloutState, RolloutStrategy } from '../model/rollout.js';
import type { RolloutInput } from './rollout-input.js';

/** What the record is built from: the strategy, the clusters in scope and this pass's input. */
export interface Scope {
  strategy: RolloutStrategy;
  label: string;
  /** The clusters the render places selected objects on, sorted. */
  clusters: readonly string[];
  stepOf: (cluster: string) => number;
  input: Pick<RolloutInput, 'sourceCommit' | 'lastSource' | 'newObjects' | 'clusterHeads'>;
  now: number;
}

/**
 * A new rollout of this pass's source commit, at step 1; every cluster holds what it runs. A
 * cluster the last rollout moved and never proved good (it halted first) keeps that
 * rollout's last good commit, so a rollback never restores a change that failed.
 */
export function startedState(
  scope: Scope,
  before: RolloutState | undefined,
  digests: Record<string, string>,
): RolloutState {
  const revision = scope.input.sourceCommit;
  const unfinished = before && before.phase !== 'Complete' ? before : undefined;
  const clusters = scope.clusters.map((name): RolloutClusterState => {
    const was = before?.clusters.find((c) => c.name === name);
    // A cluster the record knows runs what it says (a rolled back one with no known source commit: none).
    const commit = was ? was.commit : scope.input.lastSource;
    const unproven = unfinished && was && was.state !== 'Held' && was.step >= unfinished.step;
    return {
      name,
      step: scope.stepOf(name),
      state: 'Held',
      ...(commit ? { commit } : {}),
      ...(unproven && was.lastGood ? { lastGood: was.lastGood } : {}),
      ...(unproven && was.lastGoodCommit ? { lastGoodCommit: was.lastGoodCommit } : {}),
    };
  });
  const newObjects = [
    ...new Set([...(unfinished?.newObjects ?? []), ...(scope.input.newObjects.get(scope.label) ?? [])]),
  ].sort();
  return {
    strategy: { kind: scope.strategy.kind, namespace: scope.strategy.namespace, name: scope.strategy.name },
    revision,
    source: revision,
    // A Manual first step waits for its approval too, before anything moves.
    phase: scope.strategy.steps[0]!.approval === 'Manual' ? 'WaitingApproval' : 'Progressing',
    step: 1,
    steps: scope.strategy.steps.length,
    stepStartedAt: formatTime(scope.now),
    digests,
    ...(newObjects.length > 0 ? { newObjects } : {}),
    clusters,
  };
}

/** The rollout of this pass's source commit, complete: nothing is held. */
export function completedState(
  scope: Scope,
  before: RolloutState,
  digests: Record<string, string>,
): RolloutState {
  const revision = scope.input.sourceCommit;
  const { healthySince: _h, message: _m, newObjects: _n, ...rest } = before;
  return {
    ...rest,
    revision,
    source: revision,
    phase: 'Complete',
    step: scope.strategy.steps.length,
    steps: scope.strategy.steps.length,
    digests,
    clusters: scope.clusters.map((name) => ({
      name,
      step: scope.stepOf(name),
      state: 'Moved',
      commit: revision,
    })),
  };
}

/**
 * The recorded rollout, seen by this pass: the source it has seen, the clusters now in scope
 * (a cluster new to it joins held, or moved when its step has passed), steps renumbered by the
 * strategy as it is now.
 */
export function continuedState(
  scope: Scope,
  recorded: RolloutState,
  digests: Record<string, string>,
): RolloutState {
  const steps = scope.strategy.steps.length;
  const byName = new Map(recorded.clusters.map((c) => [c.name, c]));
  const step = Math.min(recorded.step, steps);
  const moving = recorded.phase === 'Progressing' || recorded.phase === 'WaitingApproval';
  const clusters = scope.clusters.map((name): RolloutClusterState => {
    const was = byName.get(name);
    const at = scope.stepOf(name);
    // A held cluster now in a step that has passed (its labels changed) moves as a new one would.
    const passed = was?.state === 'Held' && (recorded.phase === 'Complete' || (moving && at < step));
    if (was && !passed) return { ...was, step: at };
    if (recorded.phase === 'Complete' || at < step) {
      const lastGood = scope.input.clusterHeads.get(name);
      return {
        name,
        step: at,
        state: 'Moved',
        commit: recorded.revision,
        ...(lastGood ? { lastGood } : {}),
      };
    }
    return {
      name,
      step: at,
      state: 'Held',
      ...(scope.input.lastSource ? { commit: scope.input.lastSource } : {}),
    };
  });
  return { ...recorded, source: scope.input.sourceCommit, step, steps, digests, clusters };
}
