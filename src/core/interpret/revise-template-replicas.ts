import type { Template } from '../model/fleet.js';
import type { KubeObject } from '../model/kube-object.js';
import type { ResourceInterpreter } from '../model/resource-interpreter.js';

/**
 * Returns the template's object with its replicas revised for one cluster by its ReviseReplica
 * script (Karmada's ensureWork calls ReviseReplica for a customized kind where it would revise a
 * built-in one, pkg/controllers/binding/common.go), undefined when no script revises its kind,
 * or the script's error.
 */
export function reviseTemplateReplicas(
  template: Template,
  replicas: number,
  interpreter: ResourceInterpreter | undefined,
): { ok: true; object: KubeObject } | { ok: false; error: string } | undefined {
  if (!template.interpreted?.revisesReplicas || interpreter === undefined) return undefined;
  const outcome = interpreter.reviseReplica(template.object, replicas);
  if (outcome === undefined) return undefined;
  return outcome.ok ? { ok: true, object: outcome.value } : outcome;
}
