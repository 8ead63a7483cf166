// The trailers of progressive rollouts (docs/rollout.md#trailers):
//
//   on a cluster commit of a cluster in a rollout that is not Complete:
//     Gitfleet-Rollout: shop/web step 1/2 moved to <revision>
//     Gitfleet-Rollout: shop/web step 2/2 held at <commit it runs>: waiting for step 1
//     Gitfleet-Rollback: shop/web step 1/2 restores <last good cluster commit>: <why>
//   on the bindings commit of a pass that decided something:
//     Gitfleet-Rollout: shop/web: <what was decided>
//   on a source commit, written by a person:
//     Gitfleet-Approve: shop/web step 2        approves the Manual step 2 of the rollout in progress
import type { RolloutClusterState, RolloutDecision, RolloutState } from '../model/rollout.js';
import { strategyLabel } from '../model/rollout.js';

export const rolloutTrailer = 'Gitfleet-Rollout';
export const rollbackTrailer = 'Gitfleet-Rollback';
export const approveTrailer = 'Gitfleet-Approve';

/** Returns the cluster commit's rollout trailer line for one cluster of a rollout. */
export function clusterRolloutLine(state: RolloutState, cluster: RolloutClusterState): string {
  const label = strategyLabel(state.strategy);
  const at = `step ${cluster.step}/${state.steps}`;
  if (cluster.state === 'Moved') return `${rolloutTrailer}: ${label} ${at} moved to ${state.revision}`;
  if (cluster.state === 'RolledBack')
    return `${rollbackTrailer}: ${label} ${at} restores ${cluster.lastGood ?? 'its last good objects'}: ${oneLine(state.message ?? 'the rollout failed')}`;
  const runs = cluster.commit ? ` at ${cluster.commit}` : '';
  return `${rolloutTrailer}: ${label} ${at} held${runs}: ${oneLine(cluster.message ?? 'waiting for an earlier step')}`;
}

/** Returns the bindings commit's trailer lines for the decisions, in order. */
export function rolloutDecisionLines(decisions: readonly RolloutDecision[]): string[] {
  return decisions.map((d) => `${rolloutTrailer}: ${d.strategy}: ${oneLine(d.message)}`);
}

/**
 * Returns the approvals of a source commit's message: `Gitfleet-Approve: <strategy> step <n>`
 * trailers as `<strategy> step <n>` (one value per trailer, whitespace collapsed).
 */
export function approvalsOf(message: string): string[] {
  const found: string[] = [];
  for (const line of message.split('\n')) {
    const m = /^Gitfleet-Approve:\s*(\S+)\s+step\s+(\d+)\s*$/i.exec(line.trim());
    if (m) found.push(`${m[1]} step ${Number(m[2])}`);
  }
  return found;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}
