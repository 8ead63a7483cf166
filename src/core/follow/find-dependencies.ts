import { getPath, isMap, type KubeObject } from '../model/kube-object.js';
import { refKey, type ObjectRef } from '../model/object-ref.js';
import { podSpecReferences } from './pod-spec-references.js';

/**
 * Where each kind with a default dependency interpreter keeps what it depends on
 * (Karmada's getAllDefaultDependenciesInterpreter, pkg/resourceinterpreter/default/native/dependencies.go).
 * Karmada keys the table by the exact group/version/kind, so e.g. extensions/v1beta1 Ingress has none.
 *
 * | apiVersion                      | kind                                   | dependencies                         |
 * |---------------------------------|----------------------------------------|--------------------------------------|
 * | apps/v1                         | Deployment, ReplicaSet, DaemonSet      | pod template (spec.template.spec)    |
 * | apps/v1                         | StatefulSet                            | pod template minus PVCs named after  |
 * |                                 |                                        | a spec.volumeClaimTemplates[].name   |
 * | batch/v1                        | Job                                    | pod template (spec.template.spec)    |
 * | batch/v1                        | CronJob                                | spec.jobTemplate.spec.template.spec  |
 * | v1                              | Pod                                    | spec                                 |
 * | networking.k8s.io/v1            | Ingress                                | Secrets spec.tls[].secretName        |
 * | multicluster.x-k8s.io/v1alpha1  | ServiceImport                          | Service `derived-<name>`             |
 */
type DependencyInterpreter = (object: KubeObject) => ObjectRef[];

const interpreters: ReadonlyMap<string, DependencyInterpreter> = new Map([
  ['apps/v1/Deployment', podTemplateAt(['spec', 'template', 'spec'])],
  ['apps/v1/ReplicaSet', podTemplateAt(['spec', 'template', 'spec'])],
  ['apps/v1/DaemonSet', podTemplateAt(['spec', 'template', 'spec'])],
  ['apps/v1/StatefulSet', statefulSetDependencies],
  ['batch/v1/Job', podTemplateAt(['spec', 'template', 'spec'])],
  ['batch/v1/CronJob', podTemplateAt(['spec', 'jobTemplate', 'spec', 'template', 'spec'])],
  ['v1/Pod', podTemplateAt(['spec'])],
  ['networking.k8s.io/v1/Ingress', ingressDependencies],
  ['multicluster.x-k8s.io/v1alpha1/ServiceImport', serviceImportDependencies],
]);

/**
 * Returns the objects a template depends on under `propagateDeps` (Karmada's default
 * dependency interpreters): all in the template's namespace, deduplicated, sorted by refKey;
 * empty for kinds without an interpreter.
 */
export function findDependencies(object: KubeObject): ObjectRef[] {
  const interpret = interpreters.get(`${object.apiVersion}/${object.kind}`);
  if (!interpret) return [];
  const unique = new Map<string, ObjectRef>();
  for (const ref of interpret(object)) unique.set(refKey(ref), ref);
  return [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, ref]) => ref);
}

function podTemplateAt(path: readonly string[]): DependencyInterpreter {
  return (object) => podSpecDependencies(object, getPath(object, path));
}

// Karmada turns each name set into core/v1 references in the pod's namespace, which is the
// workload's namespace (lifted.GetPodFromTemplate copies it from the parent object).
function podSpecDependencies(object: KubeObject, podSpec: unknown): ObjectRef[] {
  const refs = podSpecReferences(podSpec);
  const namespace = namespaceOf(object);
  const core = (kind: string) => (name: string) => coreRef(kind, namespace, name);
  return [
    ...refs.configMaps.map(core('ConfigMap')),
    ...refs.secrets.map(core('Secret')),
    ...refs.serviceAccounts.map(core('ServiceAccount')),
    ...refs.persistentVolumeClaims.map(core('PersistentVolumeClaim')),
  ];
}

// A PVC named after a volumeClaimTemplate is the StatefulSet's own per-replica claim, created
// in the member cluster by the StatefulSet controller; propagating a hub copy would be wrong.
function statefulSetDependencies(object: KubeObject): ObjectRef[] {
  const claimTemplates = getPath(object, ['spec', 'volumeClaimTemplates']);
  const templateNames = new Set(
    (Array.isArray(claimTemplates) ? claimTemplates : []).map((t) => getPath(t, ['metadata', 'name'])),
  );
  return podSpecDependencies(object, getPath(object, ['spec', 'template', 'spec'])).filter(
    (ref) => ref.kind !== 'PersistentVolumeClaim' || !templateNames.has(ref.name),
  );
}

// Karmada rejects the whole dependency list when a TLS entry has no secretName (a TLS entry
// may omit it to use the controller's default certificate); we skip that entry instead.
function ingressDependencies(object: KubeObject): ObjectRef[] {
  const tls = getPath(object, ['spec', 'tls']);
  const namespace = namespaceOf(object);
  return (Array.isArray(tls) ? tls.filter(isMap) : [])
    .map((entry) => entry['secretName'])
    .filter((name): name is string => typeof name === 'string' && name !== '')
    .map((name) => coreRef('Secret', namespace, name));
}

// Karmada also depends on the EndpointSlices labelled kubernetes.io/service-name=derived-<name>;
// an ObjectRef names one object, so that selector-based dependency is left to the
// multi-cluster-service stage, which derives those EndpointSlices itself.
function serviceImportDependencies(object: KubeObject): ObjectRef[] {
  return [coreRef('Service', namespaceOf(object), `derived-${object.metadata.name}`)];
}

function namespaceOf(object: KubeObject): string {
  return object.metadata.namespace ?? '';
}

function coreRef(kind: string, namespace: string, name: string): ObjectRef {
  return { apiVersion: 'v1', kind, namespace, name };
}
