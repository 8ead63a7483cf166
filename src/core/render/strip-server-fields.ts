import { isMap, type KubeObject } from '../model/kube-object.js';

const metadataFields = [
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'generation',
  'managedFields',
  'resourceVersion',
  'selfLink',
  'uid',
  'ownerReferences',
  'finalizers',
];

/**
 * Removes, in place, the fields an API server owns, as Karmada's prune.RemoveIrrelevantFields
 * (pkg/resourceinterpreter/default/native/prune/prune.go):
 *
 * | what                                                    | kind            |
 * |---------------------------------------------------------|-----------------|
 * | metadata creationTimestamp, deletionTimestamp, deletionGracePeriodSeconds, generation, managedFields, resourceVersion, selfLink, uid, ownerReferences, finalizers; status | all |
 * | revision annotations deployment.kubernetes.io/revision(-history) | Deployment |
 * | controller-uid / job-name labels unless spec.manualSelector | Job         |
 * | spec.ttlSecondsAfterFinished (Karmada's extra hook)      | Job             |
 * | `<name>-token-*` secrets                                | ServiceAccount  |
 * | clusterIP and clusterIPs unless clusterIP is None        | Service         |
 * | data and the service-account uid annotation of token secrets | Secret      |
 * | the volume.kubernetes.io/selected-node annotation        | PVC             |
 */
export function stripServerFields(object: KubeObject): void {
  const meta = object.metadata;
  for (const field of metadataFields) delete meta[field];
  delete object.status;
  switch (object.kind) {
    case 'Deployment':
      deleteAnnotations(object, [
        'deployment.kubernetes.io/revision',
        'deployment.kubernetes.io/revision-history',
      ]);
      break;
    case 'Job':
      stripJob(object);
      break;
    case 'ServiceAccount':
      stripServiceAccount(object);
      break;
    case 'Service':
      stripService(object);
      break;
    case 'Secret':
      if (object.type === 'kubernetes.io/service-account-token') {
        deleteAnnotations(object, ['kubernetes.io/service-account.uid']);
        delete object.data;
      }
      break;
    case 'PersistentVolumeClaim':
      deleteAnnotations(object, ['volume.kubernetes.io/selected-node']);
      break;
  }
}

function deleteAnnotations(object: KubeObject, keys: string[]): void {
  const annotations = object.metadata.annotations;
  if (!annotations) return;
  for (const key of keys) delete annotations[key];
}

function deleteKeys(map: unknown, keys: string[]): void {
  if (!isMap(map)) return;
  for (const key of keys) delete map[key];
}

function stripJob(object: KubeObject): void {
  const spec = object.spec;
  if (!isMap(spec)) return;
  delete spec.ttlSecondsAfterFinished;
  if (spec.manualSelector === true) return;
  const selector = spec.selector;
  if (isMap(selector)) {
    deleteKeys(selector.matchLabels, ['controller-uid', 'batch.kubernetes.io/controller-uid']);
    // Unlike Karmada, drop a selector left empty: an API server refuses a hand-written Job
    // selector without manualSelector, and an empty one selects every pod.
    if (isEmptyMap(selector.matchLabels) && !Array.isArray(selector.matchExpressions)) delete spec.selector;
  }
  const template = spec.template;
  if (isMap(template) && isMap(template.metadata)) {
    deleteKeys(template.metadata.labels, [
      'controller-uid',
      'job-name',
      'batch.kubernetes.io/controller-uid',
      'batch.kubernetes.io/job-name',
    ]);
  }
}

function isEmptyMap(value: unknown): boolean {
  return value === undefined || (isMap(value) && Object.keys(value).length === 0);
}

function stripServiceAccount(object: KubeObject): void {
  const secrets = object.secrets;
  if (!Array.isArray(secrets)) return;
  const prefix = `${object.metadata.name}-token-`;
  object.secrets = secrets.filter(
    (s) => !(isMap(s) && typeof s.name === 'string' && s.name.startsWith(prefix)),
  );
}

function stripService(object: KubeObject): void {
  const spec = object.spec;
  if (!isMap(spec) || spec.clusterIP === undefined || spec.clusterIP === 'None') return;
  delete spec.clusterIP;
  delete spec.clusterIPs;
}
