import type { KubeObject } from '../model/kube-object.js';
import { health, type Health } from './health.js';
import { stringAt } from './object-fields.js';

/**
 * Returns the health of a Namespace: Active is Healthy; Terminating (being deleted, or stuck on
 * finalizers) is Progressing; no phase yet is Progressing too.
 *
 * Neither gitops-engine nor Karmada has a Namespace rule (both report no health); gitfleet adds
 * this one because a Namespace stuck in Terminating is the first thing to see when objects in it
 * fail to apply.
 */
export function namespaceHealth(live: KubeObject): Health {
  const phase = stringAt(live, ['status', 'phase']);
  if (phase === 'Active') return health('Healthy');
  if (phase === 'Terminating') return health('Progressing', 'Namespace is terminating');
  if (phase === '') return health('Progressing', 'Waiting for the namespace to become active');
  return health('Unknown', `unknown phase ${phase}`);
}
