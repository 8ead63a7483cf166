import { getPath, type KubeObject } from '../model/kube-object.js';

/**
 * The replica workloads Karmada's default interpreter knows, by apiVersion and kind
 * (pkg/resourceinterpreter/default/native/replica.go and revisereplica.go):
 *
 * | apiVersion / kind                              | replicas (InterpretReplica)                 | revised (ReviseReplica)        |
 * |------------------------------------------------|---------------------------------------------|--------------------------------|
 * | apps/v1 Deployment, ReplicaSet, StatefulSet    | spec.replicas                               | spec.replicas                  |
 * | batch/v1 Job                                   | min(spec.parallelism, spec.completions)     | spec.parallelism (+completions)|
 * | v1 Pod                                         | always 1                                    | never                          |
 * | anything else                                  | 0                                           | never                          |
 *
 * Karmada reads templates the API server has already defaulted; a template in Git is not, so the
 * API server's defaults are applied here: replicas and parallelism default to 1, and a Job's
 * completions default to its parallelism when unset (to 1 when both are unset).
 */
export type ReplicaKind = 'scaled' | 'job' | 'pod';

const REPLICA_KINDS: Readonly<Record<string, ReplicaKind>> = {
  'apps/v1/Deployment': 'scaled',
  'apps/v1/ReplicaSet': 'scaled',
  'apps/v1/StatefulSet': 'scaled',
  'batch/v1/Job': 'job',
  'v1/Pod': 'pod',
};

/** Returns which replica workload the object is, or undefined when Karmada sees no replicas in it. */
export function replicaKindOf(object: KubeObject): ReplicaKind | undefined {
  return REPLICA_KINDS[`${object.apiVersion}/${object.kind}`];
}

/** Returns the replicas Karmada's InterpretReplica reads from a template (API-server defaults applied). */
export function templateReplicas(object: KubeObject): number {
  switch (replicaKindOf(object)) {
    case 'scaled':
      return countAt(object, 'replicas') ?? 1;
    case 'job':
      return jobReplicas(object);
    case 'pod':
      return 1;
    case undefined:
      return 0;
  }
}

/** Returns whether Karmada revises the object's replicas per cluster (Deployment, ReplicaSet, StatefulSet, Job). */
export function hasReplicas(object: KubeObject): boolean {
  const kind = replicaKindOf(object);
  return kind === 'scaled' || kind === 'job';
}

/**
 * Returns a Job's completions as the API server defaults them (undefined for a work-queue Job,
 * which sets parallelism but not completions, and for anything that is not a Job). When the
 * placement divides replicas, Karmada divides this number over the clusters too, weighted by each
 * cluster's replicas (pkg/controllers/binding/common.go divideReplicasByJobCompletions).
 */
export function templateJobCompletions(object: KubeObject): number | undefined {
  if (replicaKindOf(object) !== 'job') return undefined;
  const completions = countAt(object, 'completions');
  if (completions !== undefined) return completions;
  return countAt(object, 'parallelism') === undefined ? 1 : undefined;
}

// For fixed-completion Jobs no more pods run at once than there are completions left, so
// Karmada caps parallelism by completions.
function jobReplicas(object: KubeObject): number {
  const parallelism = countAt(object, 'parallelism') ?? 1;
  const completions = templateJobCompletions(object) ?? parallelism;
  return Math.min(parallelism, completions);
}

function countAt(object: KubeObject, field: string): number | undefined {
  const value = getPath(object, ['spec', field]);
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}
