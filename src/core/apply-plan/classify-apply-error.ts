// What an API server's refusal of an apply means, and what the agent does about it.
//
// | answer                                                        | class          | retried by a later pass? |
// |---------------------------------------------------------------|----------------|--------------------------|
// | 422 Invalid / 409 Conflict whose message says a field is immutable (Flux ssa/errors/immutable.go) | Immutable | no, until the manifest changes or the object opts in to recreation |
// | 409 Conflict with FieldManagerConflict causes                  | FieldConflict  | no (only when not forced) |
// | 404 NotFound (the namespace or the resource type is missing)   | NotFound       | yes                      |
// | 400 BadRequest, 422 Invalid, and the 500 server-side apply answers when a value has the wrong type ("failed to create typed patch object") | Invalid | no, until the manifest changes |
// | 401, 403                                                       | Forbidden      | yes (RBAC may be fixed)  |
// | 409 other, 429, 5xx, no answer                                 | Transient      | yes                      |
//
// Recreation on an immutable change is opt-in per object (annotation
// gitfleet.io/recreate-on-immutable-change: "true", as Flux's kustomize.toolkit.fluxcd.io/force:
// Enabled) and never done for kinds whose deletion loses data or cascades: StatefulSet and
// PersistentVolumeClaim (volumes), PersistentVolume, Namespace (everything in it) and
// CustomResourceDefinition (every custom resource of it).
import { groupOf, type ObjectRef } from '../model/object-ref.js';
import type { KubeObject } from '../model/kube-object.js';
import { recreateAnnotation } from './agent-keys.js';
import type { ApiRefusal } from '../model/api-refusal.js';

export type ApplyErrorClass =
  | { type: 'Immutable'; fields: string[] }
  | { type: 'FieldConflict'; fields: string[] }
  | { type: 'NotFound' }
  | { type: 'Invalid'; fields: string[] }
  | { type: 'Forbidden' }
  | { type: 'Transient' };

const typedPatchPattern = /failed to create typed patch object/;
const immutablePattern = /immutable|updates to [a-z]+ spec for fields other than/i;

/** Returns the class of an apply refusal (see the table above). */
export function classifyApplyError(refusal: ApiRefusal): ApplyErrorClass {
  const { code } = refusal;
  const texts = [refusal.message, ...(refusal.causes ?? []).map((c) => c.message ?? '')];
  if ((code === 422 || code === 409) && texts.some((t) => immutablePattern.test(t))) {
    return { type: 'Immutable', fields: fieldsOf(refusal, (c) => immutablePattern.test(c.message ?? '')) };
  }
  if (code === 409 && (refusal.causes ?? []).some((c) => c.type === 'FieldManagerConflict')) {
    return { type: 'FieldConflict', fields: fieldsOf(refusal, (c) => c.type === 'FieldManagerConflict') };
  }
  if (code === 404) return { type: 'NotFound' };
  if (code === 500 && typedPatchPattern.test(refusal.message)) {
    const fields = [...refusal.message.matchAll(/\s\.([A-Za-z][\w.[\]-]*): expected/g)].map((m) => m[1]!);
    return { type: 'Invalid', fields };
  }
  if (code === 400 || code === 422) return { type: 'Invalid', fields: fieldsOf(refusal, () => true) };
  if (code === 401 || code === 403) return { type: 'Forbidden' };
  return { type: 'Transient' };
}

/** Returns whether a later pass may succeed with the same manifest. */
export function isRetryable(error: ApplyErrorClass): boolean {
  return error.type === 'NotFound' || error.type === 'Forbidden' || error.type === 'Transient';
}

/** The field paths the causes name (or the message, when no cause does), each once. */
function fieldsOf(
  refusal: ApiRefusal,
  pick: (cause: { type?: string; message?: string; field?: string }) => boolean,
): string[] {
  const fields = new Set<string>();
  for (const cause of refusal.causes ?? []) if (pick(cause) && cause.field) fields.add(cause.field);
  if (fields.size === 0) {
    for (const m of refusal.message.matchAll(
      /([A-Za-z][\w.[\]-]*): (?:Invalid value|Forbidden|Required value)/g,
    )) {
      fields.add(m[1]!);
    }
  }
  return [...fields];
}

const neverRecreated = new Set([
  'apps/StatefulSet',
  '/PersistentVolumeClaim',
  '/PersistentVolume',
  '/Namespace',
  'apiextensions.k8s.io/CustomResourceDefinition',
]);

export type ImmutableChangePlan = { type: 'recreate' } | { type: 'report'; message: string };

/** Returns whether to delete and recreate an object whose apply hit immutable fields, or why not. */
export function planImmutableChange(
  ref: ObjectRef,
  manifest: KubeObject,
  fields: readonly string[],
): ImmutableChangePlan {
  const where = fields.length > 0 ? fields.join(', ') : 'a field';
  const optedIn = manifest.metadata.annotations?.[recreateAnnotation] === 'true';
  if (neverRecreated.has(`${groupOf(ref.apiVersion)}/${ref.kind}`)) {
    const note = optedIn
      ? ` (${recreateAnnotation} is ignored for a ${ref.kind}: recreating it would lose data)`
      : '';
    return {
      type: 'report',
      message: `immutable field changed: ${where}; delete the object by hand to recreate it${note}`,
    };
  }
  if (optedIn) return { type: 'recreate' };
  return {
    type: 'report',
    message: `immutable field changed: ${where}; annotate the template ${recreateAnnotation}: "true" to have it deleted and recreated`,
  };
}
