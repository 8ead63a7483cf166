// Owned by the application-failover work: Karmada's application failover controller.
import type { FailoverDecision } from '../model/failover.js';
import type { EvictionRequest } from './eviction-request.js';
import type { EvictionInput } from './failover-input.js';

/** Returns the evictions of applications unhealthy longer than they tolerate (not built yet: none). */
export function applicationFailoverRequests(input: EvictionInput): {
  requests: EvictionRequest[];
  decisions: FailoverDecision[];
  wakeAt?: Date;
} {
  void input;
  return { requests: [], decisions: [] };
}
