// A ClusterTaintPolicy (policy.karmada.io/v1alpha1, cluster-scoped): which cluster conditions add
// or remove which taints on the clusters it targets (pkg/apis/policy/v1alpha1/clustertaint_types.go;
// the hub applies it in core/failover/cluster-taints.ts). Checked as Karmada's CRD and its
// validating webhook (pkg/webhook/clustertaintpolicy/validating.go) do:
//
// | field                                  | rule                                                                  |
// |----------------------------------------|-----------------------------------------------------------------------|
// | spec.targetClusters                    | a ClusterAffinity (absent: every cluster)                             |
// | spec.addOnConditions[], removeOnConditions[] | conditionType required; operator In or NotIn; statusValues required |
// | spec.taints                            | required, at least one (CRD minItems 1)                               |
// | spec.taints[].key, value               | key required                                                          |
// | spec.taints[].effect                   | required                                                              |
// | spec.taints, key+effect                | no two taints with the same key and effect (webhook)                  |
// | spec.taints[].effect NoExecute         | refused unless allowed (webhook flag --allow-no-execute-taint-policy): checkNoExecuteTaintPolicies |
//
// gitfleet is stricter in three places, each for a mistake Karmada would only show later:
// - a taint's key must be a qualified name, its value a label value, and its effect NoSchedule or
//   NoExecute: the rules of a Cluster's own spec.taints (parse-cluster.ts), which Karmada checks
//   when the policy controller writes the taint onto the Cluster, so a policy breaking them only
//   fails then, cluster by cluster;
// - statusValues must be True, False or Unknown: a condition's status is one of these, and any
//   other value (`false`) would never match, silently.
//
// The NoExecute permission is the FleetConfig's `spec.allowNoExecuteTaintPolicy` (default false)
// and is checked once the whole fleet is collected (load-fleet.ts): it is a setting of the repo,
// not of one file, and a file's documents are collected from that file alone.
import { quoteText } from '../model/quote-text.js';
import type { Taint, TaintEffect } from '../model/cluster.js';
import type { ClusterTaintPolicy, MatchCondition } from '../model/failover.js';
import type { FleetConfig } from '../model/fleet-config.js';
import type { SourceLocation } from '../model/source-location.js';
import {
  childPath,
  compact,
  isAbsent,
  itemPath,
  readList,
  readMap,
  readRequiredEnum,
  readRequiredString,
  readString,
  type Issues,
} from './field-reader.js';
import { checkLabelValue, checkQualifiedName } from './name-rules.js';
import { parseClusterAffinity } from './parse-selectors.js';

const TAINT_EFFECTS: readonly TaintEffect[] = ['NoSchedule', 'NoExecute'];
const OPERATORS: readonly MatchCondition['operator'][] = ['In', 'NotIn'];
const STATUS_VALUES = ['True', 'False', 'Unknown'] as const;

/** Returns the typed policy, or the list of problems found in it. */
export function parseClusterTaintPolicy(doc: {
  object: Record<string, unknown>;
  name: string;
  source: SourceLocation;
}): { ok: true; policy: ClusterTaintPolicy } | { ok: false; issues: Issues } {
  const issues: Issues = [];
  const spec = readMap(doc.object['spec'], 'spec', issues) ?? {};
  const conditions = (field: string) =>
    readList(spec[field], `spec.${field}`, issues, (v, p) => parseMatchCondition(v, p, issues)) ?? [];
  const policy = compact<ClusterTaintPolicy>({
    name: doc.name,
    targetClusters: parseClusterAffinity(spec['targetClusters'], 'spec.targetClusters', issues),
    addOnConditions: conditions('addOnConditions'),
    removeOnConditions: conditions('removeOnConditions'),
    taints: readTaints(spec['taints'], issues),
    source: doc.source,
  });
  return issues.length === 0 ? { ok: true, policy } : { ok: false, issues };
}

/**
 * Returns one problem per NoExecute taint of a policy when the FleetConfig does not allow them
 * (Karmada's webhook: "must be explicitly enabled by administrators"), as `spec.taints[i]` issues.
 */
export function checkNoExecuteTaintPolicies(
  policies: readonly ClusterTaintPolicy[],
  config: FleetConfig,
): { policy: ClusterTaintPolicy; path: string; message: string }[] {
  if (config.allowNoExecuteTaintPolicy === true) return [];
  const refused: { policy: ClusterTaintPolicy; path: string; message: string }[] = [];
  for (const policy of policies) {
    policy.taints.forEach((taint, i) => {
      if (taint.effect !== 'NoExecute') return;
      refused.push({
        policy,
        path: itemPath('spec.taints', i),
        message:
          'a taint with effect NoExecute evicts workloads and is refused unless the FleetConfig allows it ' +
          '(spec.allowNoExecuteTaintPolicy: true, as Karmada’s --allow-no-execute-taint-policy)',
      });
    });
  }
  return refused;
}

function readTaints(value: unknown, issues: Issues): Taint[] {
  const path = 'spec.taints';
  if (isAbsent(value) || (Array.isArray(value) && value.length === 0)) {
    issues.push({ path, message: 'is required and must hold at least one taint' });
    return [];
  }
  const taints = readList(value, path, issues, (v, p) => parseTaint(v, p, issues)) ?? [];
  const seen = new Map<string, number>();
  taints.forEach((t, i) => {
    const id = `${t.key}\u0000${t.effect}`;
    const first = seen.get(id);
    if (first !== undefined) {
      issues.push({
        path: itemPath(path, i),
        message: `duplicate taint: ${path}[${first}] has the same key ${quoteText(t.key)} and effect ${t.effect}`,
      });
    } else seen.set(id, i);
  });
  return taints;
}

function parseTaint(value: unknown, path: string, issues: Issues): Taint | undefined {
  const map = readMap(value, path, issues);
  if (map === undefined) return undefined;
  const key = readRequiredString(map['key'], childPath(path, 'key'), issues);
  const badKey = key === undefined ? undefined : checkQualifiedName(key);
  if (badKey) issues.push({ path: childPath(path, 'key'), message: `${quoteText(key ?? '')}: ${badKey}` });
  const text = readString(map['value'], childPath(path, 'value'), issues);
  const badValue = text ? checkLabelValue(text) : undefined;
  if (badValue)
    issues.push({ path: childPath(path, 'value'), message: `${quoteText(text ?? '')}: ${badValue}` });
  const effect = readRequiredEnum(map['effect'], TAINT_EFFECTS, childPath(path, 'effect'), issues);
  if (key === undefined || effect === undefined) return undefined;
  return compact<Taint>({ key, value: text || undefined, effect });
}

function parseMatchCondition(value: unknown, path: string, issues: Issues): MatchCondition | undefined {
  const map = readMap(value, path, issues);
  if (map === undefined) return undefined;
  const conditionType = readRequiredString(map['conditionType'], childPath(path, 'conditionType'), issues);
  const operator = readRequiredEnum(map['operator'], OPERATORS, childPath(path, 'operator'), issues);
  const valuesPath = childPath(path, 'statusValues');
  if (isAbsent(map['statusValues'])) issues.push({ path: valuesPath, message: 'is required' });
  const statusValues =
    readList(map['statusValues'], valuesPath, issues, (v, p) =>
      readRequiredEnum(v, STATUS_VALUES, p, issues),
    ) ?? [];
  if (conditionType === undefined || operator === undefined) return undefined;
  return { conditionType, operator, statusValues };
}
