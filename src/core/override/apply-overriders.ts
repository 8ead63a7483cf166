import { deepCopy, type KubeObject } from '../model/kube-object.js';
import type { Overriders } from '../model/override-policy.js';
import { refLabel } from '../model/object-ref.js';
import { applyCommandArgsOverrider } from './command-args-overrider.js';
import { applyFieldOverrider } from './field-overrider.js';
import { applyImageOverrider } from './image-overrider.js';
import { applyLabelAnnotationOverrider } from './label-annotation-overrider.js';
import type { OverrideOutcome } from './override-outcome.js';
import { patchObject } from './patch-object.js';
import type { SelectedOverriders } from './select-overriders.js';

export type { OverrideOutcome } from './override-outcome.js';

/**
 * Returns the object with the selected overriders applied in order, or the first failure; never
 * changes its input. Any failure fails the object on that cluster, as a failed patch fails
 * Karmada's Work. Within one rule the overriders run in Karmada's order
 * (pkg/util/overridemanager/overridemanager.go applyPolicyOverriders):
 *
 * image → command → args → labels → annotations → field → plaintext
 *
 * each list in its own order; all plaintext operations of a rule are one JSON patch. The error
 * names the policy, the rule, the overrider and what went wrong, e.g.
 * `OverridePolicy/default/nginx-op rule 0 plaintext[1]: replace /spec/foo: path not found`.
 */
export function applyOverriders(
  object: KubeObject,
  selected: readonly SelectedOverriders[],
): OverrideOutcome {
  let current = object;
  for (const { policy, ruleIndex, overriders } of selected) {
    for (const step of stepsOf(overriders)) {
      const outcome = step(current);
      if (!outcome.ok) {
        const where = refLabel({ apiVersion: 'policy.karmada.io/v1alpha1', ...policy });
        return { ok: false, error: `${where} rule ${ruleIndex} ${outcome.error}` };
      }
      current = outcome.object;
    }
  }
  return { ok: true, object: current === object ? deepCopy(object) : current };
}

/** One overrider bound to its settings; a failure's message starts with the overrider's name. */
type Step = (object: KubeObject) => OverrideOutcome;

function stepsOf(o: Overriders): Step[] {
  return [
    ...each('imageOverrider', o.imageOverrider, applyImageOverrider),
    ...each('commandOverrider', o.commandOverrider, (obj, x) => applyCommandArgsOverrider(obj, x, 'command')),
    ...each('argsOverrider', o.argsOverrider, (obj, x) => applyCommandArgsOverrider(obj, x, 'args')),
    ...each('labelsOverrider', o.labelsOverrider, (obj, x) =>
      applyLabelAnnotationOverrider(obj, x, 'labels'),
    ),
    ...each('annotationsOverrider', o.annotationsOverrider, (obj, x) =>
      applyLabelAnnotationOverrider(obj, x, 'annotations'),
    ),
    ...each('fieldOverrider', o.fieldOverrider, applyFieldOverrider),
    ...plaintextStep(o.plaintext ?? []),
  ];
}

function each<T>(
  name: string,
  list: readonly T[] | undefined,
  apply: (object: KubeObject, overrider: T) => OverrideOutcome,
): Step[] {
  return (list ?? []).map((overrider, index) => (object) => {
    const outcome = apply(object, overrider);
    return outcome.ok ? outcome : { ok: false, error: `${name}[${index}]: ${outcome.error}` };
  });
}

function plaintextStep(plaintext: NonNullable<Overriders['plaintext']>): Step[] {
  if (plaintext.length === 0) return [];
  const operations = plaintext.map((p) => ({ op: p.operator, path: p.path, value: p.value }));
  return [
    (object) => {
      const patched = patchObject(object, operations);
      if (patched.ok) return patched;
      const name = patched.index === undefined ? 'plaintext' : `plaintext[${patched.index}]`;
      return { ok: false, error: `${name}: ${patched.error}` };
    },
  ];
}
