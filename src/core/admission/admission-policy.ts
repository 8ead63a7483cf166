// The two documents of Kubernetes' ValidatingAdmissionPolicy (admissionregistration.k8s.io/v1),
// read from a cluster's rendered objects: the fields gitfleet evaluates, with Kubernetes'
// defaults (failurePolicy Fail, matchPolicy Equivalent, parameterNotFoundAction Deny).
import { isMap, type KubeObject } from '../model/kube-object.js';
import type { LabelSelector } from '../model/selectors.js';

/** The annotation that keeps a policy or binding for the check only: it is not written to the cluster. */
export const checkOnlyAnnotation = 'gitfleet.io/admission';
export const checkOnlyValue = 'check-only';

export type ValidationAction = 'Deny' | 'Warn' | 'Audit';

/** One rule of matchResources / matchConstraints (NamedRuleWithOperations). */
export interface ResourceRule {
  apiGroups: string[];
  apiVersions: string[];
  resources: string[];
  operations: string[];
  resourceNames: string[];
  scope: string;
}

export interface MatchResources {
  namespaceSelector: LabelSelector | undefined;
  objectSelector: LabelSelector | undefined;
  resourceRules: ResourceRule[];
  excludeResourceRules: ResourceRule[];
  matchPolicy: 'Exact' | 'Equivalent';
}

export interface NamedExpression {
  name: string;
  expression: string;
}

export interface Validation {
  expression: string;
  message: string | undefined;
  messageExpression: string | undefined;
  reason: string | undefined;
}

export interface AdmissionPolicy {
  name: string;
  paramKind: { apiVersion: string; kind: string } | undefined;
  matchConstraints: MatchResources | undefined;
  matchConditions: NamedExpression[];
  variables: NamedExpression[];
  validations: Validation[];
  auditAnnotations: { key: string; valueExpression: string }[];
  failurePolicy: 'Fail' | 'Ignore';
  checkOnly: boolean;
}

export interface AdmissionBinding {
  name: string;
  policyName: string;
  paramRef:
    | {
        name: string | undefined;
        namespace: string | undefined;
        selector: LabelSelector | undefined;
        parameterNotFoundAction: 'Allow' | 'Deny';
      }
    | undefined;
  matchResources: MatchResources | undefined;
  validationActions: ValidationAction[];
  checkOnly: boolean;
}

/** Returns the policy a ValidatingAdmissionPolicy object declares. */
export function readAdmissionPolicy(object: KubeObject): AdmissionPolicy {
  const spec = mapOf(object.spec);
  const paramKind = mapOf(spec['paramKind']);
  return {
    name: object.metadata.name,
    paramKind:
      paramKind['kind'] === undefined
        ? undefined
        : { apiVersion: str(paramKind['apiVersion']) ?? '', kind: String(paramKind['kind']) },
    matchConstraints:
      spec['matchConstraints'] === undefined ? undefined : readMatch(spec['matchConstraints']),
    matchConditions: namedExpressions(spec['matchConditions'], 'expression'),
    variables: namedExpressions(spec['variables'], 'expression'),
    validations: listOf(spec['validations']).map((v) => ({
      expression: str(v['expression']) ?? '',
      message: str(v['message']),
      messageExpression: str(v['messageExpression']),
      reason: str(v['reason']),
    })),
    auditAnnotations: listOf(spec['auditAnnotations']).map((a) => ({
      key: str(a['key']) ?? '',
      valueExpression: str(a['valueExpression']) ?? '',
    })),
    failurePolicy: spec['failurePolicy'] === 'Ignore' ? 'Ignore' : 'Fail',
    checkOnly: isCheckOnly(object),
  };
}

/** Returns the binding a ValidatingAdmissionPolicyBinding object declares. */
export function readAdmissionBinding(object: KubeObject): AdmissionBinding {
  const spec = mapOf(object.spec);
  const paramRef = spec['paramRef'] === undefined ? undefined : mapOf(spec['paramRef']);
  const actions = listOf(spec['validationActions'], true) as unknown[];
  return {
    name: object.metadata.name,
    policyName: str(spec['policyName']) ?? '',
    paramRef: paramRef && {
      name: str(paramRef['name']),
      namespace: str(paramRef['namespace']),
      selector: selectorOf(paramRef['selector']),
      parameterNotFoundAction: paramRef['parameterNotFoundAction'] === 'Allow' ? 'Allow' : 'Deny',
    },
    matchResources: spec['matchResources'] === undefined ? undefined : readMatch(spec['matchResources']),
    validationActions: actions.filter(
      (a): a is ValidationAction => a === 'Deny' || a === 'Warn' || a === 'Audit',
    ),
    checkOnly: isCheckOnly(object),
  };
}

function readMatch(value: unknown): MatchResources {
  const m = mapOf(value);
  return {
    namespaceSelector: selectorOf(m['namespaceSelector']),
    objectSelector: selectorOf(m['objectSelector']),
    resourceRules: listOf(m['resourceRules']).map(readRule),
    excludeResourceRules: listOf(m['excludeResourceRules']).map(readRule),
    matchPolicy: m['matchPolicy'] === 'Exact' ? 'Exact' : 'Equivalent',
  };
}

function readRule(r: Record<string, unknown>): ResourceRule {
  const strings = (v: unknown) => (listOf(v, true) as unknown[]).map(String);
  return {
    apiGroups: strings(r['apiGroups']),
    apiVersions: strings(r['apiVersions']),
    resources: strings(r['resources']),
    operations: strings(r['operations']),
    resourceNames: strings(r['resourceNames']),
    scope: str(r['scope']) ?? '*',
  };
}

function isCheckOnly(object: KubeObject): boolean {
  return object.metadata.annotations?.[checkOnlyAnnotation] === checkOnlyValue;
}

/** Returns whether a template is a ValidatingAdmissionPolicy or binding kept for the check only (never applied). */
export function isCheckOnlyTemplate(object: KubeObject): boolean {
  return (
    object.apiVersion.startsWith('admissionregistration.k8s.io/') &&
    (object.kind === 'ValidatingAdmissionPolicy' || object.kind === 'ValidatingAdmissionPolicyBinding') &&
    isCheckOnly(object)
  );
}

function namedExpressions(value: unknown, field: string): NamedExpression[] {
  return listOf(value).map((v) => ({ name: str(v['name']) ?? '', expression: str(v[field]) ?? '' }));
}

function selectorOf(value: unknown): LabelSelector | undefined {
  return isMap(value) ? (value as LabelSelector) : undefined;
}

function mapOf(value: unknown): Record<string, unknown> {
  return isMap(value) ? value : {};
}

function listOf(value: unknown, raw = false): Record<string, unknown>[] {
  if (!Array.isArray(value)) return [];
  return raw ? (value as Record<string, unknown>[]) : value.filter(isMap);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
