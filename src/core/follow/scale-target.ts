import { getPath, type KubeObject } from '../model/kube-object.js';
import type { ObjectRef } from '../model/object-ref.js';

// Every HorizontalPodAutoscaler version carries the same spec.scaleTargetRef
// (CrossVersionObjectReference: apiVersion, kind, name), always in the HPA's own namespace.
const hpaApiVersions: ReadonlySet<string> = new Set([
  'autoscaling/v1',
  'autoscaling/v2',
  'autoscaling/v2beta1',
  'autoscaling/v2beta2',
]);

/**
 * Returns the workload an HPA scales (spec.scaleTargetRef, in the HPA's namespace), or
 * undefined for any other object and for a ref missing its apiVersion, kind or name.
 */
export function scaleTargetOf(object: KubeObject): ObjectRef | undefined {
  if (object.kind !== 'HorizontalPodAutoscaler' || !hpaApiVersions.has(object.apiVersion)) return undefined;
  const apiVersion = getPath(object, ['spec', 'scaleTargetRef', 'apiVersion']);
  const kind = getPath(object, ['spec', 'scaleTargetRef', 'kind']);
  const name = getPath(object, ['spec', 'scaleTargetRef', 'name']);
  // Kubernetes marks apiVersion optional, but without it the target's group is unknown, so
  // the HPA controller cannot resolve it either.
  if (!isText(apiVersion) || !isText(kind) || !isText(name)) return undefined;
  return { apiVersion, kind, namespace: object.metadata.namespace ?? '', name };
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}
