import { judgeMassDeletion } from '../model/mass-deletion-guard.js';
import type { FleetConfig } from '../model/fleet-config.js';
import { patchMap } from '../model/patched-map.js';

/** One file of a cluster branch that a pass adds, changes or removes. */
export interface BranchChange {
  path: string;
  change: 'added' | 'changed' | 'removed';
}

export type ClusterUpdatePlan =
  | { type: 'unchanged' }
  | {
      type: 'update';
      changes: BranchChange[];
      files: ReadonlyMap<string, string>;
      /** Some removal is an eviction's (input.evictedPaths): the commit passes the allowance on. */
      evictionRemovals?: true;
    }
  | { type: 'refused'; reason: string; changes: BranchChange[] };

export interface PlanClusterUpdateInput {
  cluster: string;
  /** The branch's current files: path → blob id (empty for a new branch). */
  current: ReadonlyMap<string, string>;
  /** The render's files for the cluster: path → blob id (with `changedPaths`, those paths at least). */
  rendered: ReadonlyMap<string, string>;
  /**
   * When known: the render differs from the current files at most at these paths (the branch
   * holds the last render, so no file of the hub's own either, and only these paths were
   * rendered again). Only they are compared.
   */
  changedPaths?: ReadonlySet<string>;
  /** Paths whose render failed on this cluster: their current content is kept. */
  held: ReadonlySet<string>;
  guards: FleetConfig['guards'];
  /** Whether the source commit allows large deletions on this cluster. */
  deletionsAllowed: boolean;
  /**
   * Paths a failover decision of this pass takes off the cluster (core/failover/eviction-allowance.ts):
   * their removal is allowed, so the guard counts only the other removals.
   */
  evictedPaths?: ReadonlySet<string>;
}

/**
 * Returns what a pass does to one cluster branch: nothing, an update (the new path → blob id map
 * and the per-file changes), or a refusal by the mass-deletion guard
 * (docs/architecture.md#mass-deletion-guard): a render that would delete every object of a
 * non-empty branch, or more than `maxDeleteFraction` of them when it holds more than `minObjects`,
 * is refused unless the source commit allows it. Removals an eviction explains (`evictedPaths`)
 * are allowed and not counted. Objects whose render failed keep their current content, so a
 * failed override is never a deletion. Files under `.gitfleet/` are the hub's own.
 */
export function planClusterUpdate(input: PlanClusterUpdateInput): ClusterUpdatePlan {
  const planned = input.changedPaths ? plannedAt(input, input.changedPaths) : plannedWhole(input);
  const { files, changes } = planned;
  if (changes.length === 0) return { type: 'unchanged' };
  changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const removals = changes.filter((c) => c.change === 'removed');
  const evicted = input.evictedPaths;
  const explained = evicted ? removals.filter((c) => evicted.has(c.path)).length : 0;
  const removed = removals.length - explained;
  const refusal = removed > 0 ? guardRefusal(objectsIn(input.current), removed, input) : undefined;
  if (refusal && !input.deletionsAllowed) return { type: 'refused', reason: refusal, changes };
  return { type: 'update', changes, files, ...(explained > 0 ? { evictionRemovals: true as const } : {}) };
}

// Every path: the rendered files, the current content of held ones, compared with the current files.
function plannedWhole(input: PlanClusterUpdateInput): {
  files: Map<string, string>;
  changes: BranchChange[];
} {
  const files = new Map(input.rendered);
  for (const path of input.held) {
    const kept = input.current.get(path);
    if (kept !== undefined) files.set(path, kept);
    else files.delete(path);
  }
  const changes: BranchChange[] = [];
  for (const [path, oid] of files) {
    const before = input.current.get(path);
    if (before === undefined) changes.push({ path, change: 'added' });
    else if (before !== oid) changes.push({ path, change: 'changed' });
  }
  for (const path of input.current.keys()) {
    if (!path.startsWith('.gitfleet/') && !files.has(path)) changes.push({ path, change: 'removed' });
  }
  return { files, changes };
}

// Only the changed paths: the same result as plannedWhole when the other paths hold what was rendered.
function plannedAt(
  input: PlanClusterUpdateInput,
  paths: ReadonlySet<string>,
): { files: ReadonlyMap<string, string>; changes: BranchChange[] } {
  const edits = new Map<string, string | undefined>();
  const changes: BranchChange[] = [];
  for (const path of paths) {
    if (path.startsWith('.gitfleet/')) continue;
    const before = input.current.get(path);
    const after = input.held.has(path) ? before : input.rendered.get(path);
    if (after === before) continue;
    edits.set(path, after);
    changes.push({
      path,
      change: after === undefined ? 'removed' : before === undefined ? 'added' : 'changed',
    });
  }
  return { files: patchMap(input.current, edits), changes };
}

function objectsIn(files: ReadonlyMap<string, string>): number {
  let count = 0;
  for (const path of files.keys()) if (!path.startsWith('.gitfleet/')) count++;
  return count;
}

function guardRefusal(before: number, removed: number, input: PlanClusterUpdateInput): string | undefined {
  const verdict = judgeMassDeletion(before, removed, input.guards);
  if (verdict.type === 'all')
    return `${input.cluster}: the render deletes all ${before} objects of the cluster`;
  if (verdict.type === 'share')
    return `${input.cluster}: the render deletes ${removed} of ${before} objects (more than ${verdict.percent}%)`;
  return undefined;
}
