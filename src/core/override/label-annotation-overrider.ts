import { isMap, type KubeObject } from '../model/kube-object.js';
import type { LabelAnnotationOverrider } from '../model/override-policy.js';
import type { JsonPatchOperation } from './apply-json-patch.js';
import { formatJsonPointer } from './json-pointer.js';
import type { OverrideOutcome } from './override-outcome.js';
import { patchObject } from './patch-object.js';

/**
 * Karmada's labelsOverrider and annotationsOverrider
 * (pkg/util/overridemanager/labelannotationoverrider.go), one JSON-patch operation per key:
 *
 * | operator | key present            | key absent            | no labels/annotations map at all |
 * |----------|------------------------|-----------------------|----------------------------------|
 * | add      | value overwrites       | key added             | map created, key added           |
 * | replace  | value overwrites       | skipped silently      | skipped silently                 |
 * | remove   | key removed            | skipped silently      | skipped silently                 |
 *
 * Keys are patched in sorted order (Karmada walks a Go map; the keys are distinct, so the order
 * does not change the result).
 */
export function applyLabelAnnotationOverrider(
  object: KubeObject,
  overrider: LabelAnnotationOverrider,
  field: 'labels' | 'annotations',
): OverrideOutcome {
  const entries = Object.entries(overrider.value ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const current: unknown = object.metadata[field];
  const existing = isMap(current) ? current : undefined;
  const operations: JsonPatchOperation[] = [];
  if (overrider.operator === 'add' && !existing && entries.length > 0) {
    operations.push({ op: 'add', path: formatJsonPointer(['metadata', field]), value: {} });
  }
  for (const [key, value] of entries) {
    const present = existing !== undefined && Object.prototype.hasOwnProperty.call(existing, key);
    if (overrider.operator !== 'add' && !present) continue;
    const path = formatJsonPointer(['metadata', field, key]);
    operations.push(
      overrider.operator === 'remove' ? { op: 'remove', path } : { op: overrider.operator, path, value },
    );
  }
  if (operations.length === 0) return { ok: true, object };
  const patched = patchObject(object, operations);
  return patched.ok ? patched : { ok: false, error: patched.error };
}
