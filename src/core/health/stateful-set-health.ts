import { getPath, type KubeObject } from '../model/kube-object.js';
import { health, type Health } from './health.js';
import { intAt, specReplicas, stringAt } from './object-fields.js';

/**
 * Returns the health of an apps StatefulSet.
 *
 * | state                                                              | health      |
 * |--------------------------------------------------------------------|-------------|
 * | observedGeneration 0 or < generation                               | Progressing |
 * | readyReplicas < spec.replicas                                      | Progressing |
 * | RollingUpdate with a partition: updatedReplicas < replicas − partition | Progressing |
 * | RollingUpdate with a partition, otherwise                          | Healthy     |
 * | OnDelete update strategy                                           | Healthy     |
 * | currentRevision ≠ updateRevision (rolling update under way)        | Progressing |
 * | otherwise                                                          | Healthy     |
 *
 * Source: gitops-engine `pkg/health/health_statefulset.go`. Karmada's interpretStatefulSetHealth
 * (`pkg/resourceinterpreter/default/native/healthy.go`) checks the generation and
 * updated/available replicas, which the rows above imply once the rollout is complete.
 */
export function statefulSetHealth(live: KubeObject): Health {
  const observed = intAt(live, ['status', 'observedGeneration']);
  if (observed === 0 || observed < intAt(live, ['metadata', 'generation'])) {
    return health('Progressing', 'Waiting for statefulset spec update to be observed');
  }
  const wanted = specReplicas(live);
  const ready = intAt(live, ['status', 'readyReplicas']);
  if (wanted !== undefined && ready < wanted) {
    return health('Progressing', `Waiting for ${wanted - ready} pods to be ready`);
  }
  const strategy = stringAt(live, ['spec', 'updateStrategy', 'type']) || 'RollingUpdate';
  const partition = getPath(live, ['spec', 'updateStrategy', 'rollingUpdate', 'partition']);
  if (strategy === 'RollingUpdate' && wanted !== undefined && typeof partition === 'number') {
    const updated = intAt(live, ['status', 'updatedReplicas']);
    const expected = Math.max(0, wanted - partition);
    if (updated < expected) {
      return health(
        'Progressing',
        `Waiting for partitioned roll out to finish: ${updated} out of ${expected} new pods have been updated`,
      );
    }
    return health('Healthy', `partitioned roll out complete: ${updated} new pods have been updated`);
  }
  if (strategy === 'OnDelete') return health('Healthy', `statefulset has ${ready} ready pods`);
  const current = stringAt(live, ['status', 'currentRevision']);
  const update = stringAt(live, ['status', 'updateRevision']);
  if (current !== update) {
    return health(
      'Progressing',
      `waiting for statefulset rolling update to complete: ${intAt(live, ['status', 'updatedReplicas'])} pods at revision ${update}`,
    );
  }
  return health(
    'Healthy',
    `statefulset rolling update complete: ${current ? `revision ${current}` : 'no revision'}`,
  );
}
