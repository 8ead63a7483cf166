/** The identity of a Kubernetes object: group, kind, namespace and name (the version is not part of it). */
export interface ObjectRef {
  readonly apiVersion: string;
  readonly kind: string;
  /** Empty for cluster-scoped objects. */
  readonly namespace: string;
  readonly name: string;
}

/** Returns the API group of an apiVersion ("" for the core group). */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

/** Returns the one key that identifies an object: `group/Kind/namespace/name`. */
export function refKey(ref: ObjectRef): string {
  return `${groupOf(ref.apiVersion)}/${ref.kind}/${ref.namespace}/${ref.name}`;
}

/**
 * Returns the ref a refKey (`group/Kind/namespace/name`) names, its version unknown
 * (`<group>/unknown`, or `unknown` for the core group); undefined for text of another form.
 */
export function refOfKey(key: string | undefined): ObjectRef | undefined {
  if (key === undefined) return undefined;
  const [group, kind, namespace, ...name] = key.split('/');
  if (group === undefined || !kind || namespace === undefined) return undefined;
  return { apiVersion: group ? `${group}/unknown` : 'unknown', kind, namespace, name: name.join('/') };
}

/** Returns the human form used in messages: `Kind/namespace/name` or `Kind/name`. */
export function refLabel(ref: ObjectRef): string {
  return ref.namespace ? `${ref.kind}/${ref.namespace}/${ref.name}` : `${ref.kind}/${ref.name}`;
}
