// A FederatedResourceQuota's status, as Karmada's controllers report it, in a record of its own
// on the bindings branch (`.gitfleet/quotas/<namespace>/<name>.yaml`, written by the hub, read by
// `gitfleet status`):
//
// | field            | value                                                                      |
// |------------------|----------------------------------------------------------------------------|
// | overall          | spec.overall                                                               |
// | overallUsed      | what the placements the render admitted use of each resource overall names (the enforcement controller's calculateUsedWithResourceBinding; enforce-quotas.ts) |
// | aggregatedStatus | per cluster with a static assignment, by name: its ResourceQuota's status.hard and status.used as the cluster's agent reported them, applied (the status controller's aggregatedStatusFormWorks: a cluster whose ResourceQuota is not applied or reports no status is left out) |
//
// Karmada: pkg/controllers/federatedresourcequota (status and enforcement controllers).
import yaml from 'js-yaml';
import { emitYaml } from '../format/emit-yaml.js';
import { formatQuantity, isBinaryResource } from '../format/format-quantity.js';
import { isMap } from '../model/kube-object.js';
import type { AgentReport } from '../status/status-branch.js';
import type { ClusterQuotaStatus, QuotaStatusView } from '../model/federated-resource-quota.js';
import type { QuotaUsage } from './enforce-quotas.js';

/** Where the bindings branch keeps the quotas' status records. */
export const quotaStatusDir = '.gitfleet/quotas/';

/** Returns a quota's status from the render's usage and the agents' reports of its ResourceQuotas. */
export function quotaStatusOf(usage: QuotaUsage, reports: ReadonlyMap<string, AgentReport>): QuotaStatusView {
  const { quota } = usage;
  const aggregatedStatus = [...new Set(quota.staticAssignments.map((a) => a.clusterName))]
    .sort()
    .flatMap((clusterName): ClusterQuotaStatus[] => {
      const record = reports
        .get(clusterName)
        ?.objects.find(
          (o) =>
            o.ref.apiVersion === 'v1' &&
            o.ref.kind === 'ResourceQuota' &&
            o.ref.namespace === quota.namespace &&
            o.ref.name === quota.name,
        );
      if (!record?.applied || !record.status) return [];
      return [{ clusterName, hard: listOf(record.status.hard), used: listOf(record.status.used) }];
    });
  return {
    namespace: quota.namespace,
    name: quota.name,
    overall: formatted(usage.overall),
    overallUsed: formatted(new Map([...usage.overall.keys()].map((n) => [n, usage.used.get(n) ?? 0n]))),
    aggregatedStatus,
  };
}

/** Returns each quota's status record by its path on the bindings branch. */
export function quotaStatusFiles(
  usage: readonly QuotaUsage[],
  reports: ReadonlyMap<string, AgentReport>,
): Map<string, string> {
  return new Map(usage.map((u) => [quotaStatusPath(u.quota), quotaStatusRecord(quotaStatusOf(u, reports))]));
}

/** Returns the path of a quota's status record on the bindings branch. */
export function quotaStatusPath(quota: { namespace: string; name: string }): string {
  return `${quotaStatusDir}${quota.namespace}/${quota.name}.yaml`;
}

/** Returns the record's text: a FederatedResourceQuota with the status only (its spec is the source's). */
export function quotaStatusRecord(view: QuotaStatusView): string {
  return emitYaml({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'FederatedResourceQuota',
    metadata: { name: view.name, namespace: view.namespace },
    status: {
      overall: view.overall,
      overallUsed: view.overallUsed,
      ...(view.aggregatedStatus.length > 0 ? { aggregatedStatus: view.aggregatedStatus } : {}),
    },
  });
}

/** Returns what a quota status record holds, or undefined when it is not one. */
export function parseQuotaStatusRecord(text: string): QuotaStatusView | undefined {
  let doc: unknown;
  try {
    doc = yaml.load(text, { schema: yaml.CORE_SCHEMA });
  } catch {
    return undefined;
  }
  if (!isMap(doc) || doc.kind !== 'FederatedResourceQuota' || !isMap(doc.metadata)) return undefined;
  const { name, namespace } = doc.metadata;
  if (typeof name !== 'string' || typeof namespace !== 'string') return undefined;
  const status = isMap(doc.status) ? doc.status : {};
  const clusters = Array.isArray(status.aggregatedStatus) ? status.aggregatedStatus.filter(isMap) : [];
  return {
    namespace,
    name,
    overall: listOf(status.overall),
    overallUsed: listOf(status.overallUsed),
    aggregatedStatus: clusters
      .filter((c) => typeof c.clusterName === 'string')
      .map((c) => ({ clusterName: c.clusterName as string, hard: listOf(c.hard), used: listOf(c.used) })),
  };
}

function formatted(values: ReadonlyMap<string, bigint>): Record<string, string> {
  return Object.fromEntries(
    [...values]
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([name, nano]) => [name, formatQuantity(nano, isBinaryResource(name))]),
  );
}

function listOf(value: unknown): Record<string, string> {
  if (!isMap(value)) return {};
  const list: Record<string, string> = {};
  for (const [name, quantity] of Object.entries(value))
    if (typeof quantity === 'string' || typeof quantity === 'number') list[name] = String(quantity);
  return list;
}
