// The doorbell's held waits (notify-server.ts), bounded per cluster and in all: each is answered
// once, by the first of its branch moving past the head its agent has, its hold running out, or
// the replica standing down; a closed request releases its place.

/** How a held wait ends: the new head, 204 (the hold ran out) or 503 (standing down). */
export type WaitOutcome = { head: string | null } | 204 | 503;

/** The answer to a request to hold: held (with how to release it) or refused by a bound. */
export type HoldResult = { type: 'held'; release: () => void } | { type: 'clusterFull' } | { type: 'full' };

/** The held waits of a doorbell. */
export interface NotifyWaiters {
  /** Holds a wait of `cluster`'s agent, which has `after`; `answer` is called once at most. */
  hold(cluster: string, after: string, answer: (outcome: WaitOutcome) => void): HoldResult;
  /** Answers every wait of the cluster whose `after` is not the new head. */
  moved(cluster: string, head: string | null): void;
  /** Answers every wait with `outcome`. */
  answerAll(outcome: 204 | 503): void;
  size(): number;
}

interface Waiter {
  after: string;
  answer: (outcome: WaitOutcome) => void;
  cancel: () => void;
}

/** Returns an empty set of waits with the given bounds. */
export function createNotifyWaiters(opts: {
  perCluster: number;
  total: number;
  holdMs: number;
  setTimer: (callback: () => void, delayMs: number) => () => void;
}): NotifyWaiters {
  const byCluster = new Map<string, Set<Waiter>>();
  let count = 0;
  const remove = (cluster: string, waiter: Waiter): boolean => {
    const set = byCluster.get(cluster);
    if (!set?.delete(waiter)) return false;
    if (set.size === 0) byCluster.delete(cluster);
    count--;
    waiter.cancel();
    return true;
  };
  const finish = (cluster: string, waiter: Waiter, outcome: WaitOutcome): void => {
    if (remove(cluster, waiter)) waiter.answer(outcome);
  };
  return {
    hold: (cluster, after, answer) => {
      const set = byCluster.get(cluster) ?? new Set<Waiter>();
      if (set.size >= opts.perCluster) return { type: 'clusterFull' };
      if (count >= opts.total) return { type: 'full' };
      const waiter: Waiter = { after, answer, cancel: () => undefined };
      waiter.cancel = opts.setTimer(() => finish(cluster, waiter, 204), opts.holdMs);
      set.add(waiter);
      byCluster.set(cluster, set);
      count++;
      return { type: 'held', release: () => void remove(cluster, waiter) };
    },
    moved: (cluster, head) => {
      for (const waiter of [...(byCluster.get(cluster) ?? [])])
        if (waiter.after !== (head ?? '')) finish(cluster, waiter, { head });
    },
    answerAll: (outcome) => {
      for (const [cluster, set] of [...byCluster]) for (const w of [...set]) finish(cluster, w, outcome);
    },
    size: () => count,
  };
}
