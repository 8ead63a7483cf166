// A template on a cluster it is placed on, explained: is the cluster there to apply it, did its
// agent apply the branch's head, did the apply work and is the object healthy, and does a
// rollout keep an older version there. The first of these that is not fine is the reason:
//
// | the facts (first that holds)                                       | reason            |
// |--------------------------------------------------------------------|-------------------|
// | kept for the check only: no agent applies it (item.checkedAtRender) | CheckedAtRender   |
// | the cluster is not Ready (unreadable status, the monitor, the agent) | ClusterNotReady  |
// | no report from its agent                                           | NotReported       |
// | the agent applied an older commit than the branch's head           | NotYetApplied     |
// | the agent's apply of the object failed                             | ApplyFailed       |
// | the agent does not report the object                               | NotReported       |
// | applied and Degraded                                               | Degraded          |
// | a rollout rolled the cluster back, halted, or holds it             | RolledBack, RolloutHalted, HeldByRollout |
// | applied: its health                                                | Healthy, Progressing, HealthUnknown |
//
// A failed apply or a Degraded object comes before a rollout's hold: it needs a person sooner.
import type { HealthStatus } from '../health/health.js';
import type { RolloutState } from '../model/rollout.js';
import { strategyLabel } from '../model/rollout.js';
import type { AggregatedStatusItem } from '../publish/binding-status.js';
import type { ClusterExplanation, RolloutHold } from './explanation.js';
import type { ClusterReadiness } from './fleet-summary.js';
import type { ObjectStatusRecord } from './status-branch.js';

/** What is known of one placed template on one cluster. */
export interface PlacedFacts {
  cluster: string;
  /** `Kind/namespace/name`. */
  template: string;
  /** The status the views show for it there (templateStatusItems). */
  item: AggregatedStatusItem;
  /** The agent's own record of the object, when its report holds it. */
  record?: ObjectStatusRecord;
  /** Whether the item is the hub's aggregation (the report then lacks the record). */
  aggregatedByHub: boolean;
  readiness: { ready: ClusterReadiness; readyMessage?: string };
  /** The agent's applied commit and the branch's head, when known. */
  appliedCommit?: string | null;
  renderedHead?: string;
  /** The unfinished rollout that selects the object, with the cluster's place in it. */
  rollout?: RolloutState;
}

/** Returns the explanation of a template on a cluster it is placed on. */
export function explainPlacedCluster(facts: PlacedFacts): ClusterExplanation {
  const { cluster, item } = facts;
  if (item.checkedAtRender)
    return {
      cluster,
      placed: true,
      reason: 'CheckedAtRender',
      message: `${cluster}: checked against its render only, never applied there (gitfleet.io/admission: check-only)`,
    };
  const base = {
    cluster,
    placed: true,
    ...(facts.readiness.ready === 'NotReported' ? {} : { applied: item.applied, health: item.health }),
  };
  const blocked = blockedReason(facts);
  if (blocked) return { ...base, ...blocked };
  const hold = facts.rollout ? rolloutOf(facts.rollout, cluster) : undefined;
  if (item.applied && item.health === 'Degraded') return { ...base, ...healthWords(facts, 'Degraded') };
  if (hold) return { ...base, ...hold };
  if (!item.applied)
    return { ...base, reason: 'NotReported', message: `${cluster}: ${item.appliedMessage ?? 'not applied'}` };
  return { ...base, ...healthWords(facts, item.health) };
}

// The reasons that keep the agent from saying anything current about the object.
function blockedReason(facts: PlacedFacts): Pick<ClusterExplanation, 'reason' | 'message'> | undefined {
  const { cluster, item, readiness } = facts;
  if (readiness.ready === 'NotReported')
    return { reason: 'NotReported', message: `${cluster}: its agent has not reported yet: is it running?` };
  if (readiness.ready !== 'True')
    return {
      reason: 'ClusterNotReady',
      message: `${cluster} is not Ready (${readiness.ready}${readiness.readyMessage ? `: ${readiness.readyMessage}` : ''}): what its agent reported may be stale`,
    };
  const rendered = facts.renderedHead;
  if (rendered !== undefined && facts.appliedCommit !== undefined && facts.appliedCommit !== rendered) {
    const at = facts.appliedCommit ? `applied ${facts.appliedCommit.slice(0, 7)}` : 'applied nothing yet';
    return {
      reason: 'NotYetApplied',
      message: `${cluster}: its agent ${at}, the hub rendered ${rendered.slice(0, 7)}: waiting for its next apply`,
    };
  }
  if (item.applied) return undefined;
  if (facts.record && !facts.record.applied)
    return {
      reason: 'ApplyFailed',
      message: `${cluster}: apply failed: ${facts.record.message ?? 'no message'}`,
    };
  if (!facts.record && !facts.aggregatedByHub)
    return { reason: 'NotReported', message: `${cluster}: its agent does not report ${facts.template}` };
  // The hub's aggregation carries the agent's error as the item's message.
  if (facts.aggregatedByHub && item.appliedMessage !== undefined && !isAbsenceMessage(item.appliedMessage))
    return { reason: 'ApplyFailed', message: `${cluster}: apply failed: ${item.appliedMessage}` };
  return undefined;
}

// The messages aggregateBindingStatus writes when there is no record (core/status/aggregate-status.ts).
function isAbsenceMessage(message: string): boolean {
  return / is not in the status of cluster |has reported no status yet|the hub recorded no status/.test(
    message,
  );
}

function healthWords(
  facts: PlacedFacts,
  health: HealthStatus,
): Pick<ClusterExplanation, 'reason' | 'message'> {
  const why = facts.record?.healthMessage ?? facts.item.healthMessage;
  const tail = why ? `: ${why}` : '';
  switch (health) {
    case 'Healthy':
      return { reason: 'Healthy', message: `${facts.cluster}: applied and Healthy` };
    case 'Progressing':
      return { reason: 'Progressing', message: `${facts.cluster}: Progressing${tail}` };
    case 'Degraded':
      return { reason: 'Degraded', message: `${facts.cluster}: Degraded${tail}` };
    default:
      return { reason: 'HealthUnknown', message: `${facts.cluster}: applied, health Unknown${tail}` };
  }
}

/** Returns what a rollout does to the cluster's copy, or undefined when it does not hold it. */
function rolloutOf(
  rollout: RolloutState,
  cluster: string,
): Pick<ClusterExplanation, 'reason' | 'message' | 'rollout'> | undefined {
  const c = rollout.clusters.find((x) => x.name === cluster);
  if (!c || c.state === 'Moved' || rollout.phase === 'Complete') return undefined;
  const label = strategyLabel(rollout.strategy);
  const hold: RolloutHold = {
    strategy: label,
    phase: rollout.phase,
    step: c.step,
    current: rollout.step,
    steps: rollout.steps,
    revision: rollout.revision,
    ...(c.commit ? { runs: c.commit } : {}),
  };
  const why = rollout.message ? `: ${rollout.message}` : '';
  if (c.state === 'RolledBack')
    return {
      reason: 'RolledBack',
      message: `${cluster} got its last good version back from rollout ${label}${why}`,
      rollout: hold,
    };
  const runs = c.commit ? `keeps the version of ${c.commit.slice(0, 7)}` : 'keeps the version it runs';
  if (rollout.phase === 'Halted' || rollout.phase === 'RolledBack')
    return {
      reason: 'RolloutHalted',
      message: `${cluster} ${runs}: rollout ${label} stopped at step ${rollout.step}/${rollout.steps}${why}; push a fix or a revert to start again`,
      rollout: hold,
    };
  const waitingFor = waitingOf(rollout, c.step);
  return {
    reason: 'HeldByRollout',
    message: `${cluster} ${runs} until step ${c.step}/${rollout.steps} of rollout ${label} brings ${rollout.revision.slice(0, 7)}: ${waitingWords(rollout, c.step, waitingFor)}`,
    rollout: { ...hold, waitingFor },
  };
}

function waitingOf(rollout: RolloutState, step: number): NonNullable<RolloutHold['waitingFor']> {
  if (rollout.phase === 'WaitingApproval') return 'Approval';
  if (step > rollout.step && rollout.healthySince !== undefined) return 'Soak';
  return 'EarlierStep';
}

function waitingWords(rollout: RolloutState, step: number, waitingFor: RolloutHold['waitingFor']): string {
  const label = strategyLabel(rollout.strategy);
  const current = `step ${rollout.step}/${rollout.steps}`;
  switch (waitingFor) {
    case 'Approval': {
      // The approvals that did not count (core/rollout/judge-approval.ts) end the rollout's message.
      const refused = rollout.message?.split('; not counted: ')[1];
      return `${current} waits for approval (a source commit with the trailer 'Gitfleet-Approve: ${label} step ${rollout.step}')${refused ? `; not counted: ${refused}` : ''}`;
    }
    case 'Soak':
      return `waiting for the soak of ${current} (Healthy since ${rollout.healthySince})`;
    default:
      return step > rollout.step
        ? `waiting for ${current}${rollout.message ? ` (${rollout.message})` : ''}`
        : `waiting for its turn in ${current} (maxUnavailable)${rollout.message ? ` (${rollout.message})` : ''}`;
  }
}
