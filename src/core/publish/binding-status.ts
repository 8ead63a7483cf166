// The status part of a binding record, Karmada's ResourceBinding status: written by the hub
// (binding-record.ts), worked out from the agents' reports by core/status/aggregate-status.ts.
import type { HealthStatus } from '../health/health.js';

/**
 * One member cluster's view of a template (Karmada's AggregatedStatusItem). `health` keeps
 * gitfleet's four values where Karmada has Healthy / Unhealthy / Unknown.
 */
export interface AggregatedStatusItem {
  clusterName: string;
  applied: boolean;
  appliedMessage?: string;
  health: HealthStatus;
  /** Why it is not Healthy, as the agent's health check says (gitfleet's; absent when Healthy). */
  healthMessage?: string;
  status?: Record<string, unknown>;
  /**
   * gitfleet's: the template is kept for the check only (a check-only admission policy or
   * binding): checked against the cluster's render, never applied there (`applied` stays false).
   */
  checkedAtRender?: true;
}

/** Karmada's FullyApplied condition of a ResourceBinding. */
export interface FullyAppliedCondition {
  status: 'True' | 'False';
  reason: 'FullyAppliedSuccess' | 'FullyAppliedFailed';
  message: string;
}

/** What the hub writes into a binding record's status. */
export interface BindingStatus {
  aggregatedStatus: AggregatedStatusItem[];
  fullyApplied: FullyAppliedCondition;
  /** The template's status as its AggregateStatus script aggregates it (core/interpret/aggregate-template-status.ts). */
  templateStatus?: Record<string, unknown>;
  /** Why the AggregateStatus script failed. */
  templateStatusError?: string;
}
