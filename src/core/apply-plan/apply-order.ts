// The order the agent applies objects in, and the order it prunes them in. Staged as Flux's
// ApplyAllStaged (fluxcd/pkg ssa/manager_apply.go), with kinds ordered within the last stage as
// Argo CD's kind order (gitops-engine pkg/sync/sync_tasks.go), which is Helm's install order:
//
// | stage | what                                                    | why first                                 |
// |-------|---------------------------------------------------------|-------------------------------------------|
// | 0     | CustomResourceDefinitions                               | custom resources need them, Established and in discovery |
// | 1     | Namespace, ClusterRole, ClusterRoleBinding, `*Class` kinds (StorageClass, PriorityClass, IngressClass, RuntimeClass, …), PersistentVolume | cluster-scoped prerequisites namespaced objects refer to |
// | 2     | everything else, in this kind order:                    |                                           |
// |       | NetworkPolicy, ResourceQuota, LimitRange, PodDisruptionBudget, ServiceAccount, Secret, ConfigMap, PersistentVolumeClaim, Role, RoleBinding, Service, Endpoints, EndpointSlice, DaemonSet, Pod, ReplicationController, ReplicaSet, Deployment, HorizontalPodAutoscaler, StatefulSet, Job, CronJob, Ingress | what a pod needs exists before the pod |
// |       | then other built-in kinds (core group, apps, batch, autoscaling, policy, extensions, `*.k8s.io`), by kind |   |
// |       | then custom resources, by group and kind                |                                           |
// |       | then APIService and admission webhooks and policies     | (Argo CD puts APIService last) a webhook whose server is not up yet would block every apply after it |
//
// Ties break by group, kind, namespace and name, so the order is total and deterministic.
//
// Pruning runs the other way (custom resources before their CRDs, Namespaces last): stage 2 in
// reverse kind order, then CRDs, then stage 1 in reverse with Namespaces at the very end. A
// Namespace's deletion takes everything in it and a CRD's takes all its custom resources, so
// those that cascade go after the objects they would take with them.
import { groupOf, type ObjectRef } from '../model/object-ref.js';

/** 0: CRDs; 1: Namespaces and cluster-scoped prerequisites; 2: everything else. */
export type ApplyStage = 0 | 1 | 2;

type KindRef = Pick<ObjectRef, 'apiVersion' | 'kind'>;

const stage1Kinds = [
  '/Namespace',
  'rbac.authorization.k8s.io/ClusterRole',
  'rbac.authorization.k8s.io/ClusterRoleBinding',
];
const stage1Last = '/PersistentVolume';

const stage2Kinds = [
  'networking.k8s.io/NetworkPolicy',
  '/ResourceQuota',
  '/LimitRange',
  'policy/PodDisruptionBudget',
  '/ServiceAccount',
  '/Secret',
  '/ConfigMap',
  '/PersistentVolumeClaim',
  'rbac.authorization.k8s.io/Role',
  'rbac.authorization.k8s.io/RoleBinding',
  '/Service',
  '/Endpoints',
  'discovery.k8s.io/EndpointSlice',
  'apps/DaemonSet',
  '/Pod',
  '/ReplicationController',
  'apps/ReplicaSet',
  'apps/Deployment',
  'autoscaling/HorizontalPodAutoscaler',
  'apps/StatefulSet',
  'batch/Job',
  'batch/CronJob',
  'networking.k8s.io/Ingress',
];

const stage2Last = [
  'apiregistration.k8s.io/APIService',
  'admissionregistration.k8s.io/MutatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding',
];

const builtInGroups = new Set(['', 'apps', 'batch', 'autoscaling', 'policy', 'extensions']);

/** Returns whether a group is served by Kubernetes itself rather than a CRD (by name, as a pure rule). */
export function isBuiltInGroup(group: string): boolean {
  return builtInGroups.has(group) || group.endsWith('.k8s.io');
}

function groupKind(ref: KindRef): string {
  return `${groupOf(ref.apiVersion)}/${ref.kind}`;
}

/** Returns whether the object is a CustomResourceDefinition. */
export function isCrd(ref: KindRef): boolean {
  return groupKind(ref) === 'apiextensions.k8s.io/CustomResourceDefinition';
}

/** Returns the stage an object is applied in. */
export function applyStage(ref: KindRef): ApplyStage {
  if (isCrd(ref)) return 0;
  const gk = groupKind(ref);
  if (stage1Kinds.includes(gk) || gk === stage1Last || ref.kind.endsWith('Class')) return 1;
  return 2;
}

/** Returns the rank of a kind within its stage (lower first). */
function kindRank(ref: KindRef, stage: ApplyStage): number {
  const gk = groupKind(ref);
  if (stage === 0) return 0;
  if (stage === 1) {
    const at = stage1Kinds.indexOf(gk);
    if (at >= 0) return at;
    return gk === stage1Last ? stage1Kinds.length + 1 : stage1Kinds.length;
  }
  const known = stage2Kinds.indexOf(gk);
  if (known >= 0) return known;
  const last = stage2Last.indexOf(gk);
  if (last >= 0) return stage2Kinds.length + 2 + last;
  return isBuiltInGroup(groupOf(ref.apiVersion)) ? stage2Kinds.length : stage2Kinds.length + 1;
}

/** Returns the sort key of an object's kind: stage, rank, group, kind. */
function kindKey(ref: KindRef): [number, number, string, string] {
  const stage = applyStage(ref);
  return [stage, kindRank(ref, stage), groupOf(ref.apiVersion), ref.kind];
}

function compareTuples(a: readonly (number | string)[], b: readonly (number | string)[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Returns the apply order of two objects: negative when `a` is applied first. */
export function compareApplyOrder(a: ObjectRef, b: ObjectRef): number {
  return compareTuples(kindKey(a), kindKey(b)) || compareTuples([a.namespace, a.name], [b.namespace, b.name]);
}

/** Returns the prune rank of a kind: stage 2 reversed, then CRDs, then stage 1 reversed (Namespaces last). */
function pruneKey(ref: KindRef): [number, number, string, string] {
  const [stage, rank, group, kind] = kindKey(ref);
  const phase = stage === 2 ? 0 : stage === 0 ? 1 : 2;
  return [phase, -rank, group, kind];
}

/** Returns the prune order of two objects: negative when `a` is deleted first. */
export function comparePruneOrder(a: ObjectRef, b: ObjectRef): number {
  return (
    compareTuples(pruneKey(a), pruneKey(b)) || compareTuples([a.namespace, a.name], [b.namespace, b.name])
  );
}

/** Returns a key equal for objects of one kind: the unit applied concurrently, one after another in order. */
export function applyGroupKey(ref: KindRef): string {
  return kindKey(ref).join('\u0000');
}

/** Returns the objects split into runs of one kind, in apply order. */
export function applyBatches<T extends { ref: ObjectRef }>(items: readonly T[]): T[][] {
  const sorted = [...items].sort((a, b) => compareApplyOrder(a.ref, b.ref));
  const batches: T[][] = [];
  let key: string | undefined;
  for (const item of sorted) {
    const k = applyGroupKey(item.ref);
    if (k !== key) batches.push([]);
    key = k;
    batches[batches.length - 1]!.push(item);
  }
  return batches;
}
