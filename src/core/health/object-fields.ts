import { getPath, isMap, type KubeObject } from '../model/kube-object.js';

/** A condition as the Kubernetes API writes it in `status.conditions`. */
export interface Condition {
  type: string;
  status: string;
  reason: string;
  message: string;
}

/** Returns the number at a path of a value, or the fallback when it is absent or not a number. */
export function intAt(object: unknown, path: readonly string[], fallback = 0): number {
  const value = getPath(object, path);
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/** Returns the string at a path of a value, or "" when it is absent or not a string. */
export function stringAt(object: unknown, path: readonly string[]): string {
  const value = getPath(object, path);
  return typeof value === 'string' ? value : '';
}

/** Returns the conditions of a status-like list, skipping entries without a type. */
export function conditionsOf(list: unknown): Condition[] {
  if (!Array.isArray(list)) return [];
  return list.filter(isMap).flatMap((c) =>
    typeof c.type === 'string'
      ? [
          {
            type: c.type,
            status: typeof c.status === 'string' ? c.status : '',
            reason: typeof c.reason === 'string' ? c.reason : '',
            message: typeof c.message === 'string' ? c.message : '',
          },
        ]
      : [],
  );
}

/** Returns the `status.conditions` entry of the given type, or undefined. */
export function findCondition(live: KubeObject, type: string): Condition | undefined {
  return conditionsOf(getPath(live, ['status', 'conditions'])).find((c) => c.type === type);
}

/**
 * Returns true when the controller has not yet seen the latest spec: `status.observedGeneration`
 * below `metadata.generation`. An object without a generation (never stored by an API server)
 * counts as observed.
 */
export function isGenerationPending(live: KubeObject): boolean {
  const generation = intAt(live, ['metadata', 'generation'], -1);
  return generation >= 0 && intAt(live, ['status', 'observedGeneration'], 0) < generation;
}

/** Returns `spec.replicas` when it is set (the API server defaults it to 1), else undefined. */
export function specReplicas(live: KubeObject): number | undefined {
  const value = getPath(live, ['spec', 'replicas']);
  return typeof value === 'number' ? value : undefined;
}
