// A policy's placement, validated as Karmada's ValidatePlacement (pkg/util/validation/validation.go):
// - clusterAffinity and clusterAffinities are mutually exclusive;
// - every clusterAffinities term has an affinityName of 1–32 characters (CRD) that is a
//   qualified name (content.IsLabelKey), unique within the policy;
// - a term's overflowAffinities (ValidateOverflowAffinities): only beside a non-empty inline
//   affinity, each named like a term, names unique and not the term's own; and only with
//   dynamic weight or Aggregated division (ValidatePlacement, util.IsOverflowSchedulingAllowed);
// - workloadAffinity (ValidateWorkloadAffinity): each groupByLabelKey required (CRD) and a label
//   key, and affinity and antiAffinity not on the same key; gitfleet checks it, it does not
//   schedule by it;
// - clusterTolerations may not use the Lt/Gt operators (validateClusterTolerations);
// - spread constraints and replica scheduling: see their own files.
import { quoteText } from '../model/quote-text.js';
import type { TaintEffect, Toleration } from '../model/cluster.js';
import type { ClusterAffinityTerm, OverflowAffinity, Placement } from '../model/propagation-policy.js';
import type { ClusterAffinity } from '../model/selectors.js';
import {
  childPath,
  compact,
  isAbsent,
  itemPath,
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
  checkWorkloadAffinity(map['workloadAffinity'], childPath(path, 'workloadAffinity'), issues);
  const placement = compact<Placement>({
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
  checkOverflowScheduling(placement, childPath(path, 'clusterAffinities'), issues);
  return placement;
}

// util.IsOverflowSchedulingAllowed (pkg/util/policy.go): Divided, by Aggregated or dynamic weight.
function checkOverflowScheduling(placement: Placement, path: string, issues: Issues): void {
  const strategy = placement.replicaScheduling;
  const allowed =
    strategy.replicaSchedulingType === 'Divided' &&
    (strategy.replicaDivisionPreference === 'Aggregated' ||
      (strategy.replicaDivisionPreference === 'Weighted' &&
        strategy.weightPreference?.dynamicWeight !== undefined));
  if (allowed) return;
  placement.clusterAffinities?.forEach((term, i) => {
    if (term.overflowAffinities === undefined) return;
    issues.push({
      path: childPath(itemPath(path, i), 'overflowAffinities'),
      message: 'overflowAffinities can only be used together with dynamic weight or aggregated scheduling',
    });
  });
}

function parseAffinityTerms(value: unknown, path: string, issues: Issues): ClusterAffinityTerm[] | undefined {
  const seen = new Set<string>();
  return readList(value, path, issues, (v, p) => {
    const map = readMap(v, p, issues);
    if (map === undefined) return undefined;
    const affinityName = readAffinityName(map, p, issues);
    if (affinityName === undefined) return undefined;
    if (seen.has(affinityName)) {
      issues.push({
        path,
        message: `each affinity term in a policy must have a unique name (${quoteText(affinityName)} repeats)`,
      });
    }
    seen.add(affinityName);
    const inline = readClusterAffinityFields(map, p, issues);
    const overflowAffinities = parseOverflowAffinities(
      map['overflowAffinities'],
      affinityName,
      inline,
      p,
      issues,
    );
    return { affinityName, ...inline, ...(overflowAffinities ? { overflowAffinities } : {}) };
  });
}

// The CRD's 1–32 characters, and content.IsLabelKey.
function readAffinityName(map: Record<string, unknown>, path: string, issues: Issues): string | undefined {
  const namePath = childPath(path, 'affinityName');
  const affinityName = readRequiredString(map['affinityName'], namePath, issues);
  if (affinityName === undefined) return undefined;
  const bad =
    affinityName.length > 32 ? 'must be no more than 32 characters' : checkQualifiedName(affinityName);
  if (bad) issues.push({ path: namePath, message: `${quoteText(affinityName)}: ${bad}` });
  return affinityName;
}

// Karmada's ValidateOverflowAffinities.
function parseOverflowAffinities(
  value: unknown,
  termName: string,
  inline: ClusterAffinity,
  termPath: string,
  issues: Issues,
): OverflowAffinity[] | undefined {
  const path = childPath(termPath, 'overflowAffinities');
  if (isAbsent(value)) return undefined;
  if (isEmptyAffinity(inline)) {
    issues.push({
      path,
      message: 'overflowAffinities can only be used together with the inline ClusterAffinity',
    });
  }
  const names = new Set([termName]);
  return readList(value, path, issues, (v, p) => {
    const map = readMap(v, p, issues);
    if (map === undefined) return undefined;
    const affinityName = readAffinityName(map, p, issues);
    if (affinityName === undefined) return undefined;
    if (names.has(affinityName)) {
      issues.push({
        path: childPath(p, 'affinityName'),
        message: `${quoteText(affinityName)}: overflow affinity name must be unique and must not duplicate the primary group's affinityName`,
      });
    }
    names.add(affinityName);
    return { affinityName, ...readClusterAffinityFields(map, p, issues) };
  });
}

// Karmada's emptyClusterAffinity: no selector, no names, no exclusions.
function isEmptyAffinity(a: ClusterAffinity): boolean {
  return (
    a.labelSelector === undefined &&
    a.fieldSelector === undefined &&
    (a.clusterNames ?? []).length === 0 &&
    (a.exclude ?? []).length === 0
  );
}

// Karmada's ValidateWorkloadAffinity, with the CRD's required groupByLabelKey.
function checkWorkloadAffinity(value: unknown, path: string, issues: Issues): void {
  const map = readMap(value, path, issues);
  if (map === undefined) return;
  const keyOf = (field: 'affinity' | 'antiAffinity') => {
    const at = childPath(path, field);
    const term = readMap(map[field], at, issues);
    if (term === undefined) return undefined;
    const keyPath = childPath(at, 'groupByLabelKey');
    const key = readRequiredString(term['groupByLabelKey'], keyPath, issues);
    const bad = key === undefined ? undefined : checkQualifiedName(key);
    if (key !== undefined && bad) issues.push({ path: keyPath, message: `${quoteText(key)}: ${bad}` });
    return key;
  };
  const affinity = keyOf('affinity');
  const antiAffinity = keyOf('antiAffinity');
  if (affinity !== undefined && affinity === antiAffinity) {
    issues.push({ path, message: 'affinity and antiAffinity must not use the same groupByLabelKey' });
  }
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
