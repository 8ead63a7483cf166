import type { ApiEnablement, ClusterStatus } from '../model/cluster.js';
import { isMap } from '../model/kube-object.js';
import { parseConditions } from './parse-conditions.js';

/**
 * Returns the ClusterStatus in a map read from a status branch, keeping only well-formed
 * fields (a field of the wrong type is dropped, not the whole status), or undefined when the
 * value is not a map.
 */
export function parseClusterStatus(value: unknown): ClusterStatus | undefined {
  if (!isMap(value)) return undefined;
  const out: ClusterStatus = {};
  if (typeof value.kubernetesVersion === 'string') out.kubernetesVersion = value.kubernetesVersion;
  if (Array.isArray(value.apiEnablements)) out.apiEnablements = value.apiEnablements.flatMap(apiEnablement);
  if (Array.isArray(value.conditions)) out.conditions = parseConditions(value.conditions);
  const nodes = value.nodeSummary;
  if (isMap(nodes) && typeof nodes.totalNum === 'number' && typeof nodes.readyNum === 'number') {
    out.nodeSummary = { totalNum: nodes.totalNum, readyNum: nodes.readyNum };
  }
  if (isMap(value.resourceSummary)) out.resourceSummary = resourceSummary(value.resourceSummary);
  return out;
}

function apiEnablement(value: unknown): ApiEnablement[] {
  if (!isMap(value) || typeof value.groupVersion !== 'string') return [];
  const resources = Array.isArray(value.resources) ? value.resources.filter(isMap) : [];
  return [
    {
      groupVersion: value.groupVersion,
      resources: resources.flatMap((r) =>
        typeof r.name === 'string' && typeof r.kind === 'string'
          ? [
              {
                name: r.name,
                kind: r.kind,
                ...(typeof r.namespaced === 'boolean' ? { namespaced: r.namespaced } : {}),
              },
            ]
          : [],
      ),
    },
  ];
}

function resourceSummary(value: Record<string, unknown>): NonNullable<ClusterStatus['resourceSummary']> {
  const out: NonNullable<ClusterStatus['resourceSummary']> = {};
  for (const key of ['allocatable', 'allocating', 'allocated'] as const) {
    const list = value[key];
    if (!isMap(list)) continue;
    const quantities: Record<string, string> = {};
    for (const [name, quantity] of Object.entries(list)) {
      if (typeof quantity === 'string') quantities[name] = quantity;
      else if (typeof quantity === 'number') quantities[name] = String(quantity);
    }
    out[key] = quantities;
  }
  return out;
}
