// Fixtures shared by the scheduler tests: a schedule input around a Deployment, and statuses.
import type { ClusterStatus } from '../../../src/core/model/cluster.js';
import { refKey, type ObjectRef } from '../../../src/core/model/object-ref.js';
import type { ScheduleResult } from '../../../src/core/model/binding.js';
import type { ScheduleInput } from '../../../src/core/schedule/schedule-input.js';
import { aCluster, aPlacement } from '../builders.js';

export const NGINX: ObjectRef = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  namespace: 'default',
  name: 'nginx',
};

/** Returns a schedule input for Deployment default/nginx over clusters named `names`. */
export function anInput(
  extra: Partial<ScheduleInput> = {},
  names: string[] = ['member1', 'member2', 'member3'],
): ScheduleInput {
  return {
    resource: NGINX,
    key: refKey(NGINX),
    replicas: 0,
    placement: aPlacement(),
    clusters: names.map((name) => aCluster(name)),
    clusterStatus: new Map(),
    ...extra,
  };
}

/** Returns a status reporting free capacity (allocatable only) and, optionally, a Ready condition. */
export function capacity(free: { cpu?: string; memory?: string; pods?: string }): ClusterStatus {
  const allocatable: Record<string, string> = {};
  if (free.cpu !== undefined) allocatable['cpu'] = free.cpu;
  if (free.memory !== undefined) allocatable['memory'] = free.memory;
  allocatable['pods'] = free.pods ?? '110';
  return { resourceSummary: { allocatable } };
}

/** Returns `name:replicas` pairs of a Scheduled result, or `NoFit: message`. */
export function placementOf(result: ScheduleResult): string {
  if (result.type === 'NoFit') return `NoFit: ${result.message}`;
  return result.clusters.map((c) => `${c.name}:${c.replicas}`).join(' ');
}
