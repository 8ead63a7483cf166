import type { ClusterStatus, Taint } from './cluster.js';

// The taints Karmada's cluster controller keeps on a cluster from its Ready condition
// (pkg/controllers/cluster/cluster_controller.go, taintClusterByCondition; keys in
// pkg/apis/cluster/v1alpha1/well_known_constants.go):
//
//   | Ready condition | adds                                   | removes                  |
//   |-----------------|----------------------------------------|--------------------------|
//   | False           | cluster.karmada.io/not-ready:NoSchedule | unreachable              |
//   | Unknown         | cluster.karmada.io/unreachable:NoSchedule | not-ready              |
//   | True            | nothing                                | not-ready, unreachable   |
//   | absent          | not-ready (Karmada); nothing (gitfleet) | nothing                 |
//
// gitfleet difference: with no status, or a status without a Ready condition, nothing is
// added. Karmada's controller probes every cluster itself, so "no condition" means "never
// probed yet"; here status comes only from the agent, and a cluster whose agent has not
// reported yet must stay schedulable, or the agent would never get anything to apply.
//
// The table is read twice: by the hub, which keeps these taints with the time it added them
// (core/failover/cluster-taints.ts), and by a render without the hub's taints (`gitfleet
// render`, `diff`), which derives them on the fly (core/schedule/effective-taints.ts). It sits
// in the model so the scheduler does not import the failover stage, which imports the scheduler.
export const NOT_READY_TAINT: Taint = { key: 'cluster.karmada.io/not-ready', effect: 'NoSchedule' };
export const UNREACHABLE_TAINT: Taint = { key: 'cluster.karmada.io/unreachable', effect: 'NoSchedule' };

/** The Ready condition's status, and what it makes the cluster controller add and remove. */
export interface ConditionTaints {
  ready: 'True' | 'False' | 'Unknown' | undefined;
  add: Taint[];
  remove: Taint[];
}

/** Returns the taints the Ready condition adds and removes (the table above). */
export function conditionTaints(status: ClusterStatus | undefined): ConditionTaints {
  const ready = status?.conditions?.find((c) => c.type === 'Ready')?.status;
  switch (ready) {
    case 'False':
      return { ready, add: [NOT_READY_TAINT], remove: [UNREACHABLE_TAINT] };
    case 'Unknown':
      return { ready, add: [UNREACHABLE_TAINT], remove: [NOT_READY_TAINT] };
    case 'True':
      return { ready, add: [], remove: [NOT_READY_TAINT, UNREACHABLE_TAINT] };
    default:
      return { ready: undefined, add: [], remove: [] };
  }
}
