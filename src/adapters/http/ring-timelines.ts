// The doorbell's timelines of turns, one per branch repository (docs/git-budget.md#pacing): a
// ring sends an agent to fetch its moved branch from the repository that branch lives in, so
// it spends that repository's read budget alone. Clusters whose branches live in a render
// repository take turns on that repository's timeline, at the rate its readers allow; the
// rest, and every start (a starting agent reads the fleet repository first), take turns on
// the default timeline. Without `timelineOf` there is one timeline, as ring-pacer.ts alone.
import { ringPacer, type RingPacer, type RingPacerOptions } from './ring-pacer.js';

/** Where a cluster's rings take their turns: a key (the branch repository) and its turns a second. */
export interface RingTimeline {
  key: string;
  perSecond: number;
}

export interface RingTimelinesOptions extends RingPacerOptions {
  /** The cluster's own timeline; undefined: the default one (`perSecond`). */
  timelineOf?: (cluster: string) => RingTimeline | undefined;
}

/** Returns the timelines as one pacer: rings on the cluster's timeline, reservations on the default one. */
export function ringTimelines(opts: RingTimelinesOptions): RingPacer {
  const fallback = ringPacer(opts);
  const lines = new Map<string, { pacer: RingPacer; perSecond: number }>();
  // Every timeline made, those whose rate changed included (their pending rings still fire).
  const every: RingPacer[] = [fallback];
  const pacerOf = (cluster: string): RingPacer => {
    const timeline = opts.timelineOf?.(cluster);
    if (timeline === undefined) return fallback;
    const known = lines.get(timeline.key);
    if (known && known.perSecond === timeline.perSecond) return known.pacer;
    // A rate that changed (readers joined or left) starts a new timeline; rings pending keep theirs.
    const pacer = ringPacer({ ...opts, perSecond: timeline.perSecond });
    lines.set(timeline.key, { pacer, perSecond: timeline.perSecond });
    every.push(pacer);
    return pacer;
  };
  return {
    ring: (cluster, fire) => pacerOf(cluster).ring(cluster, fire),
    reserve: (turns) => fallback.reserve(turns),
    waiting: () => every.reduce((n, pacer) => n + pacer.waiting(), 0),
    close: () => {
      for (const pacer of every) pacer.close();
    },
  };
}
