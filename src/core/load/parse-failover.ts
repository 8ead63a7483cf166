// A propagation policy's `failover`, checked as Karmada checks it and kept with Karmada's
// defaults (FailoverBehavior): the application failover stage (core/failover/) acts on it, and
// the taint manager reads the cluster part.
//
// | field                                        | rule                                          | Karmada source |
// |----------------------------------------------|-----------------------------------------------|----------------|
// | application set                              | propagateDeps must be true                    | ValidatePropagationSpec |
// | application.decisionConditions               | required                                      | CRD (propagation_types.go) |
// | application.decisionConditions.tolerationSeconds | ≥ 0 (default 300)                         | ValidateApplicationFailover, CRD default |
// | application.purgeMode                        | Directly, Gracefully or Never (default Gracefully) | CRD enum |
// | application.gracePeriodSeconds               | only with Gracefully; > 0; 600 when Gracefully leaves it out | ValidateApplicationFailover, SetDefaultGracePeriodSeconds (mutating webhook) |
// | cluster.purgeMode                            | Directly or Gracefully (default Gracefully)   | CRD enum |
// | *.statePreservation.rules                    | required; each aliasLabelName a label key, jsonPath required | CRD, validateStatePreservationRule |
// | *.statePreservation.rules[].jsonPath         | gitfleet's JSONPath subset (core/format/json-path.ts) | gitfleet: Karmada finds a bad path only at failover time |
//
// The mutating webhook runs before the validating one, so "Gracefully without
// gracePeriodSeconds" (refused by ValidateApplicationFailover) never reaches it: it is accepted,
// with 600. The last row is gitfleet's own: a path it cannot evaluate would make every failover
// of the workload fail later, on a cluster already unhealthy, so it is refused while loading.
import type { FailoverBehavior, StatePreservationRule } from '../model/failover.js';
import { quoteText } from '../model/quote-text.js';
import { parseJsonPath } from '../format/json-path.js';
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

/** Karmada's CRD default of decisionConditions.tolerationSeconds. */
export const defaultTolerationSeconds = 300;
/** Karmada's webhook default of gracePeriodSeconds with purgeMode Gracefully. */
export const defaultGracePeriodSeconds = 600;

/** Returns `spec.failover` with Karmada's defaults (absent: undefined), recording every problem. */
export function parseFailover(
  value: unknown,
  propagateDeps: boolean,
  path: string,
  issues: Issues,
): FailoverBehavior | undefined {
  const failover = readMap(value, path, issues);
  if (failover === undefined) return undefined;
  const behavior: FailoverBehavior = {};
  if (!isAbsent(failover['application'])) {
    if (!propagateDeps) {
      issues.push({
        path: 'spec.propagateDeps',
        message: 'application failover is set, propagateDeps must be true',
      });
    }
    const application = parseApplicationFailover(
      failover['application'],
      childPath(path, 'application'),
      issues,
    );
    if (application) behavior.application = application;
  }
  const cluster = readMap(failover['cluster'], childPath(path, 'cluster'), issues);
  if (cluster !== undefined) {
    const at = childPath(path, 'cluster');
    const purgeMode = readEnum(cluster['purgeMode'], CLUSTER_PURGE_MODES, childPath(at, 'purgeMode'), issues);
    const rules = parseStatePreservation(
      cluster['statePreservation'],
      childPath(at, 'statePreservation'),
      issues,
    );
    behavior.cluster = {
      purgeMode: purgeMode ?? 'Gracefully',
      ...(rules ? { statePreservation: rules } : {}),
    };
  }
  return behavior;
}

function parseApplicationFailover(
  value: unknown,
  path: string,
  issues: Issues,
): FailoverBehavior['application'] | undefined {
  const app = readMap(value, path, issues);
  if (app === undefined) return undefined;
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
  const rules = parseStatePreservation(
    app['statePreservation'],
    childPath(path, 'statePreservation'),
    issues,
  );
  return {
    tolerationSeconds: toleration ?? defaultTolerationSeconds,
    purgeMode,
    ...(purgeMode === 'Gracefully' ? { gracePeriodSeconds: grace ?? defaultGracePeriodSeconds } : {}),
    ...(rules ? { statePreservation: rules } : {}),
  };
}

function parseStatePreservation(
  value: unknown,
  path: string,
  issues: Issues,
): StatePreservationRule[] | undefined {
  const preservation = readMap(value, path, issues);
  if (preservation === undefined) return undefined;
  const rulesPath = childPath(path, 'rules');
  if (isAbsent(preservation['rules'])) issues.push({ path: rulesPath, message: 'is required' });
  return (
    readList(preservation['rules'], rulesPath, issues, (v, p) => {
      const rule = readMap(v, p, issues);
      if (rule === undefined) return undefined;
      const aliasPath = childPath(p, 'aliasLabelName');
      const alias = readRequiredString(rule['aliasLabelName'], aliasPath, issues);
      const bad = alias === undefined ? undefined : checkQualifiedName(alias);
      if (alias !== undefined && bad)
        issues.push({ path: aliasPath, message: `${quoteText(alias)}: ${bad}` });
      const jsonPathAt = childPath(p, 'jsonPath');
      const jsonPath = readRequiredString(rule['jsonPath'], jsonPathAt, issues);
      const parsed = jsonPath === undefined ? undefined : parseJsonPath(jsonPath);
      if (parsed && !parsed.ok)
        issues.push({ path: jsonPathAt, message: `${quoteText(jsonPath!)}: ${parsed.error}` });
      return alias === undefined || jsonPath === undefined ? undefined : { aliasLabelName: alias, jsonPath };
    }) ?? []
  );
}
