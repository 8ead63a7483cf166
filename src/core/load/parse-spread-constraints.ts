// Spread constraints, defaulted and validated as Karmada does:
// defaults: helper.SetDefaultSpreadConstraints (pkg/util/helper/policy.go), run by the policy
// mutating webhooks; rules: ValidateSpreadConstraint (pkg/util/validation/validation.go).
//
// | rule                                                             | on failure                    |
// |------------------------------------------------------------------|-------------------------------|
// | neither spreadByField nor spreadByLabel ⇒ spreadByField: cluster | (default)                     |
// | minGroups 0 or absent ⇒ 1                                        | (default)                     |
// | spreadByField and spreadByLabel together                         | rejected                      |
// | minGroups < 0, maxGroups < 0                                     | rejected                      |
// | maxGroups > 0 and maxGroups < minGroups                          | rejected                      |
// | the same spreadByField twice                                     | rejected                      |
// | any spreadByField used but none is `cluster`                     | rejected                      |
import type { SpreadByField, SpreadConstraint } from '../model/propagation-policy.js';
import {
  childPath,
  compact,
  itemPath,
  readEnum,
  readInt,
  readList,
  readMap,
  readString,
  type Issues,
} from './field-reader.js';

const SPREAD_FIELDS: readonly SpreadByField[] = ['cluster', 'region', 'zone', 'provider'];

/** Returns the spread constraints with Karmada's defaults, [] when absent; records rule violations. */
export function parseSpreadConstraints(value: unknown, path: string, issues: Issues): SpreadConstraint[] {
  const constraints = readList(value, path, issues, (v, p) => parseOne(v, p, issues)) ?? [];
  const seenFields = new Set<SpreadByField>();
  constraints.forEach((c, i) => {
    const at = itemPath(path, i);
    if (c.spreadByField !== undefined && c.spreadByLabel !== undefined) {
      issues.push({ path: at, message: 'spreadByLabel should not co-exist with spreadByField' });
    }
    if (c.minGroups < 0) issues.push({ path: at, message: 'minGroups lower than 0 is not allowed' });
    if (c.maxGroups !== undefined && c.maxGroups < 0) {
      issues.push({ path: at, message: 'maxGroups lower than 0 is not allowed' });
    }
    if (c.maxGroups !== undefined && c.maxGroups > 0 && c.maxGroups < c.minGroups) {
      issues.push({ path: at, message: 'maxGroups lower than minGroups is not allowed' });
    }
    if (c.spreadByField === undefined) return;
    if (seenFields.has(c.spreadByField)) {
      issues.push({ path, message: `multiple ${c.spreadByField} spread constraints are not allowed` });
    }
    seenFields.add(c.spreadByField);
  });
  if (seenFields.size > 0 && !seenFields.has('cluster')) {
    issues.push({
      path,
      message:
        'the cluster spread constraint must be enabled in one of the constraints in case of SpreadByField is enabled',
    });
  }
  return constraints;
}

function parseOne(value: unknown, path: string, issues: Issues): SpreadConstraint | undefined {
  const map = readMap(value, path, issues);
  if (map === undefined) return undefined;
  let spreadByField = readEnum(map['spreadByField'], SPREAD_FIELDS, childPath(path, 'spreadByField'), issues);
  const spreadByLabel =
    readString(map['spreadByLabel'], childPath(path, 'spreadByLabel'), issues) || undefined;
  const maxGroups = readInt(map['maxGroups'], childPath(path, 'maxGroups'), issues);
  const minGroups = readInt(map['minGroups'], childPath(path, 'minGroups'), issues);
  if (spreadByField === undefined && spreadByLabel === undefined) spreadByField = 'cluster';
  return compact<SpreadConstraint>({
    spreadByField,
    spreadByLabel,
    maxGroups,
    minGroups: minGroups === undefined || minGroups === 0 ? 1 : minGroups,
  });
}
