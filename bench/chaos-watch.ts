// What the chaos scenario sees of the tracked objects: each cluster's copy is read by its uid every
// few seconds (while the cluster's API server answers), and every change of uid is counted: a copy
// that disappears is a deletion, a copy with a new uid after a deletion is a recreation.
import type { TrackedObject } from './chaos-fleet.js';

/** One reading of an object on a cluster: its uid, absent (404), or not known (the server did not answer). */
export type Reading = { type: 'Present'; uid: string } | { type: 'Absent' } | { type: 'Unknown' };

/** The counts of one object on one cluster. */
export interface CopyHistory {
  cluster: string;
  object: string;
  kind: TrackedObject['kind'];
  deletions: number;
  recreations: number;
  /** The uid last seen, or null when last seen absent. */
  last: string | null | undefined;
  /** When each deletion and recreation was seen (ms since the run began). */
  events: { atMs: number; what: 'deleted' | 'recreated'; uid?: string }[];
}

/** Keeps the history of every (cluster, object) pair from the readings it is given. */
export class CopyTracker {
  private readonly copies = new Map<string, CopyHistory>();

  /** Takes one reading; Unknown readings change nothing. */
  see(cluster: string, object: TrackedObject, reading: Reading, atMs: number): void {
    if (reading.type === 'Unknown') return;
    const key = `${cluster}\u0000${object.name}`;
    let copy = this.copies.get(key);
    if (copy === undefined) {
      copy = {
        cluster,
        object: object.name,
        kind: object.kind,
        deletions: 0,
        recreations: 0,
        last: undefined,
        events: [],
      };
      this.copies.set(key, copy);
    }
    const uid = reading.type === 'Present' ? reading.uid : null;
    if (copy.last === undefined) {
      copy.last = uid;
      return;
    }
    if (uid === copy.last) return;
    if (copy.last !== null) {
      copy.deletions++;
      copy.events.push({ atMs, what: 'deleted', uid: copy.last });
    }
    if (uid !== null && copy.events.some((e) => e.what === 'deleted')) {
      copy.recreations++;
      copy.events.push({ atMs, what: 'recreated', uid });
    }
    copy.last = uid;
  }

  /** Every pair seen, in cluster then object order. */
  histories(): CopyHistory[] {
    return [...this.copies.values()].sort(
      (a, b) => a.cluster.localeCompare(b.cluster) || a.object.localeCompare(b.object),
    );
  }
}
