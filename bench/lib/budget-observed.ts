// The budget bench's observed agents (`--observe N`, docs/git-budget.md#measured). On GitHub each
// agent runs beside its own cluster and the forge's CPU is GitHub's; here 1,000 agents, the
// forge's git processes and the hub share 2 cores, and push → applied measures the queue for
// them more than the design. With `--observe N`, N agents spread evenly over the clusters (so
// over the render repositories and the order the hub publishes them in) run in a process of their
// own at normal priority, as the hub does; every other agent runs at niceness 19 and its Git
// requests present a token the forge serves at niceness 19 too. Every request is still counted
// and budgeted as before; the background agents only yield the CPU. The observed agents' push →
// applied is then what an agent on a machine of its own would see behind this hub and forge.
import { latencyShares, seconds as s } from './budget-report.js';

/** The token the background agents' Git requests present (start-forge.ts `background`). */
export const backgroundToken = 'bench-background';

/** The niceness of the background agents and the forge's git processes serving them. */
export const backgroundNice = 19;

/** Returns `count` clusters spread evenly over the list (every k-th), none when count is 0. */
export function observedClusters(clusters: readonly string[], count: number): Set<string> {
  if (count <= 0) return new Set();
  const step = Math.max(1, Math.floor(clusters.length / count));
  return new Set(clusters.filter((_, k) => k % step === 0).slice(0, count));
}

/** push → applied and its shares over the observed clusters: the note's words and the details. */
export function observedFigures(opts: {
  clusters: readonly string[];
  observed: ReadonlySet<string>;
  /** push → applied, ms, one per cluster (in `clusters` order). */
  latencies: readonly number[];
  /** push → the hub's push that carried the cluster's branch, ms, one per cluster. */
  published: readonly number[];
}): { note: string; details: Record<string, unknown> } {
  const picked = (xs: readonly number[]) => xs.filter((_, k) => opts.observed.has(opts.clusters[k]!));
  const shares = latencyShares(picked(opts.latencies), picked(opts.published));
  const [a, h, g] = [shares.applied, shares.published, shares.agentShare];
  const count = picked(opts.latencies).length;
  return {
    note:
      `; the ${count} observed agents (the others niced): push → applied P50 ${s(a.p50)}, ` +
      `P99 ${s(a.p99)} (the hub's share P50 ${s(h.p50)}, P99 ${s(h.p99)}; the agent's P50 ${s(g.p50)}, P99 ${s(g.p99)})`,
    details: {
      observed: {
        clusters: count,
        pushToAppliedMs: a,
        pushToPublishedMs: h,
        publishedToAppliedMs: g,
      },
    },
  };
}
