// Karmada's default NoExecute tolerations (docs/failover.md#default-tolerations). Up to v1.14,
// Karmada's PropagationPolicy and ClusterPropagationPolicy mutating webhooks
// (pkg/webhook/propagationpolicy/mutating.go, helper.AddTolerations) gave every policy two
// tolerations it did not already have:
//
//   | key                            | operator | effect    | tolerationSeconds                          |
//   |--------------------------------|----------|-----------|--------------------------------------------|
//   | cluster.karmada.io/not-ready   | Exists   | NoExecute | --default-not-ready-toleration-seconds (300)   |
//   | cluster.karmada.io/unreachable | Exists   | NoExecute | --default-unreachable-toleration-seconds (300) |
//
// "Already had" is Kubernetes' MatchToleration: the same key, operator, value and effect (the
// seconds are not compared), so a policy's own `{key: cluster.karmada.io/unreachable, operator:
// Exists, effect: NoExecute, tolerationSeconds: 0}` replaces the default. Karmada removed the
// flags in v1.15, when it stopped adding those NoExecute taints itself; gitfleet keeps them,
// because the ClusterTaintPolicy one writes to fail over adds exactly those taints, and without a
// default a cluster gone for one monitor grace period loses every workload that does not say
// otherwise, and a flapping agent loses them again at each flap.
//
// Where gitfleet differs: Karmada writes them into the stored policy; gitfleet adds them where the
// taint manager reads a binding's tolerations (taint-evictions.ts), not at load time. So the
// rendered records and `policy.karmada.io/applied-placement` stay as the repository says (a hub
// with other flags asks no reschedule, and `gitfleet render`/`diff`, which have no such flags,
// render what the hub renders), and only the timing of NoExecute evictions changes. The
// scheduler's TaintToleration filter does not see them: a cluster with one of those NoExecute
// taints is Ready=False/Unknown, whose NoSchedule condition taint already keeps new placements off.
import type { Toleration } from '../model/cluster.js';
import type { FailoverSettings } from '../model/failover.js';

export const notReadyTaintKey = 'cluster.karmada.io/not-ready';
export const unreachableTaintKey = 'cluster.karmada.io/unreachable';

/** Returns the tolerations with Karmada's default not-ready and unreachable NoExecute ones added when absent. */
export function withDefaultTolerations(
  tolerations: readonly Toleration[],
  settings: Pick<
    FailoverSettings,
    'defaultNotReadyTolerationSeconds' | 'defaultUnreachableTolerationSeconds'
  >,
): readonly Toleration[] {
  const defaults: Toleration[] = [
    defaultToleration(notReadyTaintKey, settings.defaultNotReadyTolerationSeconds),
    defaultToleration(unreachableTaintKey, settings.defaultUnreachableTolerationSeconds),
  ].filter((d) => !tolerations.some((t) => matchesToleration(t, d)));
  return defaults.length === 0 ? tolerations : [...tolerations, ...defaults];
}

function defaultToleration(key: string, seconds: number): Toleration {
  return { key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds };
}

// Kubernetes' Toleration.MatchToleration; an absent operator is Equal, as Kubernetes reads it.
function matchesToleration(a: Toleration, b: Toleration): boolean {
  return (
    (a.key ?? '') === (b.key ?? '') &&
    (a.operator ?? 'Equal') === (b.operator ?? 'Equal') &&
    (a.value ?? '') === (b.value ?? '') &&
    (a.effect ?? '') === (b.effect ?? '')
  );
}
