// The budget scenario's fleet (bench/budget.ts): N clusters on the forge's fleet repository, their
// status spread over S status repositories and their branches over R render repositories by the
// FleetConfig (each cluster pinned by label, round-robin), and one ConfigMap placed on
// every cluster whose `data.value` names the source push it came from. And the arithmetic of
// what the forge saw: the busiest window of each repository.
import type { ForgeEvent } from '../../test/git-server/start-forge.js';

/** The cluster names, c0001 … */
export function clusterNames(n: number): string[] {
  return Array.from({ length: n }, (_, k) => `c${String(k + 1).padStart(4, '0')}`);
}

/** The fleet repository's files, the ConfigMap at `value`; clusters pinned round-robin to the status and render repositories. */
export function budgetFleetFiles(opts: {
  clusters: readonly string[];
  statusUrls: readonly string[];
  renderUrls: readonly string[];
  value: string;
}): Record<string, string> {
  const listed = (key: string, kind: string, urls: readonly string[]) =>
    urls.length === 0
      ? []
      : [`  ${key}:`, ...urls.map((url, k) => `    - {name: ${kind}-${k + 1}, url: "${url}"}`)];
  const spec = [
    ...listed('statusRepositories', 'status', opts.statusUrls),
    ...listed('renderRepositories', 'render', opts.renderUrls),
  ];
  // Round-robin by label: even shares (rendezvous hashing gives 100 clusters over 13 repositories 4 to 12 each).
  const pin = (label: string, kind: string, count: number, k: number) =>
    count === 0 ? [] : [`gitfleet.io/${label}: ${kind}-${(k % count) + 1}`];
  const cluster = (name: string, k: number) => {
    const labels = [
      'fleet: bench',
      ...pin('status-repository', 'status', opts.statusUrls.length, k),
      ...pin('render-repository', 'render', opts.renderUrls.length, k),
    ];
    return `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: ${name}, labels: {${labels.join(', ')}}}\nspec: {syncMode: Pull}\n`;
  };
  return {
    'fleet.yaml': [
      'apiVersion: gitfleet.io/v1alpha1',
      'kind: FleetConfig',
      'metadata: {name: fleet}',
      ...(spec.length > 0 ? ['spec:', ...spec] : ['spec: {}']),
      '',
    ].join('\n'),
    'clusters.yaml': opts.clusters.map(cluster).join('---\n'),
    'apps/namespace.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n',
    'apps/web.yaml': budgetConfigMap(opts.value),
    'apps/policy.yaml': [
      'apiVersion: policy.karmada.io/v1alpha1',
      'kind: PropagationPolicy',
      'metadata: {name: web, namespace: shop}',
      'spec:',
      '  resourceSelectors: [{apiVersion: v1, kind: ConfigMap, name: web}]',
      '  placement: {clusterAffinity: {labelSelector: {matchLabels: {fleet: bench}}}}',
      '',
    ].join('\n'),
  };
}

/** The watched ConfigMap at `value`. */
export function budgetConfigMap(value: string): string {
  return `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web, namespace: shop}\ndata: {value: "${value}"}\n`;
}

/** What one repository saw over a stretch. */
export interface RepositoryLoad {
  repo: string;
  reads: number;
  pushes: number;
  limited: number;
  /** Reads a second over the stretch. */
  readsPerSecond: number;
  /** The most reads in any 1 s, and in any 10 s divided by 10. */
  peakReadsPerSecond: number;
  peakReadsPerSecond10s: number;
  /** Pushes a minute over the stretch, and the most in any 60 s. */
  pushesPerMinute: number;
  peakPushesPerMinute: number;
}

/** Returns each repository's load from the forge's events between `from` and `to` (ms). */
export function repositoryLoads(events: readonly ForgeEvent[], from: number, to: number): RepositoryLoad[] {
  const byRepo = new Map<string, ForgeEvent[]>();
  for (const e of events) {
    if (e.at < from || e.at > to) continue;
    const list = byRepo.get(e.repo) ?? [];
    list.push(e);
    byRepo.set(e.repo, list);
  }
  const seconds = Math.max((to - from) / 1000, 1e-3);
  return [...byRepo]
    .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
    .map(([repo, list]) => {
      const reads = list.filter((e) => e.kind === 'read').map((e) => e.at);
      const pushes = list.filter((e) => e.kind === 'push').map((e) => e.at);
      return {
        repo,
        reads: reads.length,
        pushes: pushes.length,
        limited: list.filter((e) => e.kind === 'limited' || e.kind === 'forbidden').length,
        readsPerSecond: round(reads.length / seconds),
        peakReadsPerSecond: mostInWindow(reads, 1000),
        peakReadsPerSecond10s: round(mostInWindow(reads, 10_000) / 10),
        pushesPerMinute: round((60 * pushes.length) / seconds),
        peakPushesPerMinute: mostInWindow(pushes, 60_000),
      };
    });
}

/** Returns the most of the times in any window of `windowMs` (as the forge counts: (t − window, t]). */
export function mostInWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  let first = 0;
  for (let last = 0; last < sorted.length; last++) {
    while (sorted[first]! <= sorted[last]! - windowMs) first++;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

/** Returns the p-th percentile (nearest rank) of the numbers. */
export function percentile(xs: readonly number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
