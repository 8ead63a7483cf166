import { deepCopy, isMap, type KubeObject } from '../model/kube-object.js';
import { replicaKindOf, templateJobCompletions } from './template-replicas.js';

/**
 * Returns a copy of the template with its replicas revised to what the scheduler assigned to one
 * cluster; the input is never changed. Karmada revises "regardless of whether the workload
 * distribution mode is Divided or Duplicated" (pkg/controllers/binding/common.go ensureWork):
 *
 * | kind                                | field set                                                  |
 * |-------------------------------------|------------------------------------------------------------|
 * | Deployment, ReplicaSet, StatefulSet | spec.replicas = replicas                                   |
 * | Job                                 | spec.parallelism = replicas; spec.completions = completions |
 * | anything else (Pod included)        | nothing                                                    |
 *
 * Karmada only overwrites fields the (API-server-defaulted) template has; a Git template is not
 * defaulted, so replicas and parallelism are always written, as the defaulted field would be.
 * A Job's completions are divided only when the placement divides replicas, and only when the
 * template has completions (`templateJobCompletions`); the division itself (spreading them over the
 * clusters with each cluster's replicas as weights, helper.SpreadReplicasByTargetClusters) needs
 * every cluster's share, so the caller passes this cluster's part in `opts.completions`.
 */
export function reviseReplicas(
  object: KubeObject,
  replicas: number,
  opts: { completions?: number } = {},
): KubeObject {
  const kind = replicaKindOf(object);
  if (kind !== 'scaled' && kind !== 'job') return deepCopy(object);
  const revised = deepCopy(object);
  const spec = isMap(revised.spec) ? revised.spec : {};
  revised.spec = spec;
  if (kind === 'scaled') {
    spec.replicas = replicas;
    return revised;
  }
  spec.parallelism = replicas;
  if (opts.completions !== undefined && templateJobCompletions(object) !== undefined) {
    spec.completions = opts.completions;
  }
  return revised;
}
