import { isMap, type KubeObject } from '../model/kube-object.js';
import { applyJsonPatch, type JsonPatchOperation } from './apply-json-patch.js';

/** A patched object, or why not: `index` names the failing operation when one did. */
export type PatchObjectOutcome =
  { ok: true; object: KubeObject } | { ok: false; index?: number; error: string };

/**
 * Returns the patched copy of a Kubernetes object, or which operation failed and why; never
 * changes its input. Karmada reads the patched JSON back into an object
 * (unstructured.UnmarshalJSON), which fails when the patch as a whole took away what makes it a
 * Kubernetes object; so does this (and it also insists on metadata.name, which a rendered
 * manifest needs).
 */
export function patchObject(
  object: KubeObject,
  operations: readonly JsonPatchOperation[],
): PatchObjectOutcome {
  const patched = applyJsonPatch(object, operations);
  if (!patched.ok) return patched;
  const problem = envelopeProblem(patched.value);
  if (problem !== undefined) return { ok: false, error: `the patched object ${problem}` };
  return { ok: true, object: patched.value as KubeObject };
}

function envelopeProblem(value: unknown): string | undefined {
  if (!isMap(value)) return 'is not a map';
  if (typeof value.apiVersion !== 'string' || value.apiVersion === '') return 'has no apiVersion';
  if (typeof value.kind !== 'string' || value.kind === '') return 'has no kind';
  if (!isMap(value.metadata)) return 'has no metadata';
  if (typeof value.metadata.name !== 'string' || value.metadata.name === '') return 'has no metadata.name';
  return undefined;
}
