import { getPath, type KubeObject } from '../model/kube-object.js';
import { health, type Health } from './health.js';
import { findCondition, intAt, isGenerationPending, specReplicas } from './object-fields.js';

/**
 * Returns the health of an apps Deployment.
 *
 * | state                                                        | health      |
 * |--------------------------------------------------------------|-------------|
 * | `spec.paused`                                                | Progressing (Argo CD: Suspended) |
 * | observedGeneration < generation                              | Progressing |
 * | Progressing condition with reason ProgressDeadlineExceeded   | Degraded    |
 * | updatedReplicas < spec.replicas                              | Progressing |
 * | replicas > updatedReplicas (old replicas terminating)        | Progressing |
 * | availableReplicas < updatedReplicas                          | Progressing |
 * | otherwise                                                    | Healthy     |
 *
 * Sources: gitops-engine `pkg/health/health_deployment.go` (the order and the deadline rule);
 * Karmada `pkg/resourceinterpreter/default/native/healthy.go` interpretDeploymentHealth (the
 * generation and replica counts, which it reads as healthy / unhealthy only).
 */
export function deploymentHealth(live: KubeObject): Health {
  if (getPath(live, ['spec', 'paused']) === true) return health('Progressing', 'Deployment is paused');
  if (isGenerationPending(live)) {
    return health(
      'Progressing',
      'Waiting for rollout to finish: observed deployment generation less than desired generation',
    );
  }
  const progressing = findCondition(live, 'Progressing');
  if (progressing?.reason === 'ProgressDeadlineExceeded') {
    return health(
      'Degraded',
      progressing.message || `Deployment "${live.metadata.name}" exceeded its progress deadline`,
    );
  }
  const wanted = specReplicas(live);
  const replicas = intAt(live, ['status', 'replicas']);
  const updated = intAt(live, ['status', 'updatedReplicas']);
  const available = intAt(live, ['status', 'availableReplicas']);
  if (wanted !== undefined && updated < wanted) {
    return health(
      'Progressing',
      `Waiting for rollout to finish: ${updated} out of ${wanted} new replicas have been updated`,
    );
  }
  if (replicas > updated) {
    return health(
      'Progressing',
      `Waiting for rollout to finish: ${replicas - updated} old replicas are pending termination`,
    );
  }
  if (available < updated) {
    return health(
      'Progressing',
      `Waiting for rollout to finish: ${available} of ${updated} updated replicas are available`,
    );
  }
  return health('Healthy');
}
