// A policy's placement, validated as Karmada's ValidatePlacement (pkg/util/validation/validation.go):
// - clusterAffinity and clusterAffinities are mutually exclusive;
// - every clusterAffinities term has an affinityName of 1–32 characters (CRD) that is a
//   qualified name (content.IsLabelKey), unique within the policy;
// - clusterTolerations may not use the Lt/Gt operators (validateClusterTolerations);
// - spread constraints and replica scheduling: see their own files.
import { quoteText } from '../model/quote-text.js';
import type { TaintEffect, Toleration } from '../model/cluster.js';
import type { ClusterAffinityTerm, Placement } from '../model/propagation-policy.js';
import {
  childPath,
  compact,
  isAbsent,
  readEnum,
  readInt,
  readList,
  readMap,
  readRequiredString,
  readString,
  type Issues,
} from './field-reader.js';
import { checkQualifiedName } from './name-rules.js';
import { parseReplicaScheduling } from './parse-replica-scheduling.js';
import { parseClusterAffinity, readClusterAffinityFields } from './parse-selectors.js';
import { parseSpreadConstraints } from './parse-spread-constraints.js';

const TAINT_EFFECTS: readonly TaintEffect[] = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** Returns the placement with Karmada's defaults ([] tolerations and spread constraints, Duplicated when no replicaScheduling). */
export function parsePlacement(value: unknown, path: string, issues: Issues): Placement {
  const map = readMap(value, path, issues) ?? {};
  if (!isAbsent(map['clusterAffinity']) && !isAbsent(map['clusterAffinities'])) {
    issues.push({ path, message: 'clusterAffinities cannot co-exist with clusterAffinity' });
  }
  return compact<Placement>({
    clusterAffinity: parseClusterAffinity(map['clusterAffinity'], childPath(path, 'clusterAffinity'), issues),
    clusterAffinities: parseAffinityTerms(
      map['clusterAffinities'],
      childPath(path, 'clusterAffinities'),
      issues,
    ),
    clusterTolerations:
      readList(map['clusterTolerations'], childPath(path, 'clusterTolerations'), issues, (v, p) =>
        parseToleration(v, p, issues),
      ) ?? [],
    spreadConstraints: parseSpreadConstraints(
      map['spreadConstraints'],
      childPath(path, 'spreadConstraints'),
      issues,
    ),
    replicaScheduling: parseReplicaScheduling(
      map['replicaScheduling'],
      childPath(path, 'replicaScheduling'),
      issues,
    ),
  });
}

function parseAffinityTerms(value: unknown, path: string, issues: Issues): ClusterAffinityTerm[] | undefined {
  const seen = new Set<string>();
  return readList(value, path, issues, (v, p) => {
    const map = readMap(v, p, issues);
    if (map === undefined) return undefined;
    const namePath = childPath(p, 'affinityName');
    const affinityName = readRequiredString(map['affinityName'], namePath, issues);
    if (affinityName === undefined) return undefined;
    const bad =
      affinityName.length > 32 ? 'must be no more than 32 characters' : checkQualifiedName(affinityName);
    if (bad) issues.push({ path: namePath, message: `${quoteText(affinityName)}: ${bad}` });
    if (seen.has(affinityName)) {
      issues.push({
        path,
        message: `each affinity term in a policy must have a unique name (${quoteText(affinityName)} repeats)`,
      });
    }
    seen.add(affinityName);
    return { affinityName, ...readClusterAffinityFields(map, p, issues) };
  });
}

function parseToleration(value: unknown, path: string, issues: Issues): Toleration | undefined {
  const map = readMap(value, path, issues);
  if (map === undefined) return undefined;
  // Only Exists and Equal: Karmada refuses Kubernetes' newer Lt/Gt for clusters.
  const operator = readEnum(
    map['operator'],
    ['Exists', 'Equal'] as const,
    childPath(path, 'operator'),
    issues,
  );
  return compact<Toleration>({
    key: readString(map['key'], childPath(path, 'key'), issues) || undefined,
    operator,
    value: readString(map['value'], childPath(path, 'value'), issues) || undefined,
    effect: readEnum(map['effect'], TAINT_EFFECTS, childPath(path, 'effect'), issues),
    tolerationSeconds: readInt(map['tolerationSeconds'], childPath(path, 'tolerationSeconds'), issues),
  });
}
