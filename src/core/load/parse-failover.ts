// A propagation policy's `failover`, checked as Karmada checks it. gitfleet does not act on
// failover (it has no failover controller); it refuses what Karmada refuses, so a fleet that
// loads here is one Karmada would accept.
//
// | field                                        | rule                                          | Karmada source |
// |----------------------------------------------|-----------------------------------------------|----------------|
// | application set                              | propagateDeps must be true                    | ValidatePropagationSpec |
// | application.decisionConditions               | required                                      | CRD (propagation_types.go) |
// | application.decisionConditions.tolerationSeconds | ≥ 0 (default 300)                         | ValidateApplicationFailover |
// | application.purgeMode                        | Directly, Gracefully or Never (default Gracefully) | CRD enum |
// | application.gracePeriodSeconds               | only with Gracefully; > 0; 600 when Gracefully leaves it out | ValidateApplicationFailover, SetDefaultGracePeriodSeconds (mutating webhook) |
// | cluster.purgeMode                            | Directly or Gracefully (default Gracefully)   | CRD enum |
// | *.statePreservation.rules                    | required; each aliasLabelName a label key, jsonPath required | CRD, validateStatePreservationRule |
//
// The mutating webhook runs before the validating one, so "Gracefully without
// gracePeriodSeconds" (refused by ValidateApplicationFailover) never reaches it: it is accepted.
import { quoteText } from '../model/quote-text.js';
import {
  childPath,
  isAbsent,
  readEnum,
  readInt,
  readList,
  readMap,
  readRequiredString,
  type Issues,
} from './field-reader.js';
import { checkQualifiedName } from './name-rules.js';

const APPLICATION_PURGE_MODES = ['Directly', 'Gracefully', 'Never'] as const;
const CLUSTER_PURGE_MODES = ['Directly', 'Gracefully'] as const;

/** Records every problem of `spec.failover` (absent: none). */
export function checkFailover(value: unknown, propagateDeps: boolean, path: string, issues: Issues): void {
  const failover = readMap(value, path, issues);
  if (failover === undefined) return;
  if (!isAbsent(failover['application'])) {
    if (!propagateDeps) {
      issues.push({
        path: 'spec.propagateDeps',
        message: 'application failover is set, propagateDeps must be true',
      });
    }
    checkApplicationFailover(failover['application'], childPath(path, 'application'), issues);
  }
  const cluster = readMap(failover['cluster'], childPath(path, 'cluster'), issues);
  if (cluster !== undefined) {
    const at = childPath(path, 'cluster');
    readEnum(cluster['purgeMode'], CLUSTER_PURGE_MODES, childPath(at, 'purgeMode'), issues);
    checkStatePreservation(cluster['statePreservation'], childPath(at, 'statePreservation'), issues);
  }
}

function checkApplicationFailover(value: unknown, path: string, issues: Issues): void {
  const app = readMap(value, path, issues);
  if (app === undefined) return;
  const conditionsPath = childPath(path, 'decisionConditions');
  if (isAbsent(app['decisionConditions'])) issues.push({ path: conditionsPath, message: 'is required' });
  const conditions = readMap(app['decisionConditions'], conditionsPath, issues);
  const tolerationPath = childPath(conditionsPath, 'tolerationSeconds');
  const toleration = conditions
    ? readInt(conditions['tolerationSeconds'], tolerationPath, issues)
    : undefined;
  if (toleration !== undefined && toleration < 0) {
    issues.push({ path: tolerationPath, message: `${toleration}: must be greater than or equal to 0` });
  }
  const purgeMode =
    readEnum(app['purgeMode'], APPLICATION_PURGE_MODES, childPath(path, 'purgeMode'), issues) ?? 'Gracefully';
  const gracePath = childPath(path, 'gracePeriodSeconds');
  const grace = readInt(app['gracePeriodSeconds'], gracePath, issues);
  if (grace !== undefined && purgeMode !== 'Gracefully') {
    issues.push({ path: gracePath, message: `${grace}: only takes effect when purgeMode is gracefully` });
  }
  if (grace !== undefined && grace <= 0) {
    issues.push({ path: gracePath, message: `${grace}: must be greater than 0` });
  }
  checkStatePreservation(app['statePreservation'], childPath(path, 'statePreservation'), issues);
}

function checkStatePreservation(value: unknown, path: string, issues: Issues): void {
  const preservation = readMap(value, path, issues);
  if (preservation === undefined) return;
  const rulesPath = childPath(path, 'rules');
  if (isAbsent(preservation['rules'])) issues.push({ path: rulesPath, message: 'is required' });
  readList(preservation['rules'], rulesPath, issues, (v, p) => {
    const rule = readMap(v, p, issues);
    if (rule === undefined) return undefined;
    const aliasPath = childPath(p, 'aliasLabelName');
    const alias = readRequiredString(rule['aliasLabelName'], aliasPath, issues);
    const bad = alias === undefined ? undefined : checkQualifiedName(alias);
    if (alias !== undefined && bad) issues.push({ path: aliasPath, message: `${quoteText(alias)}: ${bad}` });
    readRequiredString(rule['jsonPath'], childPath(p, 'jsonPath'), issues);
    return rule;
  });
}
