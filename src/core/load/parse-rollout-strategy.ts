// A RolloutStrategy (gitfleet.io/v1alpha1, namespaced: it selects templates of its own namespace)
// or ClusterRolloutStrategy (cluster-scoped: it selects templates of any namespace), the fleet's
// progressive rollouts (docs/rollout.md):
//
// | field                          | rule                                                         |
// |--------------------------------|--------------------------------------------------------------|
// | spec.resourceSelectors         | required, at least one (Karmada's ResourceSelector shape);   |
// |                                | a RolloutStrategy's selectors are of its namespace           |
// | spec.steps                     | required, at least one                                       |
// | spec.steps[].clusters          | ClusterAffinity (clusterNames, labelSelector, fieldSelector, exclude) |
// | spec.steps[].soakSeconds       | integer >= 0 (default 0)                                     |
// | spec.steps[].maxUnavailable    | integer >= 1 (default: every cluster of the step at once)    |
// | spec.steps[].approval          | Auto (default) or Manual                                     |
// | spec.progressDeadlineSeconds   | integer >= 1 (default 600)                                   |
// | spec.onFailure                 | Halt (default) or Rollback                                   |
// | spec.approvers                 | who may approve Manual steps: allowedSigners and/or          |
// |                                | openpgpKeys (paths in the fleet repository, at least one),   |
// |                                | allowSelfApproval (default false); absent: unverified        |
// Unknown fields, at any depth, are refused by the strict-field pass (schema/rollout-strategy.ts).
import type {
  RolloutApprovers,
  RolloutStep,
  RolloutStrategy,
  RolloutStrategyKind,
} from '../model/rollout.js';
import type { SourceLocation } from '../model/source-location.js';
import {
  childPath,
  isAbsent,
  readBool,
  readEnum,
  readInt,
  readList,
  readMap,
  readString,
  type Issues,
} from './field-reader.js';
import { parseClusterAffinity, parseResourceSelectors } from './parse-selectors.js';

/** Returns the typed strategy with its defaults, or the list of problems found in it. */
export function parseRolloutStrategy(doc: {
  object: Record<string, unknown>;
  kind: RolloutStrategyKind;
  namespace: string;
  name: string;
  source: SourceLocation;
}): { ok: true; strategy: RolloutStrategy } | { ok: false; issues: Issues } {
  const issues: Issues = [];
  const spec = readMap(doc.object['spec'], 'spec', issues);
  if (spec === undefined) {
    if (issues.length === 0) issues.push({ path: 'spec', message: 'is required' });
    return { ok: false, issues };
  }
  const resourceSelectors =
    parseResourceSelectors(spec['resourceSelectors'], 'spec.resourceSelectors', doc.namespace, issues) ?? [];
  if (resourceSelectors.length === 0 && !issues.some((i) => i.path.startsWith('spec.resourceSelectors')))
    issues.push({ path: 'spec.resourceSelectors', message: 'is required and must have at least one item' });
  const steps = readList(spec['steps'], 'spec.steps', issues, (v, p) => parseStep(v, p, issues)) ?? [];
  if (steps.length === 0 && !issues.some((i) => i.path.startsWith('spec.steps')))
    issues.push({ path: 'spec.steps', message: 'is required and must have at least one item' });
  const deadline = readInt(spec['progressDeadlineSeconds'], 'spec.progressDeadlineSeconds', issues);
  if (deadline !== undefined && deadline < 1)
    issues.push({ path: 'spec.progressDeadlineSeconds', message: 'must be at least 1' });
  const onFailure = readEnum(spec['onFailure'], ['Halt', 'Rollback'] as const, 'spec.onFailure', issues);
  const approvers = isAbsent(spec['approvers']) ? undefined : parseApprovers(spec['approvers'], issues);
  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    strategy: {
      kind: doc.kind,
      namespace: doc.namespace,
      name: doc.name,
      resourceSelectors,
      steps,
      progressDeadlineSeconds: deadline ?? 600,
      onFailure: onFailure ?? 'Halt',
      ...(approvers ? { approvers } : {}),
      source: doc.source,
    },
  };
}

function parseStep(value: unknown, path: string, issues: Issues): RolloutStep | undefined {
  const step = readMap(value, path, issues);
  if (step === undefined) return undefined;
  const clusters =
    step['clusters'] === undefined || step['clusters'] === null
      ? undefined
      : parseClusterAffinity(step['clusters'], childPath(path, 'clusters'), issues);
  const soak = readInt(step['soakSeconds'], childPath(path, 'soakSeconds'), issues);
  if (soak !== undefined && soak < 0)
    issues.push({ path: childPath(path, 'soakSeconds'), message: 'must not be negative' });
  const maxUnavailable = readInt(step['maxUnavailable'], childPath(path, 'maxUnavailable'), issues);
  if (maxUnavailable !== undefined && maxUnavailable < 1)
    issues.push({ path: childPath(path, 'maxUnavailable'), message: 'must be at least 1' });
  const approval = readEnum(
    step['approval'],
    ['Auto', 'Manual'] as const,
    childPath(path, 'approval'),
    issues,
  );
  return {
    ...(clusters ? { clusters } : {}),
    soakSeconds: soak ?? 0,
    ...(maxUnavailable !== undefined ? { maxUnavailable } : {}),
    approval: approval ?? 'Auto',
  };
}

function parseApprovers(value: unknown, issues: Issues): RolloutApprovers | undefined {
  const path = 'spec.approvers';
  const map = readMap(value, path, issues);
  if (map === undefined) return undefined;
  const allowedSigners = readString(map['allowedSigners'], childPath(path, 'allowedSigners'), issues);
  const openpgpKeys = readString(map['openpgpKeys'], childPath(path, 'openpgpKeys'), issues);
  const self = readBool(map['allowSelfApproval'], childPath(path, 'allowSelfApproval'), issues);
  if (!allowedSigners && !openpgpKeys) {
    issues.push({
      path,
      message:
        'names no key file: give allowedSigners (allowed_signers lines) and/or openpgpKeys (armored public keys)',
    });
    return undefined;
  }
  return {
    ...(allowedSigners ? { allowedSigners } : {}),
    ...(openpgpKeys ? { openpgpKeys } : {}),
    allowSelfApproval: self ?? false,
  };
}
