// The scheduler's refusal of a cluster (a binding record's status.refusedClusters, or a render's
// diagnosis) in words a user acts on: which filter said no, what about the cluster made it say
// so, and what to change. Karmada's filters (pkg/scheduler/framework/plugins) with the names
// core/schedule/cluster-filter.ts gives them.
import type { ClusterDiagnosis } from '../model/binding.js';
import type { Taint } from '../model/cluster.js';
import { groupOf, type ObjectRef } from '../model/object-ref.js';
import type { ClusterExplanation, ExplanationReason } from './explanation.js';

/** The API group of the multi-cluster services' CRDs (ServiceExport, ServiceImport). */
export const mcsGroup = 'multicluster.x-k8s.io';

/** Where the docs say how to put the MCS CRDs on the member clusters. */
export const mcsCrdsDocs = 'docs/multi-cluster-services.md#the-crds-on-the-member-clusters';

/** What the words name besides the refusal: the object and the policy that placed it. */
export interface RefusalContext {
  resource: ObjectRef;
  /** `PropagationPolicy/ns/name` or `ClusterPropagationPolicy/name`; absent for followers. */
  policy?: string;
}

/** Returns the explanation of a cluster the scheduler refused, with the action that would let it in. */
export function explainRefusal(d: ClusterDiagnosis, context: RefusalContext): ClusterExplanation {
  const { reason, message } = wordsOf(d, context);
  return { cluster: d.cluster, placed: false, reason, message, filter: d.filter };
}

function wordsOf(
  d: ClusterDiagnosis,
  context: RefusalContext,
): { reason: ExplanationReason; message: string } {
  const c = d.cluster;
  const policy = context.policy ?? 'the placement';
  const term = /^\[[^\]]*\] /.exec(d.reason)?.[0] ?? '';
  const words = d.reason.slice(term.length);
  switch (d.filter) {
    case 'ClusterAffinity':
      return {
        reason: 'ExcludedByAffinity',
        message: `${c} is excluded by the clusterAffinity of ${policy}: ${term}${words}`,
      };
    case 'Unregistered':
      return {
        reason: 'NotRegistered',
        message: `${c} is named by ${policy} ${term}but no Cluster document registers it: register it, or correct the name`,
      };
    case 'TaintToleration':
      return { reason: 'TaintNotTolerated', message: taintWords(c, d, policy, term) };
    case 'APIEnablement':
      return { reason: 'ApiNotServed', message: apiWords(c, context.resource, term, words) };
    case 'SpreadConstraint':
      return {
        reason: 'SpreadFieldMissing',
        message: `${c}: ${term}${words}: set the field in its Cluster registration, or change the spreadConstraints of ${policy}`,
      };
    case 'ClusterEviction':
      return {
        reason: 'Evicting',
        message: `${c}: ${term}${words}`,
      };
    case 'Capacity':
      return {
        reason: 'NoRoom',
        message: `${c} ${term}${words.replace(/^can take/, 'can take only')}: add capacity there, or lower the replicas`,
      };
  }
}

// The Ready condition's taints say the cluster is down; a user's taint says someone keeps it out.
function taintWords(cluster: string, d: ClusterDiagnosis, policy: string, term: string): string {
  const taint = d.taint;
  const text = taint
    ? formatTaint(taint)
    : d.reason.replace(/^(\[[^\]]*\] )?taint /, '').replace(/ not tolerated$/, '');
  if (taint?.key === 'cluster.karmada.io/not-ready' || taint?.key === 'cluster.karmada.io/unreachable')
    return `${cluster} ${term}is not Ready (taint ${text}): nothing new is placed there until it is Ready again`;
  return `${cluster} ${term}has taint ${text}, which ${policy} does not tolerate: add a matching toleration to its placement.clusterTolerations, or remove the taint`;
}

// A missing API is a CRD not installed there (or a built-in API version the cluster does not
// serve); the multi-cluster services' CRDs have their own instructions.
function apiWords(cluster: string, resource: ObjectRef, term: string, words: string): string {
  const group = groupOf(resource.apiVersion);
  const partial = /\((its API list is partial[^)]*)\)$/.exec(words)?.[1];
  const note = partial ? ` (${partial})` : '';
  if (group === mcsGroup)
    return `${cluster} ${term}lacks the CRD ${group} ${resource.kind}${note}: propagate the MCS CRDs to it (${mcsCrdsDocs})`;
  if (isBuiltInGroup(group))
    return `${cluster} ${term}does not serve ${resource.apiVersion} ${resource.kind}${note}: use an apiVersion its Kubernetes version serves`;
  return `${cluster} ${term}lacks the CRD ${group} ${resource.kind}${note}: propagate its CustomResourceDefinition to the cluster (a CRD template placed there), or install it`;
}

// Kubernetes' own groups: the core group, the unqualified ones (apps, batch…) and *.k8s.io.
function isBuiltInGroup(group: string): boolean {
  return group === '' || !group.includes('.') || group.endsWith('.k8s.io');
}

function formatTaint(taint: Taint): string {
  return taint.value ? `${taint.key}=${taint.value}:${taint.effect}` : `${taint.key}:${taint.effect}`;
}
