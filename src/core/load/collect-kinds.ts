// A document of each fleet kind (clusters, policies, strategies, tenants, quotas, sources) to its collected item.
import { type ObjectRef } from '../model/object-ref.js';
import { parseCluster } from './parse-cluster.js';
import { parseClusterTaintPolicy } from './parse-cluster-taint-policy.js';
import { parseInterpreterCustomization } from './parse-interpreter-customization.js';
import { parseOverridePolicy } from './parse-override-policy.js';
import { parsePropagationPolicy } from './parse-propagation-policy.js';
import { parseWorkloadRebalancer } from './parse-workload-rebalancer.js';
import { parseRolloutStrategy } from './parse-rollout-strategy.js';
import { parseTenant } from './parse-tenant.js';
import { parseFederatedResourceQuota } from './parse-federated-resource-quota.js';
import { parseTemplateSource } from './parse-template-source.js';
import { type Envelope } from './read-envelope.js';

import { issuesAt, type CollectedItem, type Place } from './collected-item.js';

export function collectTemplateSource(at: Place, e: Envelope): CollectedItem {
  const kind = e.kind === 'HelmSource' ? 'HelmSource' : 'KustomizeSource';
  const namespace = e.namespace || 'default';
  const ref: ObjectRef = { apiVersion: e.apiVersion, kind: e.kind, namespace, name: e.name };
  const parsed = parseTemplateSource({
    object: e.object,
    kind,
    namespace: e.namespace,
    name: e.name,
    source: at.source,
  });
  if (!parsed.ok) return issuesAt(at, 'InvalidSource', `${kind}/${namespace}/${e.name}`, parsed.issues);
  return { place: at, type: 'templateSource', ref, templateSource: parsed.source };
}

export function collectCluster(at: Place, e: Envelope): CollectedItem {
  const ref: ObjectRef = { apiVersion: e.apiVersion, kind: e.kind, namespace: '', name: e.name };
  const parsed = parseCluster({ object: e.object, name: e.name, source: at.source });
  if (!parsed.ok) return issuesAt(at, 'InvalidCluster', `Cluster/${e.name}`, parsed.issues);
  return { place: at, type: 'cluster', ref, cluster: parsed.cluster };
}

// A PropagationPolicy or OverridePolicy without metadata.namespace lives in `default`, where
// `kubectl apply` would create it; the cluster-wide kinds have no namespace.
export function collectPolicy(at: Place, e: Envelope, role: PolicyRole): CollectedItem {
  const namespaced = role === 'PropagationPolicy' || role === 'OverridePolicy';
  const namespace = namespaced ? e.namespace || 'default' : '';
  const ref: ObjectRef = { apiVersion: e.apiVersion, kind: e.kind, namespace, name: e.name };
  const doc = { object: e.object, namespace, name: e.name, source: at.source };
  const subject = namespace ? `${role}/${namespace}/${e.name}` : `${role}/${e.name}`;
  if (role === 'PropagationPolicy' || role === 'ClusterPropagationPolicy') {
    const parsed = parsePropagationPolicy({ ...doc, kind: role });
    if (!parsed.ok) return issuesAt(at, 'InvalidPolicy', subject, parsed.issues);
    return { place: at, type: 'propagationPolicy', ref, policy: parsed.policy };
  }
  const parsed = parseOverridePolicy({ ...doc, kind: role });
  if (!parsed.ok) return issuesAt(at, 'InvalidPolicy', subject, parsed.issues);
  return { place: at, type: 'overridePolicy', ref, policy: parsed.policy };
}

// A customization configures the interpreter; like a policy it is never propagated.
export function collectInterpreterCustomization(at: Place, e: Envelope): CollectedItem {
  const ref: ObjectRef = { apiVersion: e.apiVersion, kind: e.kind, namespace: '', name: e.name };
  const parsed = parseInterpreterCustomization({ object: e.object, name: e.name, source: at.source });
  const subject = `ResourceInterpreterCustomization/${e.name}`;
  if (!parsed.ok) return issuesAt(at, 'InvalidPolicy', subject, parsed.issues);
  return { place: at, type: 'interpreterCustomization', ref, customization: parsed.customization };
}

// A ClusterTaintPolicy is read by the hub (core/failover/cluster-taints.ts); it is never propagated.
export function collectClusterTaintPolicy(at: Place, e: Envelope): CollectedItem {
  const ref: ObjectRef = { apiVersion: e.apiVersion, kind: e.kind, namespace: '', name: e.name };
  const parsed = parseClusterTaintPolicy({ object: e.object, name: e.name, source: at.source });
  if (!parsed.ok) return issuesAt(at, 'InvalidPolicy', `ClusterTaintPolicy/${e.name}`, parsed.issues);
  return { place: at, type: 'clusterTaintPolicy', ref, policy: parsed.policy };
}

// A rebalancer asks the hub for a fresh schedule (core/failover/rebalance.ts); it is never propagated.
export function collectWorkloadRebalancer(at: Place, e: Envelope): CollectedItem {
  const ref: ObjectRef = { apiVersion: e.apiVersion, kind: e.kind, namespace: '', name: e.name };
  const parsed = parseWorkloadRebalancer({ object: e.object, name: e.name, source: at.source });
  if (!parsed.ok) return issuesAt(at, 'InvalidPolicy', `WorkloadRebalancer/${e.name}`, parsed.issues);
  return { place: at, type: 'workloadRebalancer', ref, rebalancer: parsed.rebalancer };
}

// A rollout strategy is read by the hub (core/rollout/*); it is never propagated. A RolloutStrategy
// without metadata.namespace lives in `default`, as a PropagationPolicy does.
export function collectRolloutStrategy(
  at: Place,
  e: Envelope,
  kind: 'RolloutStrategy' | 'ClusterRolloutStrategy',
): CollectedItem {
  const namespace = kind === 'RolloutStrategy' ? e.namespace || 'default' : '';
  const ref: ObjectRef = { apiVersion: e.apiVersion, kind: e.kind, namespace, name: e.name };
  const parsed = parseRolloutStrategy({ object: e.object, kind, namespace, name: e.name, source: at.source });
  const subject = namespace ? `${kind}/${namespace}/${e.name}` : `${kind}/${e.name}`;
  if (!parsed.ok) return issuesAt(at, 'InvalidPolicy', subject, parsed.issues);
  return { place: at, type: 'rolloutStrategy', ref, strategy: parsed.strategy };
}

// A Tenant says what the documents under its paths may do (core/tenancy); it is never propagated.
export function collectTenant(at: Place, e: Envelope): CollectedItem {
  const ref: ObjectRef = { apiVersion: e.apiVersion, kind: e.kind, namespace: '', name: e.name };
  const parsed = parseTenant({ object: e.object, name: e.name, source: at.source });
  if (!parsed.ok) return issuesAt(at, 'InvalidTenant', `Tenant/${e.name}`, parsed.issues);
  return { place: at, type: 'tenant', ref, tenant: parsed.tenant };
}

// A FederatedResourceQuota is read by the render (core/quota); it is never propagated. Without
// metadata.namespace it lives in `default`, as a PropagationPolicy does.
export function collectQuota(at: Place, e: Envelope): CollectedItem {
  const namespace = e.namespace || 'default';
  const ref: ObjectRef = { apiVersion: e.apiVersion, kind: e.kind, namespace, name: e.name };
  const parsed = parseFederatedResourceQuota({
    object: e.object,
    namespace,
    name: e.name,
    source: at.source,
  });
  const subject = `FederatedResourceQuota/${namespace}/${e.name}`;
  if (!parsed.ok) return issuesAt(at, 'InvalidPolicy', subject, parsed.issues);
  return { place: at, type: 'quota', ref, quota: parsed.quota };
}

export type PolicyRole =
  'PropagationPolicy' | 'ClusterPropagationPolicy' | 'OverridePolicy' | 'ClusterOverridePolicy';

// Identity is group, kind, namespace and name (the version is not part of it), for every kind;
// for the kinds the API server serves under two groups, the group it stores them in
// (identity-key.ts).
