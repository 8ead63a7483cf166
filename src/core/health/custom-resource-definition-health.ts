import { getPath, type KubeObject } from '../model/kube-object.js';
import { health, type Health } from './health.js';
import { conditionsOf } from './object-fields.js';

/**
 * Returns the health of a CustomResourceDefinition.
 *
 * | state                                   | health      |
 * |-----------------------------------------|-------------|
 * | Terminating condition True              | Progressing |
 * | NamesAccepted condition False           | Degraded    |
 * | NonStructuralSchema condition True      | Degraded    |
 * | Established condition True              | Healthy     |
 * | otherwise (not yet established)         | Progressing |
 *
 * Source: Argo CD's built-in check `resource_customizations/apiextensions.k8s.io/
 * CustomResourceDefinition/health.lua`, except that a CRD not yet established is Progressing
 * here (Argo CD says Degraded): the agent waits for it right after creating it.
 */
export function customResourceDefinitionHealth(live: KubeObject): Health {
  const conditions = conditionsOf(getPath(live, ['status', 'conditions']));
  const is = (type: string, status: string) => conditions.find((c) => c.type === type && c.status === status);
  if (is('Terminating', 'True')) return health('Progressing', 'CRD is terminating');
  const rejected = is('NamesAccepted', 'False');
  if (rejected)
    return health('Degraded', `CRD names have not been accepted: ${rejected.message || rejected.reason}`);
  const violations = is('NonStructuralSchema', 'True');
  if (violations)
    return health('Degraded', `Schema violations found: ${violations.message || violations.reason}`);
  if (is('Established', 'True')) return health('Healthy');
  return health('Progressing', 'Waiting for the CRD to be established');
}
