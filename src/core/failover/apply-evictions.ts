// Owned by the graceful-eviction work: Karmada's GracefulEvictCluster and graceful eviction controller.
import type { PreviousBinding } from '../model/binding.js';
import type { FailoverDecision } from '../model/failover.js';
import type { EvictionRequest } from './eviction-request.js';
import type { EvictionInput } from './failover-input.js';

/** Returns the previous bindings with the requested evictions applied (not built yet: unchanged). */
export function applyEvictions(
  previous: ReadonlyMap<string, PreviousBinding>,
  requests: readonly EvictionRequest[],
  now: Date,
): { previous: Map<string, PreviousBinding>; changed: boolean; decisions: FailoverDecision[] } {
  void requests;
  void now;
  return { previous: new Map(previous), changed: false, decisions: [] };
}

/** Returns the previous bindings with finished eviction tasks dropped (not built yet: unchanged). */
export function assessEvictionTasks(input: EvictionInput): {
  previous: Map<string, PreviousBinding>;
  changed: boolean;
  decisions: FailoverDecision[];
  wakeAt?: Date;
} {
  return { previous: new Map(input.previous), changed: false, decisions: [] };
}
