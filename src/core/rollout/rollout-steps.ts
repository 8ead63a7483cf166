// Which strategy rolls out a template, and in which step each cluster is (docs/rollout.md).
import type { Cluster } from '../model/cluster.js';
import type { Template } from '../model/fleet.js';
import type { RolloutStrategy } from '../model/rollout.js';
import { strategyLabel } from '../model/rollout.js';
import { clusterMatches } from '../select/cluster-matches.js';
import { selectorsPriority, PriorityMisMatch } from '../select/selector-priority.js';

/**
 * Returns the strategy that rolls out a template, or undefined: a RolloutStrategy of the
 * template's namespace before a ClusterRolloutStrategy, then the higher selector precision
 * (name > labelSelector > kind only, as policies match), then the name. A template is rolled
 * out by one strategy at most.
 */
export function strategyOf(
  template: Template,
  strategies: readonly RolloutStrategy[],
): RolloutStrategy | undefined {
  let best: { s: RolloutStrategy; rank: number } | undefined;
  for (const s of strategies) {
    if (s.kind === 'RolloutStrategy' && s.namespace !== template.ref.namespace) continue;
    const priority = selectorsPriority(s.resourceSelectors, template.object);
    if (priority === PriorityMisMatch) continue;
    const rank = (s.kind === 'RolloutStrategy' ? 10 : 0) + priority;
    if (!best || rank > best.rank || (rank === best.rank && strategyLabel(s) < strategyLabel(best.s))) {
      best = { s, rank };
    }
  }
  return best?.s;
}

/** Returns strategy label → the templates it rolls out (strategies selecting none are absent). */
export function templatesByStrategy(
  templates: readonly Template[],
  strategies: readonly RolloutStrategy[],
): Map<string, Template[]> {
  const by = new Map<string, Template[]>();
  if (strategies.length === 0) return by;
  for (const t of templates) {
    const s = strategyOf(t, strategies);
    if (!s) continue;
    const label = strategyLabel(s);
    const list = by.get(label);
    if (list) list.push(t);
    else by.set(label, [t]);
  }
  return by;
}

/** Returns the 1-based step a cluster is in: the first whose clusters match it, else the last. */
export function stepOfCluster(strategy: RolloutStrategy, cluster: Cluster): number {
  const { steps } = strategy;
  for (const [i, step] of steps.entries()) {
    if (step.clusters && clusterMatches(cluster, step.clusters)) return i + 1;
  }
  return steps.length;
}
