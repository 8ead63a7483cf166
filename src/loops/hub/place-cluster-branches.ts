// Where a pass writes each cluster branch when the fleet lists render repositories
// (docs/git-budget.md#render-repositories), and what it reads as each branch's head:
//
// | the cluster                                   | its branch is written to        | its head is read from       |
// |-----------------------------------------------|---------------------------------|-----------------------------|
// | assigned a render repository that answers     | that repository                 | there (none yet: a move)    |
// | assigned one that cannot be read or written   | nowhere: held                   | the bindings branch's record|
// | assigned none                                 | the fleet repository            | the fleet repository        |
// | not registered                                | where the record says it lives  | there                       |
//
// A branch of the cluster anywhere else (the fleet repository or another render repository the
// fleet lists) is a stray: it gets a tombstone, once. The bindings branch records where each
// branch lives (`.gitfleet/render-repositories/<cluster>`, the URL; absent: the fleet repository),
// so the next pass knows where a branch was when it moves, and agents know where to read.
import { renderUrls } from '../../core/model/assign-render-repository.js';
import type { Fleet } from '../../core/model/fleet.js';
import { renderLocationDir, renderLocationPath } from '../../core/model/render-repository.js';
import type { HubState } from './read-hub-state.js';
import { readCommitInfo, type ReadContext } from './read-git-state.js';
import { tombstoneTree } from './tombstone-tree.js';
import type { RenderRepositories } from './render-repositories.js';
import type { RefreshAhead } from './refresh-ahead.js';

/** A cluster branch outside its cluster's repository, to tombstone. */
export interface StrayBranch {
  cluster: string;
  /** The render repository it is in; undefined: the fleet repository. */
  url: string | undefined;
  head: string;
  /** Where the cluster's branch lives now (undefined: the fleet repository), or `removed` for an unregistered cluster. */
  to: string | undefined | 'removed';
}

/** Where a pass writes each cluster branch. */
export interface RenderPlacement {
  /** Cluster → the render repository its branch is written to; absent: the fleet repository. */
  location: Map<string, string>;
  /** Cluster → why its branch is held (its render repository cannot be read or written). */
  held: Map<string, string>;
  strays: StrayBranch[];
  /** Registered cluster → where its branch was before this pass (locationName), when it moves in this pass. */
  moved: Map<string, string | undefined>;
  /** The bindings branch's location records after the pass: path → text. */
  files: Map<string, string>;
  /** The same records as the bindings branch holds them before the pass. */
  recorded: Map<string, string>;
}

/** Returns the placement of every branch and the state with each cluster's head read where it lives. */
export async function placeClusterBranches(input: {
  /** Absent: every cluster branch is in the repository the hub works on, as without render repositories. */
  repos: RenderRepositories | undefined;
  read: ReadContext;
  fleet: Fleet;
  state: HubState;
  /** Render repositories that refused a write earlier in this pass: URL → why. */
  unwritable: ReadonlyMap<string, string>;
  /** The refresh the pass started ahead (refresh-ahead.ts): those repositories are not read again. */
  ahead?: RefreshAhead;
}): Promise<{ state: HubState; placement?: RenderPlacement }> {
  const { repos, fleet, state, ahead } = input;
  if (!repos) return { state };
  const listed = new Set((fleet.config.renderRepositories ?? []).map((r) => r.url));
  const recorded = state.bindings.locations;
  const readable = [...listed].filter((url) => !input.unwritable.has(url));
  if (listed.size > 0 || recorded.size > 0) await repos.refresh(readable, fleet.config.branchPrefix, ahead);
  else await ahead?.done;
  input.read.store = { ...input.read.store, also: repos.gitdirs() };
  const why = (url: string): string | undefined => input.unwritable.get(url) ?? repos.problem(url);
  const places = placesOf(repos, listed, why, state.clusterHeads);
  const placing: Placing = {
    read: input.read,
    state,
    listed,
    why,
    places,
    assigned: renderUrls(fleet.clusters, fleet.config),
    registered: new Set(fleet.clusters.map((c) => c.name)),
    placement: {
      location: new Map(),
      held: new Map(),
      strays: [],
      moved: new Map(),
      files: new Map(),
      recorded: new Map([...recorded].map(([cluster, url]) => [renderLocationPath(cluster), `${url}\n`])),
    },
    clusterHeads: new Map<string, string>(),
  };
  const everyBranch = new Set([...places.values()].flatMap((heads) => [...heads.keys()]));
  for (const cluster of new Set([...placing.registered, ...everyBranch, ...recorded.keys()]))
    await placeCluster(placing, cluster);
  return { state: { ...state, clusterHeads: placing.clusterHeads }, placement: placing.placement };
}

/** Every repository the pass can see branches in: the fleet repository (undefined) and each listed one that answers. */
function placesOf(
  repos: RenderRepositories,
  listed: ReadonlySet<string>,
  why: (url: string) => string | undefined,
  fleetHeads: ReadonlyMap<string, string>,
): Map<string | undefined, ReadonlyMap<string, string>> {
  const places = new Map<string | undefined, ReadonlyMap<string, string>>([[undefined, fleetHeads]]);
  for (const url of listed) {
    const heads = why(url) === undefined ? repos.heads(url) : undefined;
    if (heads) places.set(url, heads);
  }
  return places;
}

/** What placing the branches reads, and the placement and heads it builds. */
interface Placing {
  read: ReadContext;
  state: HubState;
  listed: ReadonlySet<string>;
  why: (url: string) => string | undefined;
  places: Map<string | undefined, ReadonlyMap<string, string>>;
  assigned: ReturnType<typeof renderUrls>;
  registered: ReadonlySet<string>;
  placement: RenderPlacement;
  clusterHeads: Map<string, string>;
}

/**
 * Places one cluster's branch: held as recorded while its repository refuses; else where it is
 * assigned (a removed cluster's where it is), with its head, its record, and its stray copies.
 */
async function placeCluster(p: Placing, cluster: string): Promise<void> {
  const { state, placement, places, registered, clusterHeads } = p;
  const known = state.bindings.locations.get(cluster);
  const was = known !== undefined && p.listed.has(known) ? known : undefined;
  let at: string | undefined;
  if (registered.has(cluster)) at = p.assigned.get(cluster);
  else at = places.has(was) ? was : [...places].find(([, heads]) => heads.has(cluster))?.[0];
  const problem = at === undefined ? undefined : p.why(at);
  if (problem !== undefined) {
    // Nothing of it moves: its head as the bindings branch recorded it, its record as it was.
    placement.held.set(cluster, problem);
    const last = state.bindings.lastClusters.get(cluster);
    if (last !== undefined) clusterHeads.set(cluster, last);
    if (known !== undefined) placement.files.set(renderLocationPath(cluster), `${known}\n`);
    return;
  }
  const head = places.get(at)?.get(cluster);
  if (registered.has(cluster) && at !== known && state.bindings.lastClusters.has(cluster))
    placement.moved.set(cluster, known);
  if (head !== undefined) clusterHeads.set(cluster, head);
  if (at !== undefined) {
    placement.location.set(cluster, at);
    if (registered.has(cluster) || head !== undefined)
      placement.files.set(renderLocationPath(cluster), `${at}\n`);
  }
  for (const [url, heads] of places) {
    const stray = url === at ? undefined : heads.get(cluster);
    if (stray !== undefined && !(await isTombstoned(p.read, cluster, stray)))
      placement.strays.push({ cluster, url, head: stray, to: registered.has(cluster) ? at : 'removed' });
  }
}

/** Whether a branch head holds a tombstone already (its cluster removed, or its branch moved away). */
async function isTombstoned(ctx: ReadContext, cluster: string, head: string): Promise<boolean> {
  const { tree } = await readCommitInfo(ctx, head);
  return tree === tombstoneTree(cluster, 'removed').root || tree === tombstoneTree(cluster, 'moved').root;
}

/**
 * Whether nothing about render repositories calls for a pass: no cluster held now or in the
 * last pass, no stray branch to tombstone, every branch where the bindings branch says it is.
 */
export function renderSettled(state: HubState, placement: RenderPlacement | undefined): boolean {
  if (state.bindings.held.length > 0) return false;
  if (!placement) return true;
  const { files, recorded } = placement;
  const sameFiles =
    files.size === recorded.size && [...files].every(([path, text]) => recorded.get(path) === text);
  return placement.held.size === 0 && placement.strays.length === 0 && sameFiles;
}

/** Tells the render repositories where each branch lives once the pass's writes are out (or nothing was to write). */
export function settleRender(
  repos: RenderRepositories | undefined,
  fleet: Fleet,
  placement: RenderPlacement | undefined,
): void {
  if (!repos || !placement) return;
  const located = new Map<string, string>();
  for (const [path, text] of placement.files) located.set(path.slice(renderLocationDir.length), text.trim());
  repos.settle((fleet.config.renderRepositories?.length ?? 0) > 0, located);
}
