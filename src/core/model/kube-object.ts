/**
 * A Kubernetes object as read from YAML: plain maps, lists and scalars. Only the envelope is
 * typed; everything else is `unknown` and narrowed by accessors.
 */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

export interface ObjectMeta {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  [field: string]: unknown;
}

/** A JSON-like value: what YAML documents are made of. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Returns true when the value is a plain map (not null, not an array). */
export function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Returns the value at a path of map keys and list indexes, or undefined. */
export function getPath(value: unknown, path: readonly (string | number)[]): unknown {
  let current: unknown = value;
  for (const step of path) {
    if (typeof step === 'number') {
      if (!Array.isArray(current)) return undefined;
      current = current[step];
    } else {
      if (!isMap(current)) return undefined;
      current = current[step];
    }
  }
  return current;
}

/** Returns a deep copy of a JSON-like value. */
export function deepCopy<T>(value: T): T {
  if (Array.isArray(value)) return value.map(deepCopy) as T;
  if (isMap(value)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[key] = deepCopy(value[key]);
    return out as T;
  }
  return value;
}
