import type { PurgeMode } from '../model/failover.js';

/** A decision to evict one binding from one cluster, made by a producer (taint manager, application failover). */
export interface EvictionRequest {
  /** The binding key (refKey of the template). */
  binding: string;
  cluster: string;
  producer: 'TaintManager' | 'ApplicationFailover';
  /** TaintUntolerated, ApplicationFailure. */
  reason: string;
  /** Names the taint or the unhealthy condition, and the policy. */
  message: string;
  purgeMode: PurgeMode;
  gracePeriodSeconds?: number;
  suppressDeletion?: boolean;
  preservedLabelState?: Record<string, string>;
  clustersBeforeFailover?: string[];
}

/** What one hub process remembers between failover passes; a restart starts it empty. */
export interface FailoverMemory {
  /** `<binding key> <cluster>` → when (ms, hub clock) the application was first seen unhealthy there. */
  unhealthySince: Map<string, number>;
  /** When (ms, hub clock) the taint manager last evicted: the rate limit's memory. */
  lastEvictionAt?: number;
  /** The fleet's disruption state at the last pass (fleet-disruption.ts); absent: normal. */
  fleetDisruption?: 'normal' | 'partial' | 'full';
}

export function newFailoverMemory(): FailoverMemory {
  return { unhealthySince: new Map() };
}
