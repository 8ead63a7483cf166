import { getPath, type KubeObject } from '../model/kube-object.js';
import { health, type Health } from './health.js';
import { conditionsOf, isGenerationPending, type Condition } from './object-fields.js';

/**
 * Returns the health of an object of a kind without its own rule, from the status conventions
 * most controllers follow (Kubernetes API conventions and kstatus, as Flux reads them):
 *
 * | state                                                   | health      |
 * |---------------------------------------------------------|-------------|
 * | status.observedGeneration < metadata.generation         | Progressing |
 * | Stalled condition True                                  | Degraded    |
 * | Reconciling condition True                              | Progressing |
 * | Ready (else Available) condition True                   | Healthy     |
 * | Ready (else Available) condition False                  | Degraded    |
 * | Ready (else Available) condition Unknown or empty       | Progressing |
 * | no such condition (ConfigMaps, Secrets, RBAC, …)        | Healthy     |
 *
 * An object that exists and follows no status convention is Healthy: Argo CD reports no health
 * for such kinds, and Karmada, where it has no interpreter, reports its health as Unknown; for a
 * ConfigMap either would leave a fully applied fleet looking unfinished.
 */
export function genericHealth(live: KubeObject): Health {
  const conditions = conditionsOf(getPath(live, ['status', 'conditions']));
  // Only objects that report an observedGeneration follow the convention; others are not judged by it.
  if (typeof getPath(live, ['status', 'observedGeneration']) === 'number' && isGenerationPending(live)) {
    return health('Progressing', 'Waiting for the controller to observe the latest generation');
  }
  const stalled = conditions.find((c) => c.type === 'Stalled' && c.status === 'True');
  if (stalled) return health('Degraded', describe(stalled));
  const reconciling = conditions.find((c) => c.type === 'Reconciling' && c.status === 'True');
  if (reconciling) return health('Progressing', describe(reconciling));
  const ready = conditions.find((c) => c.type === 'Ready') ?? conditions.find((c) => c.type === 'Available');
  if (!ready) return health('Healthy');
  if (ready.status === 'True') return health('Healthy', ready.message);
  if (ready.status === 'False') return health('Degraded', describe(ready));
  return health('Progressing', describe(ready));
}

function describe(c: Condition): string {
  return c.message || c.reason || `${c.type} is ${c.status || 'unknown'}`;
}
