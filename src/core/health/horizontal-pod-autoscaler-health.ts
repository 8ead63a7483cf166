import { getPath, type KubeObject } from '../model/kube-object.js';
import { health, type Health } from './health.js';
import { conditionsOf, type Condition } from './object-fields.js';

// autoscaling/v1 has no status.conditions; the API server carries them in this annotation.
const v1ConditionsAnnotation = 'autoscaling.alpha.kubernetes.io/conditions';

/**
 * Returns the health of a HorizontalPodAutoscaler from its conditions.
 *
 * | condition (type / reason)                                             | health      |
 * |-----------------------------------------------------------------------|-------------|
 * | AbleToScale False / FailedGetScale, FailedUpdateScale                 | Degraded    |
 * | ScalingActive False / FailedGet…Metric, InvalidSelector, InvalidMetricSourceType | Degraded |
 * | AbleToScale True / SucceededRescale                                   | Healthy     |
 * | ScalingLimited / DesiredWithinRange, TooFewReplicas, TooManyReplicas  | Healthy     |
 * | none of these                                                         | Progressing |
 *
 * Source: gitops-engine `pkg/health/health_hpa.go`. Degraded wins over Healthy whatever the
 * condition order. ScalingActive False with ScalingDisabled (target scaled to zero) is a choice
 * of the user, not a failure, so it is not Degraded. Karmada has no HPA health rule.
 */
export function horizontalPodAutoscalerHealth(live: KubeObject): Health {
  const conditions = hpaConditions(live);
  const degraded = conditions.find(isDegraded);
  if (degraded) return health('Degraded', degraded.message || degraded.reason);
  const healthy = conditions.find(isHealthy);
  if (healthy) return health('Healthy', healthy.message);
  return health('Progressing', 'Waiting to Autoscale');
}

function hpaConditions(live: KubeObject): Condition[] {
  const fromStatus = conditionsOf(getPath(live, ['status', 'conditions']));
  if (fromStatus.length > 0) return fromStatus;
  const annotation = live.metadata.annotations?.[v1ConditionsAnnotation];
  if (!annotation) return [];
  try {
    return conditionsOf(JSON.parse(annotation));
  } catch {
    return [];
  }
}

function isDegraded(c: Condition): boolean {
  if (c.status !== 'False') return false;
  if (c.type === 'AbleToScale') return c.reason === 'FailedGetScale' || c.reason === 'FailedUpdateScale';
  if (c.type === 'ScalingActive') {
    return (
      /^FailedGet.*Metric$/.test(c.reason) ||
      c.reason === 'InvalidSelector' ||
      c.reason === 'InvalidMetricSourceType'
    );
  }
  return false;
}

function isHealthy(c: Condition): boolean {
  if (c.type === 'AbleToScale') return c.reason === 'SucceededRescale';
  if (c.type === 'ScalingLimited') {
    return (
      c.reason === 'DesiredWithinRange' || c.reason === 'TooFewReplicas' || c.reason === 'TooManyReplicas'
    );
  }
  return false;
}
