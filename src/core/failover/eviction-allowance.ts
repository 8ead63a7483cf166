// Evictions are allowed deletions (docs/failover.md#partition). When a failover pass takes a
// binding's objects off a cluster (a Directly eviction, or a graceful task that is done and lets
// the old copy go), the mass-deletion guards must not hold those deletions back: the hub's
// guard does not count them, and the cluster commit passes the allowance on to the agent as a
// source commit's allowance is passed on, naming why:
//
//   Gitfleet-Allow-Deletions: member2
//   Gitfleet-Eviction: shop/Deployment.apps/web from member2: TaintUntolerated ...
//
// Which decisions take objects off a cluster, and what the cluster commit carries:
//
// | decision      | objects leave the cluster                          | on the cluster commit     |
// |---------------|----------------------------------------------------|---------------------------|
// | Evicted       | with purgeMode Directly, in this pass; a graceful   | Gitfleet-Eviction         |
// |               | task keeps them, so the render removes nothing yet  |                           |
// | EvictionDone  | the task is dropped: the kept copy leaves now       | Gitfleet-Eviction-Done    |
// |   copyKept    | the binding is scheduled there again: nothing leaves | nothing                  |
// | others        | no                                                 | nothing                   |
//
// The allowed paths are those of the evicted binding and of its followers (propagateDeps
// dependencies, whose records name it in requiredBy), which leave with it. Anything else the
// render removes is judged by the guard as before. The clusters the evicted replicas land on get
// the same Gitfleet-Eviction line on their commit, with no allowance: it says why they changed.
import type { Binding } from '../model/binding.js';
import type { FailoverDecision } from '../model/failover.js';
import { objectPath } from '../format/object-path.js';
import { decisionTrailerLines } from './failover-trailers.js';

/** What one cluster's evictions of a pass allow: the paths the guard lets go, and the commit's trailer lines. */
export interface ClusterEvictions {
  /** Paths (cluster branch layout) of the evicted bindings' objects and their followers. */
  paths: ReadonlySet<string>;
  /** `Gitfleet-Eviction: ...` / `Gitfleet-Eviction-Done: ...` lines, in decision order. */
  trailers: readonly string[];
}

const leaving: ReadonlySet<FailoverDecision['type']> = new Set(['Evicted', 'EvictionDone']);

/** Returns, per cluster, what the pass's eviction decisions allow (see the table above). */
export function evictionsByCluster(
  decisions: readonly FailoverDecision[],
  bindings: readonly Binding[],
): Map<string, ClusterEvictions> {
  const byKey = new Map(bindings.map((b) => [b.key, b]));
  const out = new Map<string, { paths: Set<string>; decisions: FailoverDecision[] }>();
  for (const d of decisions) {
    if (!leaving.has(d.type) || d.cluster === undefined || d.binding === undefined) continue;
    // A task ended with the binding scheduled there again: its copy stays, nothing leaves.
    if (d.copyKept) continue;
    const entry = out.get(d.cluster) ?? { paths: new Set<string>(), decisions: [] };
    out.set(d.cluster, entry);
    entry.decisions.push(d);
    const binding = byKey.get(d.binding);
    if (binding) entry.paths.add(objectPath(binding.resource));
    for (const b of bindings) if (b.requiredBy.includes(d.binding)) entry.paths.add(objectPath(b.resource));
    if (d.type !== 'Evicted' || binding?.schedule.type !== 'Scheduled') continue;
    for (const target of binding.schedule.clusters) {
      if (target.name === d.cluster) continue;
      const receiving = out.get(target.name) ?? { paths: new Set<string>(), decisions: [] };
      out.set(target.name, receiving);
      receiving.decisions.push(d);
    }
  }
  return new Map(
    [...out].map(([cluster, e]) => [
      cluster,
      { paths: e.paths, trailers: decisionTrailerLines(e.decisions) },
    ]),
  );
}

/**
 * Returns the cluster a Gitfleet-Eviction or Gitfleet-Eviction-Done value names
 * (`<binding> from <cluster>: <reason> ...`), or undefined for a value of another form.
 */
export function evictedClusterOf(value: string): string | undefined {
  const m = / from ([a-z0-9]([-a-z0-9.]*[a-z0-9])?): /.exec(value);
  return m?.[1];
}
