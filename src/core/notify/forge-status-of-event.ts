// The commit status a forge receiver (github, gitlab, gitea) sets for an event routed to it, on
// the event's source commit (docs/notifications.md#commit-statuses). Statuses aggregate: one
// context per rollout (its events move it from pending to success or failure) and one per kind of
// finding, never one per event or per cluster, so a commit stays far below GitHub's cap of 1,000
// statuses per commit and context. `<p>` is the receiver's context (default `gitfleet`).
//
// | events                                                   | context              | state   |
// |----------------------------------------------------------|----------------------|---------|
// | RolloutStarted, RolloutStepPassed                        | <p>/rollout/<strategy> | pending |
// | RolloutWaitingApproval                                   | <p>/rollout/<strategy> | pending |
// | RolloutComplete                                          | <p>/rollout/<strategy> | success |
// | RolloutHalted, RolloutRolledBack                         | <p>/rollout/<strategy> | failure |
// | RenderFailed, SourceRefused, DeletionRefused             | <p>/render           | failure |
// | ApplyFailed                                              | <p>/apply            | failure |
// | ClusterNotReady                                          | <p>/clusters         | failure |
// | ClusterTainted, ObjectEvicted, DriftReverted, DriftPaused| <p>/clusters         | pending |
// | ClusterReady, ClusterUntainted                           | <p>/clusters         | success |
//
// The description is the event's message, cut to the forges' 140 characters.
import { fitDescription, type DeployStatus } from './deploy-status.js';
import type { FleetEvent, FleetEventType } from './fleet-event.js';

/** A status to set on a commit for an event. */
export interface EventStatus extends DeployStatus {
  sha: string;
  context: string;
}

const table = {
  RolloutStarted: ['rollout', 'pending'],
  RolloutStepPassed: ['rollout', 'pending'],
  RolloutWaitingApproval: ['rollout', 'pending'],
  RolloutComplete: ['rollout', 'success'],
  RolloutHalted: ['rollout', 'failure'],
  RolloutRolledBack: ['rollout', 'failure'],
  RenderFailed: ['render', 'failure'],
  SourceRefused: ['render', 'failure'],
  DeletionRefused: ['render', 'failure'],
  ApplyFailed: ['apply', 'failure'],
  ClusterNotReady: ['clusters', 'failure'],
  ClusterTainted: ['clusters', 'pending'],
  ObjectEvicted: ['clusters', 'pending'],
  DriftReverted: ['clusters', 'pending'],
  DriftPaused: ['clusters', 'pending'],
  ClusterReady: ['clusters', 'success'],
  ClusterUntainted: ['clusters', 'success'],
} as const satisfies Record<FleetEventType, readonly [string, DeployStatus['state']]>;

/** Returns the status the event sets, or undefined when it names no source commit to set it on. */
export function forgeStatusOfEvent(event: FleetEvent, context = 'gitfleet'): EventStatus | undefined {
  if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(event.sourceCommit)) return undefined;
  const [group, state] = table[event.event];
  const strategy = group === 'rollout' && event.strategy ? `/${event.strategy}` : '';
  return {
    sha: event.sourceCommit,
    context: `${context}/${group}${strategy}`,
    state,
    description: fitDescription(event.message),
  };
}
