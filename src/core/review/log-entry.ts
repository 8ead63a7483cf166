/** What happened to one file in one commit. */
export interface FileChange {
  path: string;
  change: 'added' | 'changed' | 'removed';
}

/** The source commit a render came from, as far as this repository still knows it. */
export interface LogSource {
  commit: string;
  ref?: string;
  /** True when the commit is not in the repository (history rewritten, or not fetched). */
  missing: boolean;
  author?: { name: string; email: string; time: number };
  subject?: string;
}

/** One cluster-branch commit in `gitfleet log`. */
export interface LogEntry {
  cluster: string;
  /** The rendering commit on the cluster branch. */
  commit: string;
  /** Its committer time, in seconds since the epoch. */
  time: number;
  subject: string;
  type: 'render' | 'tombstone' | 'other';
  /** The followed object's files this commit touched; without an object, the commit's own list. */
  changes: FileChange[];
  /** Null when the commit names no source commit (no Gitfleet-Source-Commit trailer). */
  source: LogSource | null;
  /** Where its imported endpoints came from (Gitfleet-Endpoints-From: `<cluster> <ns>/<service>`). */
  endpointsFrom?: string[];
  /**
   * Why it happened, when a failover or rollout decision did it: the commit's own
   * Gitfleet-Eviction(-Done), Gitfleet-Rollout and Gitfleet-Rollback lines and the decisions of the
   * bindings commit that recorded it (core/review/decision-lines.ts).
   */
  decisions?: string[];
}

/** Returns how a set of files (path → blob id) changed from `before` to `after`, by path. */
export function compareFiles(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): FileChange[] {
  const changes: FileChange[] = [];
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  for (const path of paths) {
    const a = before.get(path);
    const b = after.get(path);
    if (a === b) continue;
    changes.push({ path, change: a === undefined ? 'added' : b === undefined ? 'removed' : 'changed' });
  }
  return changes;
}
