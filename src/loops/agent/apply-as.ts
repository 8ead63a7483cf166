import { applyIdentityOf } from '../../core/apply-plan/apply-identity.js';
import type { KubeObject } from '../../core/model/kube-object.js';

/** Returns the apply options that act as the object's tenant, when its render names one (docs/tenants.md#impersonation). */
export function asOf(manifest: KubeObject): { as?: string } {
  const as = applyIdentityOf(manifest);
  return as ? { as } : {};
}
