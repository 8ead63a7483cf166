// The source commit's side of a status read: its templates' labels (for `-l` and the dashboard's
// label filter) and its FleetConfig's branch prefix. A commit that does not load, or a repository
// without one (a mirror's unborn HEAD), gives an error rather than throwing: only `-l` needs the
// labels, and the prefix has a default. What a commit id gave is kept in the memo (a commit never
// changes); `HEAD` is a name, so its reading is never kept.
import { readGitSource } from '../../adapters/source/read-git-commit.js';
import { loadFleet } from '../../core/load/load-fleet.js';
import type { Fleet } from '../../core/model/fleet.js';
import { templatesByStrategy } from '../../core/rollout/rollout-steps.js';
import { assignStatusRepositories, assignedUrl } from '../../core/model/assign-status-repository.js';
import type { FleetStatusMemo, SourceRead } from './fleet-status-memo.js';

/** Returns the labels (when asked for) and the branch prefix of the source at `ref`. */
export async function loadSource(
  gitdir: string,
  ref: string,
  want: { labels: boolean },
  memo: FleetStatusMemo,
): Promise<SourceRead> {
  const key = `${ref} ${want.labels ? 'labels' : 'prefix'}`;
  const kept = /^[0-9a-f]{40}$/.test(ref) ? memo.sources.get(key) : undefined;
  if (kept !== undefined) return kept;
  const read = await loadSourceNow(gitdir, ref, want);
  if (read.commit === ref) memo.sources.set(key, read);
  return read;
}

async function loadSourceNow(gitdir: string, ref: string, want: { labels: boolean }): Promise<SourceRead> {
  try {
    const { commit, files } = await readGitSource({ dir: gitdir, ref });
    // For the branch prefix and the status repositories alone, only the files that may hold the
    // FleetConfig or a Cluster are loaded.
    const loaded = loadFleet(
      want.labels ? files : files.filter((f) => /kind:\s*["']?(FleetConfig|Cluster)\b/.test(f.content)),
    );
    if (!want.labels)
      return loaded.ok
        ? { commit, branchPrefix: loaded.fleet.config.branchPrefix, ...assignmentOf(loaded.fleet) }
        : { commit };
    if (!loaded.ok)
      return {
        commit,
        error: `${commit.slice(0, 7)}: the source commit does not load, so its templates' labels are unknown`,
      };
    return {
      commit,
      branchPrefix: loaded.fleet.config.branchPrefix,
      ...assignmentOf(loaded.fleet),
      labels: new Map(loaded.fleet.templates.map((t) => [t.key, { ...(t.object.metadata.labels ?? {}) }])),
      clusters: loaded.fleet.clusters,
      rolledOutBy: rolledOutBy(loaded.fleet),
    };
  } catch (error) {
    return { error: `${ref}: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** Returns template refKey → the label of the strategy that rolls it out (core/rollout/rollout-steps.ts). */
function rolledOutBy(fleet: Fleet): Map<string, string> {
  const by = new Map<string, string>();
  for (const [strategy, templates] of templatesByStrategy(fleet.templates, fleet.rolloutStrategies ?? []))
    for (const t of templates) by.set(t.key, strategy);
  return by;
}

/** Returns the status repository of each cluster that has one, when any has. */
function assignmentOf(fleet: Fleet): { statusAssignment?: Map<string, string> } {
  const assignment = new Map<string, string>();
  for (const [cluster, assigned] of assignStatusRepositories(fleet.clusters, fleet.config)) {
    const url = assignedUrl(assigned);
    if (url !== undefined) assignment.set(cluster, url);
  }
  return assignment.size > 0 ? { statusAssignment: assignment } : {};
}
