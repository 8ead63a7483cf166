// Rollout events, read from the rollout records of two consecutive bindings commits
// (docs/rollout.md#the-record): what changed between the record before and the record after is
// what the hub decided in that pass. Reading the records rather than the trailers' words keeps
// the events true when the wording of a decision changes.
//
// | before → after                                       | event                    |
// |------------------------------------------------------|--------------------------|
// | no record, or another revision → Progressing         | RolloutStarted           |
// | same revision, a lower step → a higher step           | RolloutStepPassed (per step passed) |
// | not WaitingApproval → WaitingApproval                 | RolloutWaitingApproval   |
// | not Halted → Halted                                   | RolloutHalted            |
// | not RolledBack → RolledBack                           | RolloutRolledBack        |
// | not Complete → Complete                               | RolloutComplete          |
import { strategyLabel, type RolloutState } from '../model/rollout.js';
import type { FleetEventType } from './fleet-event.js';

/** One rollout event before it gets its commit's id and time. */
export interface RolloutEventDraft {
  type: FleetEventType;
  /** The strategy's label (`shop/web`, or `web` for a ClusterRolloutStrategy). */
  strategy: string;
  namespace?: string;
  cluster?: string;
  message: string;
}

/** Returns the events of the records' change, by strategy label, in label order. */
export function rolloutRecordEvents(
  before: ReadonlyMap<string, RolloutState>,
  after: ReadonlyMap<string, RolloutState>,
): RolloutEventDraft[] {
  const drafts: RolloutEventDraft[] = [];
  for (const label of [...after.keys()].sort())
    drafts.push(...eventsOf(before.get(label), after.get(label)!));
  return drafts;
}

function eventsOf(was: RolloutState | undefined, now: RolloutState): RolloutEventDraft[] {
  const label = strategyLabel(now.strategy);
  const base = {
    strategy: label,
    ...(now.strategy.namespace ? { namespace: now.strategy.namespace } : {}),
  };
  const out: RolloutEventDraft[] = [];
  const short = now.revision.slice(0, 12);
  const fresh = was === undefined || was.revision !== now.revision;
  if (fresh)
    out.push({
      ...base,
      type: 'RolloutStarted',
      message: `${label}: rollout of ${short} started (${now.steps} steps)`,
    });
  const from = fresh ? 1 : was.step;
  const passedTo = now.phase === 'Complete' ? now.steps + 1 : now.step;
  for (let step = from; step < passedTo; step++)
    if (fresh || was.phase !== 'Complete')
      out.push({
        ...base,
        type: 'RolloutStepPassed',
        message: `${label}: step ${step}/${now.steps} of ${short} passed`,
      });
  if (now.phase !== 'Progressing' && (fresh || was.phase !== now.phase)) {
    const failed = now.clusters.find(
      (c) => c.step === now.step && c.message && now.message?.includes(c.message),
    );
    out.push({
      ...base,
      type: phaseEvent[now.phase],
      ...(failed && now.phase !== 'Complete' ? { cluster: failed.name } : {}),
      message: `${label}: ${now.message ?? phaseWords[now.phase]}`,
    });
  }
  return out;
}

const phaseEvent = {
  WaitingApproval: 'RolloutWaitingApproval',
  Halted: 'RolloutHalted',
  RolledBack: 'RolloutRolledBack',
  Complete: 'RolloutComplete',
} as const satisfies Record<Exclude<RolloutState['phase'], 'Progressing'>, FleetEventType>;

const phaseWords: Record<Exclude<RolloutState['phase'], 'Progressing'>, string> = {
  WaitingApproval: 'waiting for approval',
  Halted: 'halted',
  RolledBack: 'rolled back',
  Complete: 'complete',
};
