import { getPath, isMap, type KubeObject } from '../model/kube-object.js';
import { parseTime } from '../model/rfc3339.js';
import { health, type Health, type HealthContext } from './health.js';
import { findCondition, intAt, isGenerationPending, specReplicas } from './object-fields.js';

/**
 * Returns the health of an apps Deployment.
 *
 * | state                                                        | health      |
 * |--------------------------------------------------------------|-------------|
 * | `spec.paused`                                                | Progressing (Argo CD: Suspended) |
 * | observedGeneration < generation                              | Progressing |
 * | ProgressDeadlineExceeded, sooner than the deadline after our apply | Progressing |
 * | Progressing condition with reason ProgressDeadlineExceeded   | Degraded    |
 * | updatedReplicas < spec.replicas                              | Progressing |
 * | replicas > updatedReplicas (old replicas terminating)        | Progressing |
 * | availableReplicas < updatedReplicas                          | Progressing |
 * | otherwise                                                    | Healthy     |
 *
 * Sources: gitops-engine `pkg/health/health_deployment.go` (the order and the deadline rule);
 * Karmada `pkg/resourceinterpreter/default/native/healthy.go` interpretDeploymentHealth (the
 * generation and replica counts, which it reads as healthy / unhealthy only).
 *
 * The deadline row is judged as of after the agent's last apply of the spec (context.specApplied,
 * for the generation the controller observed): the controller counts the deadline from the
 * Progressing condition's lastUpdateTime, which a spec change that shows no progress at once (a
 * revert to a ReplicaSet that is already complete while the stalled one still has its Pod)
 * inherits from before the apply. A deadline reported exceeded sooner than
 * progressDeadlineSeconds after the apply is that inherited clock, not the applied spec failing
 * (docs/rollout.md#the-progress-deadline-of-a-deployment).
 */
export function deploymentHealth(live: KubeObject, context: HealthContext = {}): Health {
  if (getPath(live, ['spec', 'paused']) === true) return health('Progressing', 'Deployment is paused');
  if (isGenerationPending(live)) {
    return health(
      'Progressing',
      'Waiting for rollout to finish: observed deployment generation less than desired generation',
    );
  }
  const progressing = findCondition(live, 'Progressing');
  if (progressing?.reason === 'ProgressDeadlineExceeded') {
    const inherited = inheritedDeadline(live, context);
    if (inherited) return health('Progressing', inherited);
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

/** API server default of spec.progressDeadlineSeconds. */
const defaultDeadlineSeconds = 600;
/** lastUpdateTime has second precision (truncated): a timeout may read up to 1 s early. */
const truncationMs = 1000;

/**
 * Returns why a ProgressDeadlineExceeded does not count against the spec the agent applied (the
 * deadline was reported exceeded sooner after the apply than the deadline), or undefined.
 */
function inheritedDeadline(live: KubeObject, context: HealthContext): string | undefined {
  const applied = context.specApplied;
  if (!applied || live.metadata.generation !== applied.generation) return undefined;
  const updatedMs = parseTime(progressingUpdateTime(live));
  if (updatedMs === undefined) return undefined;
  const deadline = intAt(live, ['spec', 'progressDeadlineSeconds'], defaultDeadlineSeconds);
  const sinceMs = updatedMs - applied.atMs;
  if (sinceMs + truncationMs >= deadline * 1000) return undefined;
  const message = findCondition(live, 'Progressing')?.message ?? '';
  // Within the field's precision of the apply reads as 0 s after it, not before it.
  const since = sinceMs <= -truncationMs ? 'before' : `${Math.max(0, Math.floor(sinceMs / 1000))}s after`;
  return (
    `Waiting for rollout to finish: the controller reported its progress deadline exceeded ${since} ` +
    `generation ${applied.generation} was applied, sooner than its ${deadline}s deadline (counted from ` +
    `before the apply)${message ? `: ${message}` : ''}`
  );
}

function progressingUpdateTime(live: KubeObject): string {
  const conditions = getPath(live, ['status', 'conditions']);
  if (!Array.isArray(conditions)) return '';
  const found = conditions.find((c) => isMap(c) && c.type === 'Progressing');
  return isMap(found) && typeof found.lastUpdateTime === 'string' ? found.lastUpdateTime : '';
}
