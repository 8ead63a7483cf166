// Every binding of a cluster on one of its objects: the binding's policy (missing: nothing is
// checked, the binding itself is reported by checkBindings), its params, and the policy run.
// The variables an expression sees (docs/admission-policies.md#variables):
//
// | variable        | value                                                                             |
// |-----------------|-----------------------------------------------------------------------------------|
// | object          | the object as rendered for the cluster                                            |
// | oldObject       | null: the check takes each apply as a create                                      |
// | params          | the param the binding's paramRef finds on the cluster (null without a paramKind) |
// | namespaceObject | the object's Namespace as placed on the cluster (null: cluster-scoped, or none)   |
// | request         | a synthetic request: operation, kind, resource, name, namespace, the agent as userInfo |
// | variables       | the policy's variables, in order                                                  |
// | authorizer      | not available: it asks the member's API server (an expression using it errs)     |
import type { CelInput } from '@bufbuild/cel';
import { applyAsAnnotation } from '../model/gitfleet-keys.js';
import type { KubeObject } from '../model/kube-object.js';
import { groupOf } from '../model/object-ref.js';
import { matchLabelSelector } from '../select/match-label-selector.js';
import type { AdmissionBinding, AdmissionPolicy } from './admission-policy.js';
import { kindDirOf, type ClusterPolicies } from './cluster-policies.js';
import type { CompiledPolicy } from './compile-policy.js';
import { evaluatePolicy, type AdmissionFinding } from './evaluate-policy.js';
import { matchesResources, operationOf, resourceOf, type MatchSubject } from './match-resources.js';
import { toCelInput } from './to-cel-input.js';

/** The identity the agent applies as (deploy/agent/serviceaccount.yaml), unless a Tenant's impersonation says otherwise. */
export const agentUser = 'system:serviceaccount:gitfleet-system:gitfleet-agent';

/** Returns what the cluster's bindings find on an object. */
export function admitObject(opts: {
  object: KubeObject;
  cluster: ClusterPolicies;
  compiled: (policy: AdmissionPolicy) => CompiledPolicy;
}): AdmissionFinding[] {
  const { object, cluster } = opts;
  const namespace = object.metadata.namespace ?? '';
  const namespaceObject = namespace ? cluster.namespaces.get(namespace) : undefined;
  const subject: MatchSubject = {
    object,
    namespaceLabels: namespace
      ? { ...namespaceObject?.metadata.labels, 'kubernetes.io/metadata.name': namespace }
      : undefined,
  };
  const policies = new Map([...cluster.policies.values()].map((p) => [p.name, p]));
  const findings: AdmissionFinding[] = [];
  let vars: Record<string, CelInput> | undefined;
  for (const binding of cluster.bindings.values()) {
    const policy = policies.get(binding.policyName);
    if (!policy || !matchesResources(policy.matchConstraints, subject)) continue;
    if (binding.matchResources && !matchesResources(binding.matchResources, subject, true)) continue;
    if (!isBindable(policy, binding)) continue;
    const params = paramsOf(policy, binding, cluster, namespace);
    if (params === 'none') {
      if (binding.paramRef?.parameterNotFoundAction !== 'Allow')
        for (const action of binding.validationActions)
          findings.push({
            policy: policy.name,
            binding: binding.name,
            action,
            message: 'no params found for policy binding with `Deny` parameterNotFoundAction',
            reason: 'InternalError',
          });
      continue;
    }
    vars ??= variablesOf(object, namespaceObject);
    vars['request'] = requestOf(object, operationOf(policy.matchConstraints, object));
    findings.push(...evaluatePolicy({ compiled: opts.compiled(policy), binding, params, vars }));
  }
  return findings;
}

/** Returns whether a binding fits its policy's params (a mismatch is reported by checkBindings). */
export function isBindable(policy: AdmissionPolicy, binding: AdmissionBinding): boolean {
  return (policy.paramKind === undefined) === (binding.paramRef === undefined);
}

function paramsOf(
  policy: AdmissionPolicy,
  binding: AdmissionBinding,
  cluster: ClusterPolicies,
  objectNamespace: string,
): CelInput[] | 'none' {
  if (!policy.paramKind || !binding.paramRef) return [null];
  const ref = binding.paramRef;
  const candidates = cluster.params.get(kindDirOf(policy.paramKind)) ?? [];
  // An unset namespace means the object's own for a namespaced param kind (cluster-scoped: none).
  const namespace = ref.namespace ?? objectNamespace;
  const found = candidates.filter((p) => {
    const ns = p.metadata.namespace ?? '';
    if (ns !== '' && ns !== namespace) return false;
    if (ref.name !== undefined) return p.metadata.name === ref.name;
    return ref.selector !== undefined && matchLabelSelector(ref.selector, p.metadata.labels ?? {});
  });
  return found.length === 0 ? 'none' : found.map(toCelInput);
}

function variablesOf(object: KubeObject, namespaceObject: KubeObject | undefined): Record<string, CelInput> {
  return {
    object: toCelInput(object),
    oldObject: null,
    namespaceObject: namespaceObject ? toCelInput(namespaceObject) : null,
  };
}

function requestOf(object: KubeObject, operation: 'CREATE' | 'UPDATE'): CelInput {
  const group = groupOf(object.apiVersion);
  const version = object.apiVersion.slice(object.apiVersion.indexOf('/') + 1);
  const username = object.metadata.annotations?.[applyAsAnnotation] ?? agentUser;
  return {
    operation,
    kind: { group, version, kind: object.kind },
    resource: { group, version, resource: resourceOf(object.kind) },
    name: object.metadata.name,
    namespace: object.metadata.namespace ?? '',
    userInfo: { username, groups: ['system:authenticated'] },
    dryRun: false,
  };
}
