// One ref a pass moved, as the loops hand it to the repository below them (the hub's HubRepo)
// and the remote adapter publishes it (adapters/remote/push-refs.ts): one type for both sides.

/** One ref a pass moved: from `oldOid` (null: created) to `newOid`. */
export interface RefMove {
  ref: string;
  oldOid: string | null;
  newOid: string;
  /**
   * The new commit replaces the old one rather than descending from it: only the agent's
   * heartbeat ref (loops/agent/heartbeat.ts), which has one writer and no history.
   */
  replace?: boolean;
  /**
   * The render repository (URL or path) the move is published to, for a cluster branch that
   * lives there (docs/git-budget.md#render-repositories); absent: the repository the hub works on.
   */
  repository?: string;
  /**
   * The tombstone a moved branch leaves in its old render repository: published only once every
   * branch of the pass is in its new repository, so a move that fails leaves the old one as it was.
   */
  leftBehind?: boolean;
}
