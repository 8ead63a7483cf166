// Karmada's FederatedResourceQuota (policy.karmada.io/v1alpha1, namespaced), checked as Karmada's
// webhook checks it (pkg/webhook/federatedresourcequota/validating.go):
//
// | field                                  | rule                                                        |
// |----------------------------------------|-------------------------------------------------------------|
// | metadata.name                          | at most 63 characters (Karmada puts it in a label)          |
// | spec.overall                           | required; each name a quota resource name, each value a quantity ≥ 0, whole for integer resources (quota-resource-names.ts) |
// | spec.staticAssignments[].clusterName   | required, a cluster name (DNS-1123 label, at most 48 characters) |
// | spec.staticAssignments[].hard          | required; as spec.overall, and each name also in spec.overall |
// | spec.overall[name]                     | not less than the sum of the assignments' hard[name]        |
import type {
  FederatedResourceQuota,
  ResourceList,
  StaticClusterAssignment,
} from '../model/federated-resource-quota.js';
import type { SourceLocation } from '../model/source-location.js';
import { parseQuantity } from '../model/parse-quantity.js';
import { checkQuotaResourceName, isIntegerResourceName } from './quota-resource-names.js';
import { formatQuantity, isBinaryResource } from '../format/format-quantity.js';
import { itemPath, readList, readMap, readRequiredString, type Issues } from './field-reader.js';
import { checkDns1123Label } from './name-rules.js';

/** Returns the typed quota, or every problem Karmada's webhook would deny it for. */
export function parseFederatedResourceQuota(doc: {
  object: Record<string, unknown>;
  namespace: string;
  name: string;
  source: SourceLocation;
}): { ok: true; quota: FederatedResourceQuota } | { ok: false; issues: Issues } {
  const issues: Issues = [];
  if (doc.name.length > 63)
    issues.push({ path: 'metadata.name', message: 'must be no more than 63 characters' });
  const spec = readMap(doc.object['spec'], 'spec', issues);
  if (spec === undefined) return { ok: false, issues: [...issues, { path: 'spec', message: 'is required' }] };
  if (spec['overall'] === undefined || spec['overall'] === null)
    issues.push({ path: 'spec.overall', message: 'is required' });
  const overall = readResourceList(spec['overall'], 'spec.overall', issues);
  const assignments =
    readList(spec['staticAssignments'], 'spec.staticAssignments', issues, (v, p) =>
      readAssignment(v, p, issues),
    ) ?? [];
  issues.push(...checkOverallAndAssignments(overall, assignments));
  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    quota: {
      namespace: doc.namespace,
      name: doc.name,
      overall,
      staticAssignments: assignments,
      source: doc.source,
    },
  };
}

function readAssignment(value: unknown, path: string, issues: Issues): StaticClusterAssignment | undefined {
  const map = readMap(value, path, issues);
  if (map === undefined) return undefined;
  const clusterName = readRequiredString(map['clusterName'], `${path}.clusterName`, issues);
  if (clusterName !== undefined) {
    const bad = checkDns1123Label(clusterName, 48);
    if (bad) issues.push({ path: `${path}.clusterName`, message: `"${clusterName}": ${bad}` });
  }
  if (map['hard'] === undefined || map['hard'] === null)
    issues.push({ path: `${path}.hard`, message: 'is required' });
  const hard = readResourceList(map['hard'], `${path}.hard`, issues);
  return clusterName === undefined ? undefined : { clusterName, hard };
}

/** Reads a ResourceList: each name a quota resource name, each value a non-negative quantity. */
function readResourceList(value: unknown, path: string, issues: Issues): ResourceList {
  const map = readMap(value, path, issues) ?? {};
  const list: Record<string, string> = {};
  for (const [name, raw] of Object.entries(map)) {
    const at = `${path}[${name}]`;
    for (const message of checkQuotaResourceName(name)) issues.push({ path: at, message });
    const text = typeof raw === 'number' ? String(raw) : raw;
    const nano = parseQuantity(text);
    if (typeof text !== 'string' || nano === undefined) {
      issues.push({ path: at, message: `${JSON.stringify(raw)} is not a quantity` });
      continue;
    }
    if (nano < 0n) issues.push({ path: at, message: `"${text}": must be greater than or equal to 0` });
    else if (isIntegerResourceName(name) && nano % 1_000_000_000n !== 0n)
      issues.push({ path: at, message: `"${text}": must be an integer` });
    list[name] = text;
  }
  return list;
}

// Karmada's validateOverallAndAssignments: the overall holds what the clusters are given, and
// a cluster is given only what the overall names.
function checkOverallAndAssignments(
  overall: ResourceList,
  assignments: readonly StaticClusterAssignment[],
): Issues {
  const issues: Issues = [];
  for (const [name, text] of Object.entries(overall)) {
    const limit = parseQuantity(text);
    let sum = 0n;
    for (const a of assignments) sum += parseQuantity(a.hard[name]) ?? 0n;
    if (limit !== undefined && limit < sum) {
      const given = formatQuantity(sum, isBinaryResource(name));
      issues.push({
        path: `spec.overall[${name}]`,
        message: `"${text}": overall is less than assignments (they add up to ${given})`,
      });
    }
  }
  assignments.forEach((a, i) => {
    for (const name of Object.keys(a.hard))
      if (!(name in overall))
        issues.push({
          path: `${itemPath('spec.staticAssignments', i)}.hard[${name}]`,
          message: `"${name}": assignment resourceName is not exist in overall`,
        });
  });
  return issues;
}
