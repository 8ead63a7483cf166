import type { KubeObject } from '../model/kube-object.js';
import type { ResourceInterpreter } from '../model/resource-interpreter.js';

/**
 * Returns the manifest an agent applies: the desired object as a Retain script keeps the
 * fields the member cluster owns from the live object (Karmada runs Retain before it updates a
 * member object, pkg/util/objectwatcher/objectwatcher.go), else the desired object unchanged;
 * or the script's error. Nothing is retained when the object is not live yet.
 */
export function retainMemberFields(
  interpreter: ResourceInterpreter | undefined,
  desired: KubeObject,
  live: KubeObject | undefined,
): { ok: true; object: KubeObject } | { ok: false; error: string } {
  if (interpreter === undefined || live === undefined) return { ok: true, object: desired };
  const outcome = interpreter.retain(desired, live);
  if (outcome === undefined) return { ok: true, object: desired };
  return outcome.ok ? { ok: true, object: outcome.value } : outcome;
}
