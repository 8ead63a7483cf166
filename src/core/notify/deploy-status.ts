// The commit status the hub sets on the source commit it rendered (docs/commit-statuses.md): one
// aggregated verdict over the clusters that commit is placed on, computed from what the hub
// already reads (the bindings, the clusters' status reports, the rollout records) by
// deploy-status-input.ts, and posted only when it changes. The rules, first match wins:
//
// | the clusters and rollouts                                    | state    | description (example)                              |
// |--------------------------------------------------------------|----------|----------------------------------------------------|
// | a rollout halted or rolled back                              | failure  | rollout shop/web halted at step 2/3: member2: …    |
// | a cluster's apply of this commit failed, or the hub's guard refused its render | failure | apply failed on member2: 1 of 5 objects not applied |
// | placed on no cluster                                         | success  | placed on no cluster                               |
// | every placed cluster runs this commit and all is Healthy     | success  | healthy on 14/14 clusters                          |
// | anything else                                                | pending  | healthy on 12/14 clusters, 1 progressing, 1 held by rollout shop/web |
//
// A commit replaced by a newer one before it reached a final state gets `canceled` ("superseded
// by abc1234 …"), so no status stays pending for ever. Descriptions fit the forges' 140
// characters.

/**
 * What a source commit's deployment is: the forges' own words differ (forge-status maps them:
 * GitHub and Gitea `error` for canceled, GitLab `running`, `failed`, `canceled`).
 */
export type DeployState = 'pending' | 'success' | 'failure' | 'canceled';

/** The verdict posted on a source commit. */
export interface DeployStatus {
  state: DeployState;
  /** At most 140 characters, one line. */
  description: string;
}

/** Where one placed cluster stands with the source commit. */
export type DeployClusterState =
  /** It runs the commit's render and every object there is applied and Healthy. */
  | { type: 'Healthy' }
  /** Not there yet: not reported, applying, or applied with objects still Progressing or Unknown. */
  | { type: 'Progressing'; why: string }
  /** It runs the commit's render and an object there is Degraded. */
  | { type: 'Degraded'; why: string }
  /** A rollout holds it at what it ran before (`by`: the strategy and step). */
  | { type: 'Held'; by: string }
  /** Its agent failed to apply this commit's render, or the hub refused to write it. */
  | { type: 'Failed'; why: string };

/** A rollout that stopped: the change does not reach its later clusters. */
export interface StoppedRollout {
  /** `namespace/name` or `name`. */
  strategy: string;
  phase: 'Halted' | 'RolledBack';
  step: number;
  steps: number;
  message?: string;
}

/** Everything the verdict is a function of. */
export interface DeployStatusInput {
  /** The source commit the bindings head was rendered from. */
  sourceCommit: string;
  /** The clusters the commit places anything on, by name. */
  clusters: { name: string; state: DeployClusterState }[];
  /** The rollouts of this render that halted or rolled back. */
  stopped: StoppedRollout[];
}

/** The forges' limit on a status description (GitHub's documented 140 characters). */
export const maxDescriptionLength = 140;

/** Returns the aggregated status of the source commit (the table at the top of this file). */
export function planDeployStatus(input: DeployStatusInput): DeployStatus {
  const stopped = input.stopped[0];
  if (stopped) return failure(describeStopped(stopped, input.stopped.length));
  const failed = input.clusters.filter((c) => c.state.type === 'Failed');
  if (failed.length > 0) return failure(describeFailed(failed, input.clusters.length));
  const total = input.clusters.length;
  if (total === 0) return { state: 'success', description: 'placed on no cluster' };
  const healthy = input.clusters.filter((c) => c.state.type === 'Healthy').length;
  if (healthy === total) return { state: 'success', description: `healthy on ${total}/${total} clusters` };
  return { state: 'pending', description: fitDescription(describePending(input.clusters, healthy)) };
}

/** Returns the final status of a commit a newer one replaced before it was final. */
export function supersededStatus(by: string, last: DeployStatus): DeployStatus {
  return {
    state: 'canceled',
    description: fitDescription(`superseded by ${by.slice(0, 7)} before it was final (${last.description})`),
  };
}

/** Returns whether a state is final: no later pass changes it unless a cluster changes again. */
export function isFinalDeployState(state: DeployState): boolean {
  return state !== 'pending';
}

/** Returns the text on one line, without control characters, cut to 140 characters with an ellipsis. */
export function fitDescription(text: string): string {
  // eslint-disable-next-line no-control-regex
  const line = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  const chars = [...line];
  return chars.length <= maxDescriptionLength
    ? line
    : chars.slice(0, maxDescriptionLength - 1).join('') + '…';
}

function failure(description: string): DeployStatus {
  return { state: 'failure', description: fitDescription(description) };
}

function describeStopped(r: StoppedRollout, count: number): string {
  const verb = r.phase === 'Halted' ? 'halted' : 'rolled back';
  const more = count > 1 ? ` (and ${count - 1} more rollout${count > 2 ? 's' : ''})` : '';
  return `rollout ${r.strategy} ${verb} at step ${r.step}/${r.steps}${more}${r.message ? `: ${r.message}` : ''}`;
}

function describeFailed(failed: { name: string; state: DeployClusterState }[], total: number): string {
  const [first] = failed;
  if (failed.length === 1 && first?.state.type === 'Failed')
    return `apply failed on ${first.name}: ${first.state.why}`;
  return `apply failed on ${failed.length}/${total} clusters: ${failed.map((c) => c.name).join(', ')}`;
}

function describePending(clusters: { name: string; state: DeployClusterState }[], healthy: number): string {
  const count = (type: DeployClusterState['type']): number =>
    clusters.filter((c) => c.state.type === type).length;
  const parts = [`healthy on ${healthy}/${clusters.length} clusters`];
  const progressing = count('Progressing');
  if (progressing > 0) parts.push(`${progressing} progressing`);
  const degraded = count('Degraded');
  if (degraded > 0) parts.push(`${degraded} degraded`);
  const held = clusters.flatMap((c) => (c.state.type === 'Held' ? [c.state.by] : []));
  if (held.length > 0) parts.push(`${held.length} held by ${[...new Set(held)].join(', ')}`);
  return parts.join(', ');
}
