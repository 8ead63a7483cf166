import type { KubeObject } from '../model/kube-object.js';
import { fnv1a32 } from '../model/fnv1a32.js';

/**
 * Returns a short hash of what Karmada counts as a template's specification (eventfilter.go
 * SpecificationChanged: everything but `status`, `metadata.managedFields` and
 * `metadata.resourceVersion`), with map keys in sorted order so a reordered file is no change.
 */
export function templateHashOf(object: KubeObject): string {
  const { status: _status, ...rest } = object as KubeObject & { status?: unknown };
  const {
    managedFields: _managed,
    resourceVersion: _version,
    ...metadata
  } = object.metadata as Record<string, unknown>;
  const text = stableJson({ ...rest, metadata });
  return `${text.length.toString(16)}-${fnv1a32(text).toString(16).padStart(8, '0')}`;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
