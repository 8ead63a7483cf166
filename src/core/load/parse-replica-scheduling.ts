// Replica scheduling with Karmada's defaults:
//
// | input                                         | result                                          | source                                  |
// |-----------------------------------------------|-------------------------------------------------|-----------------------------------------|
// | `replicaScheduling` absent                    | Duplicated                                      | Placement.ReplicaSchedulingType(), pkg/apis/policy/v1alpha1/propagation_helper.go |
// | present, `replicaSchedulingType` absent       | Divided                                         | CRD default, charts/karmada/_crds/bases/policy/ |
// | Divided without `replicaDivisionPreference`   | Weighted                                        | helper.SetReplicaDivisionPreferenceWeighted, pkg/util/helper/policy.go |
// | staticWeightList[].weight                     | integer ≥ 1, targetCluster required             | CRD (`minimum: 1`, required)            |
import type { ReplicaSchedulingStrategy, StaticClusterWeight } from '../model/propagation-policy.js';
import {
  childPath,
  compact,
  isAbsent,
  readEnum,
  readInt,
  readList,
  readMap,
  type Issues,
} from './field-reader.js';
import { parseClusterAffinity } from './parse-selectors.js';

const SCHEDULING_TYPES = ['Duplicated', 'Divided'] as const;
const DIVISION_PREFERENCES = ['Aggregated', 'Weighted'] as const;
const DYNAMIC_WEIGHTS = ['AvailableReplicas'] as const;

/** Returns the replica scheduling strategy with Karmada's defaults applied. */
export function parseReplicaScheduling(
  value: unknown,
  path: string,
  issues: Issues,
): ReplicaSchedulingStrategy {
  const map = readMap(value, path, issues);
  if (map === undefined) return { replicaSchedulingType: 'Duplicated' };
  const replicaSchedulingType =
    readEnum(
      map['replicaSchedulingType'],
      SCHEDULING_TYPES,
      childPath(path, 'replicaSchedulingType'),
      issues,
    ) ?? 'Divided';
  let replicaDivisionPreference = readEnum(
    map['replicaDivisionPreference'],
    DIVISION_PREFERENCES,
    childPath(path, 'replicaDivisionPreference'),
    issues,
  );
  if (replicaSchedulingType === 'Divided') replicaDivisionPreference ??= 'Weighted';
  const weightPreference = parseWeightPreference(
    map['weightPreference'],
    childPath(path, 'weightPreference'),
    issues,
  );
  return compact<ReplicaSchedulingStrategy>({
    replicaSchedulingType,
    replicaDivisionPreference,
    weightPreference,
  });
}

function parseWeightPreference(
  value: unknown,
  path: string,
  issues: Issues,
): ReplicaSchedulingStrategy['weightPreference'] {
  const map = readMap(value, path, issues);
  if (map === undefined) return undefined;
  const staticWeightList = readList(
    map['staticWeightList'],
    childPath(path, 'staticWeightList'),
    issues,
    (v, p) => parseStaticWeight(v, p, issues),
  );
  const dynamicWeight = readEnum(
    map['dynamicWeight'],
    DYNAMIC_WEIGHTS,
    childPath(path, 'dynamicWeight'),
    issues,
  );
  return compact<NonNullable<ReplicaSchedulingStrategy['weightPreference']>>({
    staticWeightList,
    dynamicWeight,
  });
}

function parseStaticWeight(value: unknown, path: string, issues: Issues): StaticClusterWeight | undefined {
  const map = readMap(value, path, issues);
  if (map === undefined) return undefined;
  const targetCluster = parseClusterAffinity(map['targetCluster'], childPath(path, 'targetCluster'), issues);
  if (isAbsent(map['targetCluster']))
    issues.push({ path: childPath(path, 'targetCluster'), message: 'is required' });
  const weight = readInt(map['weight'], childPath(path, 'weight'), issues);
  if (isAbsent(map['weight'])) issues.push({ path: childPath(path, 'weight'), message: 'is required' });
  if (weight !== undefined && weight < 1) {
    issues.push({
      path: childPath(path, 'weight'),
      message: `${weight}: must be greater than or equal to 1`,
    });
  }
  if (targetCluster === undefined || weight === undefined) return undefined;
  return { targetCluster, weight };
}
