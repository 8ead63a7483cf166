import type { Taint, Toleration } from '../model/cluster.js';

/**
 * Returns whether a toleration tolerates a taint (Kubernetes' Toleration.ToleratesTaint,
 * k8s.io/api/core/v1/toleration.go, without the Lt/Gt operators Karmada leaves disabled):
 *
 *   | toleration field | matches when                                          |
 *   |------------------|-------------------------------------------------------|
 *   | effect           | empty, or equal to the taint's effect                 |
 *   | key              | empty, or equal to the taint's key                    |
 *   | operator Exists  | always (so empty key + Exists tolerates every taint)  |
 *   | operator Equal/"" | the values are equal (absent value = "")             |
 */
export function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  switch (toleration.operator ?? 'Equal') {
    case 'Exists':
      return true;
    case 'Equal':
      return (toleration.value ?? '') === (taint.value ?? '');
  }
}

/**
 * Returns the first taint with effect NoSchedule or NoExecute that no toleration tolerates, or
 * undefined (Karmada's TaintToleration filter, pkg/scheduler/framework/plugins/tainttoleration:
 * v1helper.FindMatchingUntoleratedTaint with a NoSchedule/NoExecute filter; PreferNoSchedule is ignored).
 */
export function findUntoleratedTaint(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
): Taint | undefined {
  return taints.find(
    (taint) =>
      (taint.effect === 'NoSchedule' || taint.effect === 'NoExecute') &&
      !tolerations.some((toleration) => toleratesTaint(toleration, taint)),
  );
}

/** Returns Kubernetes' Taint.ToString(): `key=value:effect`, or `key:effect` without a value. */
export function formatTaint(taint: Taint): string {
  return taint.value ? `${taint.key}=${taint.value}:${taint.effect}` : `${taint.key}:${taint.effect}`;
}
