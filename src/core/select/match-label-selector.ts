import type { LabelSelector, LabelSelectorRequirement } from '../model/selectors.js';

/**
 * Returns whether labels satisfy a Kubernetes label selector: every matchLabels pair and every
 * matchExpression must hold. An empty selector matches everything (metav1.LabelSelectorAsSelector).
 */
export function matchLabelSelector(
  selector: LabelSelector,
  labels: Readonly<Record<string, string>>,
): boolean {
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (labels[key] !== value) return false;
  }
  return (selector.matchExpressions ?? []).every((req) => matchRequirement(req, labels));
}

function matchRequirement(req: LabelSelectorRequirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, req.key);
  const value = labels[req.key];
  switch (req.operator) {
    case 'In':
      return has && (req.values ?? []).includes(value as string);
    case 'NotIn':
      return !has || !(req.values ?? []).includes(value as string);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
  }
}
