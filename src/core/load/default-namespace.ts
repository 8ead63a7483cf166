import type { ClusterStatus } from '../model/cluster.js';
import type { Fleet, Template } from '../model/fleet.js';
import { isMap } from '../model/kube-object.js';
import { groupOf, refKey, refLabel } from '../model/object-ref.js';
import { locationLabel } from '../model/source-location.js';
import type { LoadError } from './load-error.js';

// Built-in namespaced kinds, by `group/Kind`. A template of one of these without
// metadata.namespace lives in `default`, where `kubectl apply` would create it; without this,
// such a template would never match a PropagationPolicy (whose selectors default to the
// policy's namespace) and would not clash with the same object written with `namespace: default`.
// Custom resources: see defaultCustomResourceNamespaces, which reads their scope from their CRD.
const namespacedKinds = new Set([
  '/ConfigMap',
  '/Secret',
  '/Service',
  '/ServiceAccount',
  '/Pod',
  '/PodTemplate',
  '/Endpoints',
  '/PersistentVolumeClaim',
  '/ReplicationController',
  '/LimitRange',
  '/ResourceQuota',
  '/Event',
  'apps/Deployment',
  'apps/StatefulSet',
  'apps/DaemonSet',
  'apps/ReplicaSet',
  'apps/ControllerRevision',
  'batch/Job',
  'batch/CronJob',
  'autoscaling/HorizontalPodAutoscaler',
  'networking.k8s.io/Ingress',
  'networking.k8s.io/NetworkPolicy',
  'discovery.k8s.io/EndpointSlice',
  'policy/PodDisruptionBudget',
  'rbac.authorization.k8s.io/Role',
  'rbac.authorization.k8s.io/RoleBinding',
  'coordination.k8s.io/Lease',
  'events.k8s.io/Event',
  'storage.k8s.io/CSIStorageCapacity',
  'multicluster.x-k8s.io/ServiceExport',
  'multicluster.x-k8s.io/ServiceImport',
]);

/** Returns the namespace a template lives in: as written, or `default` for a built-in namespaced kind without one. */
export function effectiveNamespace(apiVersion: string, kind: string, written: string): string {
  if (written) return written;
  return namespacedKinds.has(`${groupOf(apiVersion)}/${kind}`) ? 'default' : '';
}

/** Custom kinds' scopes by `group/Kind`: true for Namespaced, false for Cluster. */
export type KindScopes = ReadonlyMap<string, boolean>;

/** Returns the scope each CustomResourceDefinition among the templates gives its kind. */
export function crdScopesOf(templates: readonly Template[]): Map<string, boolean> {
  const scopes = new Map<string, boolean>();
  for (const t of templates) {
    if (t.ref.kind !== 'CustomResourceDefinition' || groupOf(t.ref.apiVersion) !== 'apiextensions.k8s.io')
      continue;
    const spec = t.object['spec'];
    if (!isMap(spec) || typeof spec['group'] !== 'string' || !isMap(spec['names'])) continue;
    const kind = spec['names']['kind'];
    if (typeof kind !== 'string') continue;
    if (spec['scope'] === 'Namespaced' || spec['scope'] === 'Cluster')
      scopes.set(`${spec['group']}/${kind}`, spec['scope'] === 'Namespaced');
  }
  return scopes;
}

/** What defaulting custom resources' namespaces gave: the templates, and each object now defined twice. */
export interface CustomNamespaces {
  templates: Template[];
  /** DuplicateIdentity: a template that, moved to `default`, is the same object as an earlier one. */
  errors: LoadError[];
}

/**
 * Returns the templates with every custom resource written without a namespace, whose kind is
 * Namespaced by a CRD in the fleet (or, for kinds no CRD in the fleet defines, by `scopes`),
 * moved to `default` as `kubectl apply` would create it. Templates left as they were are the
 * same objects. A moved one that is the same object as another template is left out, with an error.
 */
export function defaultCustomResourceNamespaces(
  templates: readonly Template[],
  scopes: KindScopes = new Map(),
): CustomNamespaces {
  const result: CustomNamespaces = { templates: [], errors: [] };
  for (const m of planMoves(templates, scopes)) {
    if (m.duplicateOf === undefined) {
      result.templates.push(m.template);
      continue;
    }
    result.errors.push({
      code: 'DuplicateIdentity',
      ...m.template.source,
      message: `${refLabel(m.template.ref)}: defined twice, at ${locationLabel(m.duplicateOf.source)} and at ${locationLabel(m.template.source)} (without a namespace, so in default)`,
    });
  }
  return result;
}

/**
 * Returns the scope of each kind the clusters report (ApiEnablement resources with
 * `namespaced`), by `group/Kind`, for the kinds every reporting cluster agrees on.
 */
export function clusterScopesOf(clusterStatus: ReadonlyMap<string, ClusterStatus>): Map<string, boolean> {
  const seen = new Map<string, boolean | 'mixed'>();
  for (const status of clusterStatus.values()) {
    for (const enablement of status.apiEnablements ?? []) {
      const group = groupOf(enablement.groupVersion);
      for (const r of enablement.resources) {
        if (r.namespaced === undefined) continue;
        const kind = `${group}/${r.kind}`;
        const before = seen.get(kind);
        seen.set(kind, before === undefined || before === r.namespaced ? r.namespaced : 'mixed');
      }
    }
  }
  const scopes = new Map<string, boolean>();
  for (const [kind, scope] of seen) if (scope !== 'mixed') scopes.set(kind, scope);
  return scopes;
}

/**
 * Returns the fleet with the custom resources no CRD in the fleet scopes, written without a
 * namespace, moved to `default` when the clusters report their kind Namespaced (as
 * defaultCustomResourceNamespaces does at load); the same fleet object when nothing moves. One
 * that would then be the same object as another template stays as written.
 */
export function withClusterScopes(fleet: Fleet, clusterStatus: ReadonlyMap<string, ClusterStatus>): Fleet {
  if (!fleet.templates.some((t) => t.ref.namespace === '')) return fleet;
  const scopes = clusterScopesOf(clusterStatus);
  if (scopes.size === 0) return fleet;
  const moves = planMoves(fleet.templates, scopes);
  if (moves.every((m, i) => m.template === fleet.templates[i])) return fleet;
  return { ...fleet, templates: moves.map((m, i) => (m.duplicateOf ? fleet.templates[i]! : m.template)) };
}

interface Move {
  /** The template, in `default` when it moved. */
  template: Template;
  /** Set when the moved template is the same object as this earlier one. */
  duplicateOf?: Template;
}

// One entry per template, in order: moved to `default` when its kind is Namespaced.
function planMoves(templates: readonly Template[], scopes: KindScopes): Move[] {
  const fromCrds = crdScopesOf(templates);
  const isNamespaced = (t: Template) => {
    const kind = `${groupOf(t.ref.apiVersion)}/${t.ref.kind}`;
    return fromCrds.get(kind) ?? scopes.get(kind) ?? false;
  };
  const moving = new Set(templates.filter((t) => t.ref.namespace === '' && isNamespaced(t)));
  if (moving.size === 0) return templates.map((template) => ({ template }));
  const first = new Map(templates.filter((t) => !moving.has(t)).map((t) => [t.key, t]));
  return templates.map((t) => {
    if (!moving.has(t)) return { template: t };
    const moved = inDefault(t);
    const earlier = first.get(moved.key);
    if (earlier) return { template: moved, duplicateOf: earlier };
    first.set(moved.key, moved);
    return { template: moved };
  });
}

function inDefault(t: Template): Template {
  const ref = { ...t.ref, namespace: 'default' };
  const object = { ...t.object, metadata: { ...t.object.metadata, namespace: 'default' } };
  return {
    ref,
    key: refKey(ref),
    object,
    source: t.source,
    ...(t.encrypted ? { encrypted: { defaultedNamespace: true } } : {}),
  };
}
