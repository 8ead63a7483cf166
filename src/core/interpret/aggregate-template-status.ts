import type { Template } from '../model/fleet.js';
import type {
  AggregatedStatusItem,
  InterpretRequest,
  ResourceInterpreter,
} from '../model/resource-interpreter.js';
import type { BindingStatus } from '../publish/binding-status.js';

// gitfleet's four health values as Karmada's three (ResourceHealth): only Healthy is healthy.
const KARMADA_HEALTH = {
  Healthy: 'Healthy',
  Progressing: 'Unhealthy',
  Degraded: 'Unhealthy',
  Unknown: 'Unknown',
} as const;

/**
 * Returns the binding status with `templateStatus` set to the template's status as its
 * AggregateStatus script aggregates the members' statuses (Karmada writes that into the
 * resource template's .status, pkg/controllers/status/common.go updateResourceStatus), or the
 * status as it is when no script covers the template's kind or the script fails (then the
 * error is the binding's `templateStatusError`).
 */
export function withTemplateStatus(
  status: BindingStatus,
  interpreter: ResourceInterpreter | undefined,
  template: Template | undefined,
): BindingStatus {
  if (interpreter === undefined || template === undefined) return status;
  const { object, items } = aggregateStatusRequest(status, template);
  const outcome = interpreter.aggregateStatus(object, items);
  if (outcome === undefined) return status;
  if (!outcome.ok) return { ...status, templateStatusError: outcome.error };
  const aggregated = outcome.value['status'];
  const templateStatus =
    aggregated !== null && typeof aggregated === 'object' && !Array.isArray(aggregated)
      ? (aggregated as Record<string, unknown>)
      : {};
  return { ...status, templateStatus };
}

/**
 * Returns the AggregateStatus call withTemplateStatus makes for this status and template, for a
 * shell to run ahead (ResourceInterpreter.prepare).
 */
export function aggregateStatusRequest(
  status: BindingStatus,
  template: Template,
): Extract<InterpretRequest, { operation: 'AggregateStatus' }> {
  const items: AggregatedStatusItem[] = status.aggregatedStatus.map((item) => ({
    clusterName: item.clusterName,
    ...(item.status !== undefined ? { status: item.status } : {}),
    applied: item.applied,
    ...(item.appliedMessage !== undefined ? { appliedMessage: item.appliedMessage } : {}),
    health: KARMADA_HEALTH[item.health],
  }));
  return { operation: 'AggregateStatus', object: template.object, items: items.length > 0 ? items : null };
}
