// The budget scenario's figures (bench/budget.ts): for each stretch (startup, push, idle) what
// each repository saw, the busiest repository against GitHub's budget (15 reads a second, 6
// pushes a minute), the 429 answers, and push → applied and push → reported over the clusters.
import type { ForgeEvent } from '../../test/git-server/start-forge.js';
import { percentile, repositoryLoads, type RepositoryLoad } from './budget-fleet.js';
import type { ContenderResult } from './report.js';
import { spread } from './stats.js';

/** A stretch of the run, by the wall clock (ms). */
export interface Stretch {
  name: 'startup' | 'push' | 'idle';
  from: number;
  to: number;
}

/** One stretch's summary: the most loaded repository's figures. */
export interface StretchSummary {
  name: Stretch['name'];
  seconds: number;
  /** The most reads any repository took in one second, and in ten seconds (a second's average). */
  peakReadsPerSecond: number;
  peakReadsPerSecond10s: number;
  /** The most pushes any repository took in one minute. */
  peakPushesPerMinute: number;
  limited: number;
  repositories: RepositoryLoad[];
}

/** P50 and P99 of some latencies, ms. */
export interface Quantiles {
  p50: number;
  p99: number;
}

const quantiles = (xs: readonly number[]): Quantiles => ({
  p50: percentile(xs, 50),
  p99: percentile(xs, 99),
});

/** Seconds to one decimal, as the notes say them. */
export const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
const s = seconds;

/**
 * push → applied, and its split: the hub's share (push → the push that carried the cluster's
 * branch) and the agent's (from there to its apply), one of each per cluster in the same order.
 */
export function latencyShares(
  latencies: readonly number[],
  published: readonly number[],
): { applied: Quantiles; published: Quantiles; agentShare: Quantiles } {
  const fetched = published.map((p, k) => (latencies[k] ?? p) - p);
  return { applied: quantiles(latencies), published: quantiles(published), agentShare: quantiles(fetched) };
}

/** Returns the report's note, contenders and details. */
export function measureStretches(opts: {
  events: readonly ForgeEvent[];
  stretches: readonly Stretch[];
  /** push → applied, ms, one per cluster. */
  latencies: readonly number[];
  /** push → its status on the Git host, ms, one per cluster. */
  reported: readonly number[];
  /** push → the hub's push that carried the cluster's new branch, ms, one per cluster (the hub's share). */
  published?: readonly number[];
}): { note: string; contenders: ContenderResult[]; details: Record<string, unknown> } {
  const stretches = opts.stretches.map((s) => summarize(opts.events, s));
  const limited = opts.events.filter((e) => e.kind === 'limited' || e.kind === 'forbidden').length;
  const all = repositoryLoads(opts.events, -Infinity, Infinity);
  const most = (pick: (r: RepositoryLoad) => number) => Math.max(0, ...all.map(pick));
  const reported = quantiles(opts.reported);
  const pub = opts.published ?? [];
  const { applied, published, agentShare } = latencyShares(opts.latencies, pub);
  const note =
    `busiest repository: ${most((r) => r.peakReadsPerSecond)} reads in one second ` +
    `(${most((r) => r.peakReadsPerSecond10s)}/s over 10 s), ${most((r) => r.peakPushesPerMinute)} pushes in one minute; ` +
    `${limited} answers 429; push → applied P50 ${s(applied.p50)}, P99 ${s(applied.p99)}` +
    (pub.length > 0
      ? ` (the hub's share, push → branch pushed: P50 ${s(published.p50)}, P99 ${s(published.p99)}; the agent's, branch pushed → applied: P50 ${s(agentShare.p50)}, P99 ${s(agentShare.p99)})`
      : '') +
    '; ' +
    `push → status on the host P50 ${s(reported.p50)}, P99 ${s(reported.p99)}; ` +
    stretches.map((x) => `${x.name} ${Math.round(x.seconds)} s`).join(', ');
  return {
    note,
    contenders: [{ name: 'push → applied', side: 'gitfleet', ...spread(opts.latencies), peakRssMiB: null }],
    details: {
      limited,
      pushToAppliedMs: applied,
      pushToReportedMs: reported,
      ...(pub.length > 0 ? { pushToPublishedMs: published, publishedToAppliedMs: agentShare } : {}),
      stretches: stretches.map(({ repositories, ...rest }) => ({
        ...rest,
        repositories: compact(repositories),
      })),
    },
  };
}

function summarize(events: readonly ForgeEvent[], s: Stretch): StretchSummary {
  const repositories = repositoryLoads(events, s.from, s.to);
  const most = (pick: (r: RepositoryLoad) => number) => Math.max(0, ...repositories.map(pick));
  return {
    name: s.name,
    seconds: (s.to - s.from) / 1000,
    peakReadsPerSecond: most((r) => r.peakReadsPerSecond),
    peakReadsPerSecond10s: most((r) => r.peakReadsPerSecond10s),
    peakPushesPerMinute: most((r) => r.peakPushesPerMinute),
    limited: repositories.reduce((n, r) => n + r.limited, 0),
    repositories,
  };
}

// The fleet repository, the busiest status repository by pushes and the busiest render
// repository by reads: the rest are alike.
function compact(repositories: readonly RepositoryLoad[]): RepositoryLoad[] {
  const fleet = repositories.filter((r) => r.repo === 'fleet.git');
  const busiest = (prefix: string, by: (a: RepositoryLoad, b: RepositoryLoad) => number) =>
    [...repositories.filter((r) => r.repo.startsWith(prefix))].sort(by).slice(0, 1);
  return [
    ...fleet,
    ...busiest('status-', (a, b) => b.peakPushesPerMinute - a.peakPushesPerMinute || b.reads - a.reads),
    ...busiest('render-', (a, b) => b.peakReadsPerSecond - a.peakReadsPerSecond || b.reads - a.reads),
  ];
}

/** The model's push → applied beside the measured one, and their ratio (docs/git-budget.md#measured). */
export function modelBeside(
  advice: { model: { pushToAppliedSeconds: { p50: number; p99: number } } },
  details: Record<string, unknown>,
): string {
  const model = advice.model.pushToAppliedSeconds;
  const measured = details['pushToAppliedMs'] as { p50: number; p99: number };
  const ratio = (m: number, p: number) => Math.round((m / 1000 / p) * 10) / 10;
  return (
    `; the model: push → applied P50 ${model.p50} s, P99 ${model.p99} s ` +
    `(measured / model: P50 ${ratio(measured.p50, model.p50)}×, P99 ${ratio(measured.p99, model.p99)}×)`
  );
}
