// A pass's reading of the clusters' status when status repositories may hold it
// (status-repositories.ts): the assignment from the fleet just loaded, each cluster's status head
// and where its commit is read, and the clusters whose repository cannot be read, named in the
// pass result.
import { assignStatusRepositories, assignedUrl } from '../../core/model/assign-status-repository.js';
import type { Fleet } from '../../core/model/fleet.js';
import type { HubPassResult } from './hub-pass-result.js';
import type { HubState } from './read-hub-state.js';
import type { ReadContext } from './read-git-state.js';
import type { StatusRepositories } from './status-repositories.js';
import { withAcceptedStatus } from './accept-status-heads.js';
import type { RefreshAhead } from './refresh-ahead.js';

/**
 * Returns the result naming the clusters whose status repository could not be read, and those
 * whose status head was ignored as not signed by their key, when there are any.
 */
export function withUnreadable(result: HubPassResult, state: HubState): HubPassResult {
  const unreadable = state.statusUnreadable;
  const refused = (state.statusDiagnostics ?? []).filter((d) => d.code === 'StatusRefused');
  const byCluster = (entries: Iterable<readonly [string, string]>) =>
    Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : 1)));
  return {
    ...result,
    ...(unreadable?.size ? { statusUnreadable: byCluster(unreadable) } : {}),
    ...(refused.length > 0 ? { statusRefused: byCluster(refused.map((d) => [d.cluster!, d.message])) } : {}),
  };
}

/**
 * The hub's state with each cluster's status read from its status repository
 * (status-repositories.ts), and only from commits signed by the cluster's key when its
 * registration names one (accept-status-heads.ts): every later step of the pass (the verdicts
 * carried, the render, the bindings record's Gitfleet-Status trailers) sees the accepted heads.
 */
export async function readAssignedStatus(
  repos: StatusRepositories | undefined,
  read: ReadContext,
  fleet: Fleet,
  state: HubState,
  ahead?: RefreshAhead,
): Promise<HubState> {
  return withAcceptedStatus(read, fleet, await readStatusRepositories({ repos, read, fleet, state, ahead }));
}

async function readStatusRepositories(input: {
  repos: StatusRepositories | undefined;
  read: ReadContext;
  fleet: Fleet;
  state: HubState;
  /** The refresh the pass started ahead (refresh-ahead.ts): those repositories are not read again. */
  ahead: RefreshAhead | undefined;
}): Promise<HubState> {
  const { repos, read, fleet, state, ahead } = input;
  if (!repos) return state;
  const assignment = new Map<string, string>();
  for (const [cluster, assigned] of assignStatusRepositories(fleet.clusters, fleet.config)) {
    const url = assignedUrl(assigned);
    if (url !== undefined) assignment.set(cluster, url);
  }
  repos.assign(assignment, fleet.config.branchPrefix);
  repos.assignKeys(new Map(fleet.clusters.map((c) => [c.name, c.signingKey])));
  if (!repos.active()) {
    await ahead?.done;
    return state;
  }
  await repos.refresh(ahead);
  const status = repos.read(read, state.statusHeads);
  return {
    ...state,
    statusHeads: status.heads,
    statusReads: status.reads,
    statusUnreadable: status.unreadable,
  };
}
