import { getPath, isMap, type KubeObject } from '../model/kube-object.js';
import { health, type Health } from './health.js';
import { stringAt } from './object-fields.js';

/**
 * Returns the health of a core Service: a LoadBalancer Service is Progressing until its load
 * balancer has an ingress with an IP or a hostname; every other type is Healthy.
 *
 * Sources: Karmada interpretServiceHealth (`pkg/resourceinterpreter/default/native/healthy.go`),
 * whose IP-or-hostname test is kept; gitops-engine `pkg/health/health_service.go`.
 */
export function serviceHealth(live: KubeObject): Health {
  if (stringAt(live, ['spec', 'type']) !== 'LoadBalancer') return health('Healthy');
  return hasLoadBalancerAddress(live)
    ? health('Healthy')
    : health('Progressing', 'Waiting for the load balancer to get an address');
}

/** Returns true when `status.loadBalancer.ingress` has an entry with an IP or a hostname. */
export function hasLoadBalancerAddress(live: KubeObject): boolean {
  const ingress = getPath(live, ['status', 'loadBalancer', 'ingress']);
  if (!Array.isArray(ingress)) return false;
  return ingress.filter(isMap).some((i) => Boolean(i.ip) || Boolean(i.hostname));
}
