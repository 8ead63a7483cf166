// The names a user types for a kind, as kubectl takes them: the kind (`Deployment`), its
// lowercase singular and plural resource names (`deployment`, `deployments`), its short names
// (`deploy`), each optionally with the group (`deployment.apps`, `deployments.apps`). The table
// holds the built-in kinds a fleet propagates and the multi-cluster services' CRDs
// (`kubectl api-resources` lists the same names); any other kind (a CRD's) is matched as typed,
// or by its plural, against the kinds the cluster branches hold.
import { suggestField } from '../load/schema/suggest-field.js';

/** One kind as kubectl names it. */
export interface KindNames {
  kind: string;
  /** '' for the core group. */
  group: string;
  plural: string;
  short?: readonly string[];
}

const k = (kind: string, group: string, plural: string, ...short: string[]): KindNames => ({
  kind,
  group,
  plural,
  ...(short.length > 0 ? { short } : {}),
});

/** The built-in kinds, by group, with kubectl's plurals and short names. */
export const builtinKinds: readonly KindNames[] = [
  k('ConfigMap', '', 'configmaps', 'cm'),
  k('Endpoints', '', 'endpoints', 'ep'),
  k('Event', '', 'events', 'ev'),
  k('LimitRange', '', 'limitranges', 'limits'),
  k('Namespace', '', 'namespaces', 'ns'),
  k('Node', '', 'nodes', 'no'),
  k('PersistentVolume', '', 'persistentvolumes', 'pv'),
  k('PersistentVolumeClaim', '', 'persistentvolumeclaims', 'pvc'),
  k('Pod', '', 'pods', 'po'),
  k('PodTemplate', '', 'podtemplates'),
  k('ReplicationController', '', 'replicationcontrollers', 'rc'),
  k('ResourceQuota', '', 'resourcequotas', 'quota'),
  k('Secret', '', 'secrets'),
  k('Service', '', 'services', 'svc'),
  k('ServiceAccount', '', 'serviceaccounts', 'sa'),
  k('MutatingWebhookConfiguration', 'admissionregistration.k8s.io', 'mutatingwebhookconfigurations'),
  k('ValidatingWebhookConfiguration', 'admissionregistration.k8s.io', 'validatingwebhookconfigurations'),
  k('CustomResourceDefinition', 'apiextensions.k8s.io', 'customresourcedefinitions', 'crd', 'crds'),
  k('APIService', 'apiregistration.k8s.io', 'apiservices'),
  k('ControllerRevision', 'apps', 'controllerrevisions'),
  k('DaemonSet', 'apps', 'daemonsets', 'ds'),
  k('Deployment', 'apps', 'deployments', 'deploy'),
  k('ReplicaSet', 'apps', 'replicasets', 'rs'),
  k('StatefulSet', 'apps', 'statefulsets', 'sts'),
  k('HorizontalPodAutoscaler', 'autoscaling', 'horizontalpodautoscalers', 'hpa'),
  k('CronJob', 'batch', 'cronjobs', 'cj'),
  k('Job', 'batch', 'jobs'),
  k('Lease', 'coordination.k8s.io', 'leases'),
  k('EndpointSlice', 'discovery.k8s.io', 'endpointslices'),
  k('ServiceExport', 'multicluster.x-k8s.io', 'serviceexports'),
  k('ServiceImport', 'multicluster.x-k8s.io', 'serviceimports'),
  k('Ingress', 'networking.k8s.io', 'ingresses', 'ing'),
  k('IngressClass', 'networking.k8s.io', 'ingressclasses'),
  k('NetworkPolicy', 'networking.k8s.io', 'networkpolicies', 'netpol'),
  k('PodDisruptionBudget', 'policy', 'poddisruptionbudgets', 'pdb'),
  k('ClusterRole', 'rbac.authorization.k8s.io', 'clusterroles'),
  k('ClusterRoleBinding', 'rbac.authorization.k8s.io', 'clusterrolebindings'),
  k('Role', 'rbac.authorization.k8s.io', 'roles'),
  k('RoleBinding', 'rbac.authorization.k8s.io', 'rolebindings'),
  k('PriorityClass', 'scheduling.k8s.io', 'priorityclasses', 'pc'),
  k('CSIDriver', 'storage.k8s.io', 'csidrivers'),
  k('StorageClass', 'storage.k8s.io', 'storageclasses', 'sc'),
];

/** A kind present on the cluster branches: its directory's kind and group (`Widget`, `example.com`). */
export interface PresentKind {
  kind: string;
  group: string;
}

/** What a typed kind names: a kind (its group when typed or known), or why it names none. */
export type KindResolution =
  { ok: true; kind: string; group?: string } | { ok: false; message: string; suggestion?: string };

/**
 * Returns the kind `typed` (`deploy`, `deployments.apps`, `Widget`) names: a built-in kind by any
 * of kubectl's names, else a kind the cluster branches hold (`held`, asked only then) by its name or plural (any case);
 * else why it names none, with the nearest kind when one is near.
 */
export function resolveKindName(typed: string, held: () => readonly PresentKind[]): KindResolution {
  const dot = typed.indexOf('.');
  const name = (dot < 0 ? typed : typed.slice(0, dot)).toLowerCase();
  const group = dot < 0 ? undefined : typed.slice(dot + 1).toLowerCase();
  const named = (n: KindNames | PresentKind) =>
    (group === undefined || group === n.group.toLowerCase()) && namesOf(n).includes(name);
  const builtin = builtinKinds.find(named);
  if (builtin) return { ok: true, kind: builtin.kind, ...(group !== undefined ? { group } : {}) };
  // Read only now: most kinds typed are built-in ones.
  const present = held();
  const found = present.find(named);
  if (found) return { ok: true, kind: found.kind, ...(group !== undefined ? { group } : {}) };
  // A group no built-in kind of that name has (`Deployment.batch`): a kind of its own, which
  // matches what the branches hold of it, if anything.
  if (group !== undefined && builtinKinds.some((b) => namesOf(b).includes(name)))
    return { ok: true, kind: typed.slice(0, dot), group };
  const suggestion = nearestKind(name, present);
  return {
    ok: false,
    message: `'${typed}' names no kind: not a built-in kind or one of kubectl's names for one (deploy, svc, cm, …), and no cluster branch holds a kind of that name${suggestion ? `; did you mean ${suggestion}?` : ''}`,
    ...(suggestion ? { suggestion } : {}),
  };
}

/** Returns the names a kind answers to, lowercase: kind, plural, short names (and `<kind>s` for a CRD's). */
function namesOf(n: KindNames | PresentKind): string[] {
  const kind = n.kind.toLowerCase();
  const plural = 'plural' in n ? n.plural : pluralOf(kind);
  return [kind, plural, ...('short' in n && n.short ? n.short : [])];
}

// The plural Kubernetes' defaulting gives a CRD's kind (`widget` → `widgets`, `policy` → `policies`).
function pluralOf(kind: string): string {
  if (/[^aeiou]y$/.test(kind)) return `${kind.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(kind)) return `${kind}es`;
  return `${kind}s`;
}

/** Returns the kind whose name, plural or short name is nearest to `name`, when one is near. */
function nearestKind(name: string, present: readonly PresentKind[]): string | undefined {
  const byName = new Map<string, string>();
  for (const n of [...builtinKinds, ...present]) for (const alias of namesOf(n)) byName.set(alias, n.kind);
  const near = suggestField(name, byName.keys());
  return near === undefined ? undefined : byName.get(near);
}
