import type { KubeObject } from '../model/kube-object.js';
import { health, type Health } from './health.js';
import { intAt, isGenerationPending } from './object-fields.js';

/**
 * Returns the health of a PodDisruptionBudget: Healthy when `currentHealthy ≥ desiredHealthy`,
 * Progressing otherwise (the pods it guards are not all up yet) or while its controller has not
 * observed the latest spec.
 *
 * Source: Karmada interpretPodDisruptionBudgetHealth
 * (`pkg/resourceinterpreter/default/native/healthy.go`), which calls the second case unhealthy.
 */
export function podDisruptionBudgetHealth(live: KubeObject): Health {
  if (isGenerationPending(live)) return health('Progressing', 'Waiting for the budget to be observed');
  const current = intAt(live, ['status', 'currentHealthy']);
  const desired = intAt(live, ['status', 'desiredHealthy']);
  if (current < desired) return health('Progressing', `${current} of ${desired} desired pods are healthy`);
  return health('Healthy');
}
