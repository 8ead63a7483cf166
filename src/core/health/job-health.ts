import { getPath, type KubeObject } from '../model/kube-object.js';
import { health, type Health } from './health.js';
import { conditionsOf } from './object-fields.js';

/**
 * Returns the health of a batch Job.
 *
 * | state                                              | health      |
 * |----------------------------------------------------|-------------|
 * | Failed condition True                              | Degraded    |
 * | Complete condition True                            | Healthy     |
 * | Suspended condition True, or `spec.suspend`        | Progressing (Argo CD: Suspended) |
 * | otherwise (running or not started)                 | Progressing |
 *
 * Source: gitops-engine `pkg/health/health_job.go`. Karmada has no Job health rule. Only
 * conditions with status True count: the Job controller flips Suspended to False on resume.
 */
export function jobHealth(live: KubeObject): Health {
  const conditions = conditionsOf(getPath(live, ['status', 'conditions'])).filter((c) => c.status === 'True');
  const failed = conditions.find((c) => c.type === 'Failed');
  if (failed) return health('Degraded', failed.message || failed.reason || 'Job failed');
  const complete = conditions.find((c) => c.type === 'Complete');
  if (complete) return health('Healthy', complete.message);
  const suspended = conditions.find((c) => c.type === 'Suspended');
  if (suspended || getPath(live, ['spec', 'suspend']) === true) {
    return health('Progressing', suspended?.message || 'Job is suspended');
  }
  return health('Progressing', 'Job is running');
}
