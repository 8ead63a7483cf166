// Owned by the taints work: Karmada's taint manager (NoExecute taints evict what does not tolerate them).
import type { FailoverDecision } from '../model/failover.js';
import type { EvictionRequest } from './eviction-request.js';
import type { EvictionInput } from './failover-input.js';

/** Returns the evictions NoExecute taints ask for now (not built yet: none). */
export function taintEvictionRequests(input: EvictionInput): {
  requests: EvictionRequest[];
  decisions: FailoverDecision[];
  wakeAt?: Date;
} {
  void input;
  return { requests: [], decisions: [] };
}
