// One ref a hub pass moved and wants published: the hub's RefMove, declared here because
// adapters do not depend on loops.

/** A ref to publish: where the hub moved it from (null: created) and to. */
export interface PublishUpdate {
  ref: string;
  oldOid: string | null;
  newOid: string;
  /**
   * The new commit replaces the remote's, whatever it is (no fast-forward, no expected old
   * value): only for a ref with one writer and no history, the agent's heartbeat.
   */
  replace?: boolean;
}
