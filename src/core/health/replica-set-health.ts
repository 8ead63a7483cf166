import type { KubeObject } from '../model/kube-object.js';
import { health, type Health } from './health.js';
import { findCondition, intAt, isGenerationPending, specReplicas } from './object-fields.js';

/**
 * Returns the health of an apps ReplicaSet.
 *
 * | state                                           | health      |
 * |-------------------------------------------------|-------------|
 * | observedGeneration < generation                 | Progressing |
 * | ReplicaFailure condition True                   | Degraded    |
 * | availableReplicas < spec.replicas               | Progressing |
 * | otherwise                                       | Healthy     |
 *
 * Sources: gitops-engine `pkg/health/health_replicaset.go`; Karmada interpretReplicaSetHealth
 * (`pkg/resourceinterpreter/default/native/healthy.go`).
 */
export function replicaSetHealth(live: KubeObject): Health {
  if (isGenerationPending(live)) {
    return health(
      'Progressing',
      'Waiting for rollout to finish: observed replica set generation less than desired generation',
    );
  }
  const failure = findCondition(live, 'ReplicaFailure');
  if (failure?.status === 'True') return health('Degraded', failure.message || failure.reason);
  const wanted = specReplicas(live);
  const available = intAt(live, ['status', 'availableReplicas']);
  if (wanted !== undefined && available < wanted) {
    return health(
      'Progressing',
      `Waiting for rollout to finish: ${available} out of ${wanted} new replicas are available`,
    );
  }
  return health('Healthy');
}
