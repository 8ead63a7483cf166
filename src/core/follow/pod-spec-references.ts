import { getPath, isMap } from '../model/kube-object.js';

/** The names a pod spec refers to, by kind, in visiting order (may repeat). */
export interface PodSpecReferences {
  configMaps: string[];
  secrets: string[];
  serviceAccounts: string[];
  persistentVolumeClaims: string[];
}

/**
 * Returns every ConfigMap, Secret, ServiceAccount and PVC name a pod spec refers to.
 *
 * Karmada's rule (pkg/util/helper/pod.go GetDependenciesFromPodTemplate, with the visitors in
 * pkg/util/lifted/visitpod.go lifted from Kubernetes' pkg/api/v1/pod/util.go):
 *
 * | kind           | reference sites                                                              |
 * |----------------|------------------------------------------------------------------------------|
 * | ConfigMap      | envFrom[].configMapRef, env[].valueFrom.configMapKeyRef (every container,    |
 * |                | initContainer and ephemeralContainer); volumes configMap, projected          |
 * |                | sources[].configMap                                                          |
 * | Secret         | imagePullSecrets; envFrom[].secretRef, env[].valueFrom.secretKeyRef (every   |
 * |                | container kind); volumes secret.secretName, azureFile.secretName,            |
 * |                | cephfs/cinder/flexVolume/rbd/scaleIO/iscsi/storageos .secretRef,             |
 * |                | csi.nodePublishSecretRef, projected sources[].secret                         |
 * | ServiceAccount | serviceAccountName, unless empty or `default`                                |
 * | PVC            | volumes[].persistentVolumeClaim.claimName                                    |
 *
 * `optional: true` does not matter: the visitors never look at it. Empty names are skipped.
 * Transitive references (pod → PVC → PV → Secret) are not followed.
 */
export function podSpecReferences(podSpec: unknown): PodSpecReferences {
  const containers = containersOf(podSpec);
  const volumes = listAt(podSpec, ['volumes']);
  return {
    configMaps: [...containers.flatMap(containerConfigMaps), ...volumes.flatMap(volumeConfigMaps)],
    secrets: [
      ...listAt(podSpec, ['imagePullSecrets']).map((ref) => getPath(ref, ['name'])),
      ...containers.flatMap(containerSecrets),
      ...volumes.flatMap(volumeSecrets),
    ].filter(isName),
    serviceAccounts: [getPath(podSpec, ['serviceAccountName'])].filter(isName).filter((n) => n !== 'default'),
    persistentVolumeClaims: volumes
      .map((v) => getPath(v, ['persistentVolumeClaim', 'claimName']))
      .filter(isName),
  };
}

// Kubernetes' VisitContainers with AllContainers: init containers, then containers, then
// ephemeral containers (an EphemeralContainer has the same env/envFrom fields inline).
function containersOf(podSpec: unknown): unknown[] {
  return [
    ...listAt(podSpec, ['initContainers']),
    ...listAt(podSpec, ['containers']),
    ...listAt(podSpec, ['ephemeralContainers']),
  ];
}

function containerConfigMaps(container: unknown): string[] {
  return [
    ...listAt(container, ['envFrom']).map((from) => getPath(from, ['configMapRef', 'name'])),
    ...listAt(container, ['env']).map((env) => getPath(env, ['valueFrom', 'configMapKeyRef', 'name'])),
  ].filter(isName);
}

function containerSecrets(container: unknown): string[] {
  return [
    ...listAt(container, ['envFrom']).map((from) => getPath(from, ['secretRef', 'name'])),
    ...listAt(container, ['env']).map((env) => getPath(env, ['valueFrom', 'secretKeyRef', 'name'])),
  ].filter(isName);
}

function volumeConfigMaps(volume: unknown): string[] {
  return [
    getPath(volume, ['configMap', 'name']),
    ...listAt(volume, ['projected', 'sources']).map((source) => getPath(source, ['configMap', 'name'])),
  ].filter(isName);
}

// Where each volume source names its Secret. A valid volume has exactly one source, so
// reading every row gives the same answer as Karmada's first-match switch.
const volumeSecretPaths: readonly (readonly string[])[] = [
  ['secret', 'secretName'],
  ['azureFile', 'secretName'],
  ['cephfs', 'secretRef', 'name'],
  ['cinder', 'secretRef', 'name'],
  ['flexVolume', 'secretRef', 'name'],
  ['rbd', 'secretRef', 'name'],
  ['scaleIO', 'secretRef', 'name'],
  ['iscsi', 'secretRef', 'name'],
  ['storageos', 'secretRef', 'name'],
  ['csi', 'nodePublishSecretRef', 'name'],
];

function volumeSecrets(volume: unknown): string[] {
  return [
    ...volumeSecretPaths.map((path) => getPath(volume, path)),
    ...listAt(volume, ['projected', 'sources']).map((source) => getPath(source, ['secret', 'name'])),
  ].filter(isName);
}

function listAt(value: unknown, path: readonly string[]): unknown[] {
  const list = getPath(value, path);
  return Array.isArray(list) ? list.filter(isMap) : [];
}

function isName(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}
