// Owned by the application-failover work: Karmada's WorkloadRebalancer controller.
import type { PreviousBinding } from '../model/binding.js';
import type { FailoverDecision } from '../model/failover.js';
import type { EvictionInput } from './failover-input.js';

/** Returns the previous bindings with the fresh reschedules rebalancers ask for (not built yet: unchanged). */
export function planRebalancers(input: EvictionInput): {
  previous: Map<string, PreviousBinding>;
  changed: boolean;
  files: Map<string, string>;
  decisions: FailoverDecision[];
  wakeAt?: Date;
} {
  return { previous: new Map(input.previous), changed: false, files: new Map(), decisions: [] };
}
