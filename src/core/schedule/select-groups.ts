/** A candidate group (a region): how many clusters it holds and how good it is. */
export interface GroupInfo {
  name: string;
  /** Number of clusters in the group. */
  value: number;
  /** The group's score. */
  weight: number;
}

interface GroupPath {
  id: number;
  groups: GroupInfo[];
  weight: number;
  value: number;
}

export interface SelectGroupsOptions {
  groups: readonly GroupInfo[];
  /** minGroups / maxGroups of the group's spread constraint. */
  minGroups: number;
  maxGroups: number;
  /** Clusters the chosen groups must hold together (minGroups of the cluster constraint). */
  targetClusters: number;
}

/**
 * Returns the best set of groups, or undefined when none is feasible (Karmada's selectGroups,
 * pkg/scheduler/core/spreadconstraint/select_groups.go):
 *   1. groups sorted by clusters ascending, score descending, name ascending;
 *   2. depth-first search for every combination of minGroups..maxGroups groups whose clusters
 *      reach the target; a path stops growing as soon as it is feasible;
 *   3. paths ranked by summed score desc, summed clusters desc, discovery order; the best one
 *      is then replaced by any shorter path that is its prefix (in score order) — fewer groups
 *      win when they already suffice.
 * Each returned set is ordered by score descending, then name.
 */
export function selectGroups(options: SelectGroupsOptions): GroupInfo[] | undefined {
  if (options.groups.length === 0) return undefined;
  const paths = findFeasiblePaths(options);
  if (paths.length === 0) return undefined;
  return prioritizePaths(paths).groups;
}

function findFeasiblePaths(options: SelectGroupsOptions): GroupPath[] {
  const { minGroups, maxGroups, targetClusters } = options;
  const groups = [...options.groups].sort(
    (a, b) => a.value - b.value || b.weight - a.weight || compareNames(a.name, b.name),
  );
  const paths: GroupPath[] = [];
  const stack: GroupInfo[] = [];
  const search = (sum: number, begin: number): void => {
    if (sum >= targetClusters && stack.length >= minGroups && stack.length <= maxGroups) {
      paths.push(snapshotPath(paths.length + 1, stack));
      return;
    }
    if (stack.length >= maxGroups) return;
    for (let i = begin; i < groups.length; i++) {
      const group = groups[i] as GroupInfo;
      stack.push(group);
      search(sum + group.value, i + 1);
      // Karmada stops backtracking (and keeps the group) when every group is needed anyway.
      if (groups.length === minGroups) break;
      stack.pop();
    }
  };
  search(0, 0);
  return paths;
}

function snapshotPath(id: number, stack: readonly GroupInfo[]): GroupPath {
  const groups = [...stack].sort((a, b) => b.weight - a.weight || compareNames(a.name, b.name));
  return {
    id,
    groups,
    weight: groups.reduce((sum, g) => sum + g.weight, 0),
    value: groups.reduce((sum, g) => sum + g.value, 0),
  };
}

function prioritizePaths(paths: GroupPath[]): GroupPath {
  const ranked = [...paths].sort((a, b) => b.weight - a.weight || b.value - a.value || a.id - b.id);
  let best = ranked[0] as GroupPath;
  for (const path of ranked.slice(1)) if (isPrefixOf(path, best)) best = path;
  return best;
}

// Karmada's matchSubPath: `sub` is strictly shorter and its groups lead `path`'s, in order.
function isPrefixOf(sub: GroupPath, path: GroupPath): boolean {
  if (sub.groups.length >= path.groups.length) return false;
  return sub.groups.every((g, i) => path.groups[i]?.name === g.name);
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
