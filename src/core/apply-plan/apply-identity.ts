import { applyAsAnnotation } from '../model/gitfleet-keys.js';
import type { KubeObject } from '../model/kube-object.js';

/**
 * Returns whom the agent applies a rendered object as: its Tenant's ServiceAccount from the
 * `gitfleet.io/apply-as` annotation the render writes (never a template's own), or undefined
 * for the agent itself (docs/tenants.md#impersonation).
 */
export function applyIdentityOf(manifest: KubeObject): string | undefined {
  const as = manifest.metadata.annotations?.[applyAsAnnotation];
  return typeof as === 'string' && as !== '' ? as : undefined;
}
