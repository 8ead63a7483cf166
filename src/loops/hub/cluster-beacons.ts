// The liveness beacons the hub's doorbell hears (adapters/http/notify-server.ts): per cluster,
// how many came since this process started. The cluster monitor takes a change of the count as
// it takes a move of the heartbeat ref (cluster-monitor-rules.ts): a sign of life seen by the
// hub's own clock at its next look. Only a count is kept, never a time an agent sent: a hub
// that restarts has none, and its monitor gives every cluster a full grace period to be heard.

/** The beacons heard, by cluster. */
export interface ClusterBeacons {
  /** Notes a beacon of `cluster`. */
  heard(cluster: string): void;
  /** How many beacons each cluster sent (absent: none yet). */
  counts(): ReadonlyMap<string, number>;
}

/** Returns an empty record of beacons. */
export function clusterBeacons(): ClusterBeacons {
  const counts = new Map<string, number>();
  return {
    heard: (cluster) => void counts.set(cluster, (counts.get(cluster) ?? 0) + 1),
    counts: () => counts,
  };
}
