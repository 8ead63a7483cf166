import type { KubeObject } from '../model/kube-object.js';
import type { ResourceSelector } from '../model/selectors.js';
import { matchLabelSelector } from './match-label-selector.js';

/**
 * Karmada's implicit priority of a resource selector against an object
 * (pkg/util/selector.go ResourceSelectorPriority):
 *
 * | selector                                   | priority              |
 * |--------------------------------------------|-----------------------|
 * | apiVersion/kind/namespace differ           | 0 MisMatch            |
 * | name set and equal (labelSelector ignored) | 3 MatchName           |
 * | name set and different                     | 0 MisMatch            |
 * | no labelSelector                           | 1 MatchAll            |
 * | labelSelector matches the object's labels  | 2 MatchLabelSelector  |
 * | labelSelector does not match               | 0 MisMatch            |
 */
export type SelectorPriority = 0 | 1 | 2 | 3;
export const PriorityMisMatch = 0;
export const PriorityMatchAll = 1;
export const PriorityMatchLabelSelector = 2;
export const PriorityMatchName = 3;

/** Returns the implicit priority of one selector for an object (0 when it does not match). */
export function selectorPriority(selector: ResourceSelector, object: KubeObject): SelectorPriority {
  if (selector.apiVersion !== object.apiVersion || selector.kind !== object.kind) return PriorityMisMatch;
  if (selector.namespace && selector.namespace !== (object.metadata.namespace ?? '')) return PriorityMisMatch;
  if (selector.name) return selector.name === object.metadata.name ? PriorityMatchName : PriorityMisMatch;
  if (!selector.labelSelector) return PriorityMatchAll;
  return matchLabelSelector(selector.labelSelector, object.metadata.labels ?? {})
    ? PriorityMatchLabelSelector
    : PriorityMisMatch;
}

/** Returns the highest implicit priority over a policy's selectors (ResourceMatchSelectorsPriority). */
export function selectorsPriority(
  selectors: readonly ResourceSelector[],
  object: KubeObject,
): SelectorPriority {
  let best: SelectorPriority = PriorityMisMatch;
  for (const selector of selectors) {
    const p = selectorPriority(selector, object);
    if (p > best) best = p;
    if (best === PriorityMatchName) break;
  }
  return best;
}
