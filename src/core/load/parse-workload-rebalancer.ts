// A WorkloadRebalancer (apps.karmada.io/v1alpha1, cluster-scoped), checked as Karmada's CRD
// checks it (pkg/apis/apps/v1alpha1/workloadrebalancer_types.go):
//
// | field                        | rule                                                   |
// |------------------------------|--------------------------------------------------------|
// | spec.workloads               | required, at least one item                            |
// | spec.workloads[].apiVersion  | required                                               |
// | spec.workloads[].kind        | required                                               |
// | spec.workloads[].name        | required                                               |
// | spec.workloads[].namespace   | optional: empty for a cluster-scoped resource          |
// | spec.ttlSecondsAfterFinished | an integer (Karmada: int32, no minimum; 0 expires at once) |
//
// What the hub does with it: core/failover/rebalance.ts.
import type { WorkloadRebalancer } from '../model/failover.js';
import type { SourceLocation } from '../model/source-location.js';
import {
  childPath,
  readInt,
  readList,
  readMap,
  readRequiredString,
  readString,
  type Issues,
} from './field-reader.js';

/** Returns the typed rebalancer, or the list of problems found in it. */
export function parseWorkloadRebalancer(doc: {
  object: Record<string, unknown>;
  name: string;
  source: SourceLocation;
}): { ok: true; rebalancer: WorkloadRebalancer } | { ok: false; issues: Issues } {
  const issues: Issues = [];
  const spec = readMap(doc.object['spec'], 'spec', issues);
  if (spec === undefined) issues.push({ path: 'spec', message: 'is required' });
  const raw = spec?.['workloads'];
  const workloads =
    readList(raw, 'spec.workloads', issues, (v, p) => {
      const item = readMap(v, p, issues);
      if (item === undefined) return undefined;
      const apiVersion = readRequiredString(item['apiVersion'], childPath(p, 'apiVersion'), issues);
      const kind = readRequiredString(item['kind'], childPath(p, 'kind'), issues);
      const name = readRequiredString(item['name'], childPath(p, 'name'), issues);
      const namespace = readString(item['namespace'], childPath(p, 'namespace'), issues);
      if (apiVersion === undefined || kind === undefined || name === undefined) return undefined;
      return { apiVersion, kind, name, ...(namespace ? { namespace } : {}) };
    }) ?? [];
  if (spec !== undefined && (!Array.isArray(raw) || raw.length === 0) && issues.length === 0) {
    issues.push({ path: 'spec.workloads', message: 'is required and must have at least one item' });
  }
  const ttl = spec
    ? readInt(spec['ttlSecondsAfterFinished'], 'spec.ttlSecondsAfterFinished', issues)
    : undefined;
  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    rebalancer: {
      name: doc.name,
      workloads,
      ...(ttl !== undefined ? { ttlSecondsAfterFinished: ttl } : {}),
      source: doc.source,
    },
  };
}
