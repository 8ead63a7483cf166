// The one line a reviewer reads first (docs/review.md#the-verdict): how far a change reaches.
// It is computed from the same two renders the diff shows, and the refused deletions are judged
// by the hub's own rule (core/publish/plan-cluster-update.ts), so the line says what merging does:
//
// | field            | counts                                                                  |
// |------------------|-------------------------------------------------------------------------|
// | clusters         | clusters whose rendered files change (or that are added or removed)     |
// | added/changed/removed | rendered files (one object each) over every cluster                |
// | replicasMoved    | per template, replicas that leave one cluster for another: the smaller  |
// |                  | of the replicas gained and lost over its clusters (a scale-up moves none)|
// | replicasBefore/After | replicas scheduled over every template and cluster, base and head:  |
// |                  | the line shows them when they differ (a scale-up or down)               |
// | refusedDeletions | removals on clusters where the mass-deletion guard refuses the update  |
import type { Binding } from '../model/binding.js';
import type { FleetConfig } from '../model/fleet-config.js';
import { planClusterUpdate } from '../publish/plan-cluster-update.js';
import type { RenderDiff, RenderSide } from './diff-renders.js';

/** What a change does, in numbers, and the line that says it. */
export interface Verdict {
  clusters: number;
  added: number;
  changed: number;
  removed: number;
  replicasMoved: number;
  /** Replicas scheduled over every template and cluster on the base and on the head side. */
  replicasBefore: number;
  replicasAfter: number;
  refusedDeletions: number;
  /** The clusters whose update the guard refuses, by name. */
  refusedClusters: string[];
  /** The clusters a rollout reaches only in a later pass (RolloutPreview.later), by name. */
  laterClusters: string[];
  text: string;
}

export interface VerdictInput {
  diff: RenderDiff;
  base: RenderSide;
  head: RenderSide;
  /**
   * Per cluster, the files its branch holds before the merge (path → content or blob id of the
   * same kind as `head`'s); absent: the base render's files stand for them.
   */
  current?: ReadonlyMap<string, ReadonlyMap<string, string>>;
  guards: FleetConfig['guards'];
  /** Whether the head commit's message allows large deletions on a cluster (commit-trailers.ts). */
  deletionsAllowed: (cluster: string) => boolean;
  /** Which clusters the merge's pass changes and which a rollout reaches later (previewRollouts). */
  reach?: { now: readonly string[]; later: readonly string[] };
}

/** Returns the verdict of a diff: the counts and one line of text. */
export function judgeVerdict(input: VerdictInput): Verdict {
  const { diff } = input;
  let added = 0;
  let changed = 0;
  let removed = 0;
  for (const c of diff.clusters) {
    added += c.added;
    changed += c.changed;
    removed += c.removed;
  }
  const refused = refusedDeletions(input);
  const counts = {
    clusters: diff.clusters.length,
    added,
    changed,
    removed,
    replicasMoved: countReplicasMoved(input.base.bindings, input.head.bindings),
    replicasBefore: totalReplicas(input.base.bindings),
    replicasAfter: totalReplicas(input.head.bindings),
    refusedDeletions: refused.count,
    refusedClusters: refused.clusters,
    laterClusters: [...(input.reach?.later ?? [])],
  };
  // A cluster a rollout reaches only later is not touched now, though a diff without the hub's
  // state shows its change.
  const now = new Set(input.reach?.now ?? []);
  const laterOnly = new Set(counts.laterClusters.filter((c) => !now.has(c)));
  const touchedNow = diff.clusters.filter((c) => !laterOnly.has(c.cluster)).length;
  return { ...counts, text: verdictText({ ...counts, clusters: touchedNow }, diff.changed) };
}

/** Returns `verdict: …`, the line a reviewer reads first. */
export function verdictText(v: Omit<Verdict, 'text'>, changed: boolean): string {
  if (!changed) return 'verdict: no change on any cluster';
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const later = v.laterClusters;
  const parts = [
    later.length === 0
      ? `${plural(v.clusters, 'cluster')} touched`
      : `${plural(v.clusters, 'cluster')} touched now, ${plural(later.length, 'cluster')} later by a rollout (${listed(later)})`,
    `objects ${v.added} added, ${v.changed} changed, ${v.removed} removed`,
    v.replicasBefore === v.replicasAfter
      ? `${plural(v.replicasMoved, 'replica')} moved`
      : `replicas ${v.replicasBefore} → ${v.replicasAfter}, ${v.replicasMoved} moved`,
  ];
  const refused =
    v.refusedDeletions === 0
      ? 'no deletion refused by the mass-deletion guard'
      : `${plural(v.refusedDeletions, 'deletion')} the mass-deletion guard will refuse (${v.refusedClusters.join(', ')})`;
  return `verdict: ${parts.join('; ')}; ${refused}`;
}

// The first names, then how many more: the verdict stays one line on a big fleet.
function listed(names: readonly string[]): string {
  return names.length <= 5
    ? names.join(', ')
    : `${names.slice(0, 5).join(', ')} and ${names.length - 5} more`;
}

function refusedDeletions(input: VerdictInput): { count: number; clusters: string[] } {
  let count = 0;
  const clusters: string[] = [];
  for (const c of input.diff.clusters) {
    // A cluster no longer registered gets a tombstone, which the guard does not judge.
    if (c.presence === 'removed') continue;
    const head = input.head.clusters.get(c.cluster);
    if (!head) continue;
    const current =
      input.current?.get(c.cluster) ?? input.base.clusters.get(c.cluster)?.files ?? new Map<string, string>();
    const plan = planClusterUpdate({
      cluster: c.cluster,
      current,
      rendered: head.files,
      held: new Set(head.held?.keys() ?? []),
      guards: input.guards,
      deletionsAllowed: input.deletionsAllowed(c.cluster),
    });
    if (plan.type !== 'refused') continue;
    count += plan.changes.filter((x) => x.change === 'removed').length;
    clusters.push(c.cluster);
  }
  return { count, clusters };
}

/** Returns, summed over templates, the replicas that change cluster between two sets of bindings. */
export function countReplicasMoved(base: readonly Binding[], head: readonly Binding[]): number {
  const before = new Map(base.map((b) => [b.key, replicasByCluster(b)]));
  let moved = 0;
  for (const binding of head) {
    const from = before.get(binding.key);
    if (!from) continue;
    const to = replicasByCluster(binding);
    let gained = 0;
    let lost = 0;
    for (const cluster of new Set([...from.keys(), ...to.keys()])) {
      const delta = (to.get(cluster) ?? 0) - (from.get(cluster) ?? 0);
      if (delta > 0) gained += delta;
      else lost -= delta;
    }
    moved += Math.min(gained, lost);
  }
  return moved;
}

function totalReplicas(bindings: readonly Binding[]): number {
  let total = 0;
  for (const b of bindings) for (const n of replicasByCluster(b).values()) total += n;
  return total;
}

function replicasByCluster(binding: Binding): Map<string, number> {
  const targets = binding.schedule.type === 'Scheduled' ? binding.schedule.clusters : [];
  return new Map(targets.map((t) => [t.name, t.replicas]));
}
