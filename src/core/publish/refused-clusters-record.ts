// A binding record's status.refusedClusters (gitfleet's, beside Karmada's Scheduled condition):
// which clusters the last schedule left out, the filter that said no and its words, and for a
// taint the taint itself. Written by bindingRecord, read back by parseBindingView and
// parseBindingRecord (a kept schedule keeps saying why), worded for users by
// core/status/explain-refusal.ts.
import type { ClusterDiagnosis, RefusingFilter, ScheduleResult } from '../model/binding.js';
import type { Taint } from '../model/cluster.js';
import { isMap } from '../model/kube-object.js';

/**
 * Returns the status.refusedClusters field of a schedule: every cluster after a filter failure,
 * the refusals by filters other than the affinity otherwise (ScheduleResult's `refused`); none
 * when nothing was refused.
 */
export function refusedClustersField(schedule: ScheduleResult): { refusedClusters?: RefusedClusterField[] } {
  const refused = schedule.type === 'NoFit' ? schedule.diagnosis : schedule.refused;
  if (!refused || refused.length === 0) return {};
  return {
    refusedClusters: refused.map((d) => ({
      name: d.cluster,
      filter: d.filter,
      reason: d.reason,
      ...(d.taint ? { taint: { ...d.taint } } : {}),
    })),
  };
}

/** One entry of status.refusedClusters. */
export interface RefusedClusterField {
  name: string;
  filter: RefusingFilter;
  reason: string;
  taint?: Taint;
}

const refusingFilters: readonly RefusingFilter[] = [
  'ClusterAffinity',
  'ClusterEviction',
  'TaintToleration',
  'APIEnablement',
  'SpreadConstraint',
  'Unregistered',
  'Capacity',
];
const taintEffects: readonly Taint['effect'][] = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** Returns the refusals a record's status.refusedClusters holds; an entry this version does not know (no name, another filter) is left out. */
export function parseRefusedClusters(value: unknown): ClusterDiagnosis[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isMap).flatMap((item): ClusterDiagnosis[] => {
    const filter = refusingFilters.find((f) => f === item.filter);
    if (typeof item.name !== 'string' || filter === undefined) return [];
    const taint = isMap(item.taint) ? taintOf(item.taint) : undefined;
    return [
      {
        cluster: item.name,
        filter,
        reason: typeof item.reason === 'string' ? item.reason : '',
        ...(taint ? { taint } : {}),
      },
    ];
  });
}

function taintOf(item: Record<string, unknown>): Taint | undefined {
  const effect = taintEffects.find((e) => e === item.effect);
  if (typeof item.key !== 'string' || effect === undefined) return undefined;
  return { key: item.key, ...(typeof item.value === 'string' ? { value: item.value } : {}), effect };
}
