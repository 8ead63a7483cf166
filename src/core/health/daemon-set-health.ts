import type { KubeObject } from '../model/kube-object.js';
import { health, type Health } from './health.js';
import { intAt, isGenerationPending, stringAt } from './object-fields.js';

/**
 * Returns the health of an apps DaemonSet.
 *
 * | state                                                  | health      |
 * |--------------------------------------------------------|-------------|
 * | observedGeneration < generation                        | Progressing |
 * | OnDelete update strategy                               | Healthy     |
 * | updatedNumberScheduled < desiredNumberScheduled        | Progressing |
 * | numberAvailable < desiredNumberScheduled               | Progressing |
 * | otherwise                                              | Healthy     |
 *
 * Sources: gitops-engine `pkg/health/health_daemonset.go`; Karmada interpretDaemonSetHealth
 * (`pkg/resourceinterpreter/default/native/healthy.go`), which compares numberAvailable with
 * updatedNumberScheduled, implied here once all pods are updated.
 */
export function daemonSetHealth(live: KubeObject): Health {
  if (isGenerationPending(live)) {
    return health(
      'Progressing',
      'Waiting for rollout to finish: observed daemon set generation less than desired generation',
    );
  }
  const desired = intAt(live, ['status', 'desiredNumberScheduled']);
  const updated = intAt(live, ['status', 'updatedNumberScheduled']);
  const available = intAt(live, ['status', 'numberAvailable']);
  if (stringAt(live, ['spec', 'updateStrategy', 'type']) === 'OnDelete') {
    return health('Healthy', `daemon set ${updated} out of ${desired} new pods have been updated`);
  }
  if (updated < desired) {
    return health(
      'Progressing',
      `Waiting for daemon set rollout to finish: ${updated} out of ${desired} new pods have been updated`,
    );
  }
  if (available < desired) {
    return health(
      'Progressing',
      `Waiting for daemon set rollout to finish: ${available} of ${desired} updated pods are available`,
    );
  }
  return health('Healthy');
}
