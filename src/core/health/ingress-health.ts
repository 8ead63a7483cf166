import type { KubeObject } from '../model/kube-object.js';
import { health, type Health } from './health.js';
import { hasLoadBalancerAddress } from './service-health.js';

/**
 * Returns the health of an Ingress: Healthy once its load balancer has an ingress with an IP or
 * a hostname, Progressing before.
 *
 * Sources: Karmada interpretIngressHealth (`pkg/resourceinterpreter/default/native/healthy.go`);
 * gitops-engine `pkg/health/health_ingress.go`.
 */
export function ingressHealth(live: KubeObject): Health {
  return hasLoadBalancerAddress(live)
    ? health('Healthy')
    : health('Progressing', 'Waiting for the ingress controller to assign an address');
}
