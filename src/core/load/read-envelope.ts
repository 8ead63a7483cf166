// The envelope every document needs (apiVersion, kind, metadata.name) and the name rules that
// keep every name a single safe path segment of the output layout.
//
// | kind                                                      | metadata.name rule                                  | source                                   |
// |-----------------------------------------------------------|-----------------------------------------------------|------------------------------------------|
// | cluster.karmada.io Cluster                                | DNS-1123 label, at most 48 characters               | ValidateClusterName, pkg/apis/cluster/validation/validation.go |
// | v1 Namespace                                              | DNS-1123 label                                      | Kubernetes ValidateNamespaceName         |
// | v1 Service                                                | DNS-1035 label (starts with a letter, no dots)      | Kubernetes ValidateServiceName           |
// | batch CronJob                                             | DNS-1123 subdomain, at most 52 characters (its Jobs' names add 11) | Kubernetes ValidateCronJob  |
// | rbac.authorization.k8s.io Role, ClusterRole, RoleBinding, ClusterRoleBinding | path segment: not `.`/`..`, no `/` or `%` (so `system:foo` is fine) | Kubernetes ValidateRBACName |
// | everything else (custom resources included)               | DNS-1123 subdomain                                  | Kubernetes NameIsDNSSubdomain            |
// metadata.namespace, when given, must be a DNS-1123 label. None of these can hold '/' or be '..'.
// The keys of a v1 ConfigMap's data and binaryData and a v1 Secret's data and stringData follow
// Kubernetes' IsConfigMapKey (alphanumerics, '-', '_', '.'; not '.', '..' or '..'-prefixed), and a
// ConfigMap key may not be in both data and binaryData, as the API server checks.
import { groupOf } from '../model/object-ref.js';
import { isMap, type KubeObject } from '../model/kube-object.js';
import { quoteText } from '../model/quote-text.js';
import { checkKnownKind } from './check-known-kind.js';
import type { LoadErrorCode } from './load-error.js';
import {
  checkConfigMapKey,
  checkDns1035Label,
  checkDns1123Label,
  checkDns1123Subdomain,
  checkPathSegmentName,
} from './name-rules.js';

export type DocumentRole =
  | 'Cluster'
  | 'PropagationPolicy'
  | 'ClusterPropagationPolicy'
  | 'OverridePolicy'
  | 'ClusterOverridePolicy'
  | 'ClusterTaintPolicy'
  | 'FleetConfig'
  | 'ResourceInterpreterCustomization'
  | 'WorkloadRebalancer'
  | 'RolloutStrategy'
  | 'ClusterRolloutStrategy'
  | 'Tenant'
  | 'NotificationPolicy'
  | 'FederatedResourceQuota'
  | 'TemplateSource'
  | 'Template';

/** A document whose envelope is valid. */
export interface Envelope {
  object: KubeObject;
  role: DocumentRole;
  apiVersion: string;
  kind: string;
  name: string;
  /** metadata.namespace as written ('' when absent). */
  namespace: string;
}

export interface EnvelopeProblem {
  code: Extract<LoadErrorCode, 'MissingField' | 'InvalidName' | 'InvalidFleetConfig' | 'UnknownKind'>;
  message: string;
}

const RBAC_KINDS = new Set(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);

const ROLES: ReadonlyMap<string, DocumentRole> = new Map([
  ['cluster.karmada.io/v1alpha1 Cluster', 'Cluster'],
  ['policy.karmada.io/v1alpha1 PropagationPolicy', 'PropagationPolicy'],
  ['policy.karmada.io/v1alpha1 ClusterPropagationPolicy', 'ClusterPropagationPolicy'],
  ['policy.karmada.io/v1alpha1 OverridePolicy', 'OverridePolicy'],
  ['policy.karmada.io/v1alpha1 ClusterOverridePolicy', 'ClusterOverridePolicy'],
  ['policy.karmada.io/v1alpha1 ClusterTaintPolicy', 'ClusterTaintPolicy'],
  ['gitfleet.io/v1alpha1 FleetConfig', 'FleetConfig'],
  ['config.karmada.io/v1alpha1 ResourceInterpreterCustomization', 'ResourceInterpreterCustomization'],
  ['apps.karmada.io/v1alpha1 WorkloadRebalancer', 'WorkloadRebalancer'],
  ['gitfleet.io/v1alpha1 RolloutStrategy', 'RolloutStrategy'],
  ['gitfleet.io/v1alpha1 ClusterRolloutStrategy', 'ClusterRolloutStrategy'],
  ['gitfleet.io/v1alpha1 Tenant', 'Tenant'],
  ['gitfleet.io/v1alpha1 NotificationPolicy', 'NotificationPolicy'],
  ['policy.karmada.io/v1alpha1 FederatedResourceQuota', 'FederatedResourceQuota'],
  ['gitfleet.io/v1alpha1 HelmSource', 'TemplateSource'],
  ['gitfleet.io/v1alpha1 KustomizeSource', 'TemplateSource'],
]);

/** Returns what a document is by its apiVersion and kind; anything not listed is a resource template. */
export function classifyDocument(apiVersion: string, kind: string): DocumentRole {
  return ROLES.get(`${apiVersion} ${kind}`) ?? 'Template';
}

/** Returns the document's checked envelope, or every problem with it. */
export function readEnvelope(
  value: unknown,
): { ok: true; envelope: Envelope } | { ok: false; problems: EnvelopeProblem[] } {
  if (!isMap(value)) {
    return {
      ok: false,
      problems: [
        { code: 'MissingField', message: 'document is not a mapping with apiVersion, kind and metadata' },
      ],
    };
  }
  const problems: EnvelopeProblem[] = [];
  const apiVersion = requiredString(value['apiVersion'], 'apiVersion', problems);
  const kind = requiredString(value['kind'], 'kind', problems);
  const metadata = value['metadata'];
  const name = isMap(metadata) ? requiredString(metadata['name'], 'metadata.name', problems) : undefined;
  if (!isMap(metadata)) problems.push({ code: 'MissingField', message: 'metadata.name: is required' });
  const rawNamespace = isMap(metadata) ? metadata['namespace'] : undefined;
  const namespace = readNamespace(rawNamespace, problems);
  if (apiVersion === undefined || kind === undefined || name === undefined) return { ok: false, problems };
  const role = classifyDocument(apiVersion, kind);
  if (role === 'Template' && kind === 'FleetConfig' && groupOf(apiVersion) === 'gitfleet.io') {
    problems.push({
      code: 'InvalidFleetConfig',
      message: `apiVersion ${quoteText(apiVersion)} is not supported: use gitfleet.io/v1alpha1`,
    });
  } else if (role === 'Template') {
    const unknown = checkKnownKind(apiVersion, kind);
    if (unknown !== undefined) problems.push({ code: 'UnknownKind', message: unknown });
  }
  const bad = checkName(role, apiVersion, kind, name);
  if (bad) problems.push({ code: 'InvalidName', message: `metadata.name ${quoteText(name)}: ${bad}` });
  if (role === 'Template' && apiVersion === 'v1') problems.push(...dataKeyProblems(kind, value));
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, envelope: { object: value as KubeObject, role, apiVersion, kind, name, namespace } };
}

function requiredString(value: unknown, field: string, problems: EnvelopeProblem[]): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  const message =
    value === undefined || value === null || value === ''
      ? `${field}: is required`
      : `${field}: must be a string`;
  problems.push({ code: 'MissingField', message });
  return undefined;
}

function readNamespace(value: unknown, problems: EnvelopeProblem[]): string {
  if (value === undefined || value === null || value === '') return '';
  if (typeof value !== 'string') {
    problems.push({ code: 'InvalidName', message: 'metadata.namespace: must be a string' });
    return '';
  }
  const bad = checkDns1123Label(value);
  if (bad) problems.push({ code: 'InvalidName', message: `metadata.namespace ${quoteText(value)}: ${bad}` });
  return value;
}

function checkName(role: DocumentRole, apiVersion: string, kind: string, name: string): string | undefined {
  if (role === 'Cluster') return checkDns1123Label(name, 48);
  const group = groupOf(apiVersion);
  if (group === '' && kind === 'Namespace') return checkDns1123Label(name);
  if (group === '' && kind === 'Service') return checkDns1035Label(name);
  if (group === 'batch' && kind === 'CronJob' && name.length > 52)
    return 'must be no more than 52 characters';
  if (group === 'rbac.authorization.k8s.io' && RBAC_KINDS.has(kind)) return checkPathSegmentName(name);
  return checkDns1123Subdomain(name);
}

const DATA_FIELDS: Readonly<Record<string, readonly string[]>> = {
  ConfigMap: ['data', 'binaryData'],
  Secret: ['data', 'stringData'],
};

function dataKeyProblems(kind: string, value: Record<string, unknown>): EnvelopeProblem[] {
  const fields = DATA_FIELDS[kind];
  if (fields === undefined) return [];
  const problems: EnvelopeProblem[] = [];
  const problem = (field: string, key: string, message: string) =>
    problems.push({ code: 'InvalidName', message: `${field} key ${quoteText(key)}: ${message}` });
  for (const field of fields) {
    const map = value[field];
    if (!isMap(map)) continue;
    for (const key of Object.keys(map)) {
      const bad = checkConfigMapKey(key);
      if (bad) problem(field, key, bad);
    }
  }
  const data = value['data'];
  const binary = value['binaryData'];
  if (kind === 'ConfigMap' && isMap(data) && isMap(binary)) {
    for (const key of Object.keys(data))
      if (Object.hasOwn(binary, key)) problem('data', key, 'is in both data and binaryData');
  }
  return problems;
}
