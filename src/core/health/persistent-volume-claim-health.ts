import type { KubeObject } from '../model/kube-object.js';
import { health, type Health } from './health.js';
import { stringAt } from './object-fields.js';

/**
 * Returns the health of a PersistentVolumeClaim from its phase.
 *
 * | phase            | health      |
 * |------------------|-------------|
 * | Bound            | Healthy     |
 * | Pending, or none | Progressing |
 * | Lost             | Degraded    |
 * | anything else    | Unknown     |
 *
 * Sources: gitops-engine `pkg/health/health_pvc.go`; Karmada interpretPersistentVolumeClaimHealth
 * (`pkg/resourceinterpreter/default/native/healthy.go`): Bound is the only healthy phase.
 */
export function persistentVolumeClaimHealth(live: KubeObject): Health {
  const phase = stringAt(live, ['status', 'phase']);
  switch (phase) {
    case 'Bound':
      return health('Healthy');
    case '':
    case 'Pending':
      return health('Progressing', 'Waiting for the claim to be bound');
    case 'Lost':
      return health('Degraded', 'The claim lost its volume');
    default:
      return health('Unknown', `unknown phase ${phase}`);
  }
}
