// A SOPS-encrypted template is rendered like any other, without its key (docs/secrets.md): the
// hub places it, overrides it where SOPS's MAC allows (core/secrets/check-sops-copy.ts), adds its
// own labels and annotations, and writes it with its keys in document order, since the MAC
// hashes the values in that order. What would not decrypt is a render error naming the file and
// the overrider, never a copy the agent would refuse.
import type { Template } from '../model/fleet.js';
import type { KubeObject } from '../model/kube-object.js';
import { refLabel } from '../model/object-ref.js';
import { applyOverriders } from '../override/apply-overriders.js';
import type { OverrideOutcome } from '../override/override-outcome.js';
import type { SelectedOverriders } from '../override/select-overriders.js';
import { checkSopsCopy, sopsAddedAnnotation } from '../secrets/check-sops-copy.js';
import { readSopsMetadata, type SopsMetadata } from '../secrets/sops-metadata.js';

/** Returns the overridden copy of an encrypted template, or which overrider would break it and how. */
export function overrideEncrypted(
  template: Template,
  object: KubeObject,
  selected: readonly SelectedOverriders[],
): OverrideOutcome {
  const metadata = metadataOf(template);
  if (typeof metadata === 'string') return { ok: false, error: metadata };
  let current = object;
  for (const rule of selected) {
    const outcome = applyOverriders(current, [rule]);
    if (!outcome.ok) return outcome;
    const check = checkSopsCopy({ template: sourceView(template), copy: outcome.object, metadata });
    if (!check.ok) {
      const where = refLabel({ apiVersion: 'policy.karmada.io/v1alpha1', ...rule.policy });
      return {
        ok: false,
        error: `${template.source.file}: SOPS-encrypted: ${where} rule ${rule.ruleIndex} ${check.error}`,
      };
    }
    current = outcome.object;
  }
  return { ok: true, object: current };
}

/**
 * Checks the finished copy (decorated, stripped) against the template and lists in the
 * gitfleet.io/sops-added annotation the values the hub added, which the agent leaves out of a
 * MAC over all values; returns why the copy would not decrypt, or undefined.
 */
export function sealEncryptedCopy(template: Template, object: KubeObject): string | undefined {
  const metadata = metadataOf(template);
  if (typeof metadata === 'string') return metadata;
  const check = checkSopsCopy({ template: sourceView(template), copy: object, metadata });
  if (!check.ok) return `${template.source.file}: SOPS-encrypted: rendering it ${check.error}`;
  if (check.added.length > 0)
    object.metadata.annotations = {
      ...object.metadata.annotations,
      [sopsAddedAnnotation]: JSON.stringify(check.added),
    };
  return undefined;
}

function metadataOf(template: Template): SopsMetadata | string {
  const read = readSopsMetadata(template.object);
  return read.ok ? read.metadata : `${template.source.file}: SOPS-encrypted, ${read.error}`;
}

/** The template as its file has it: without the namespace the loader defaulted. */
function sourceView(template: Template): Record<string, unknown> {
  if (!template.encrypted?.defaultedNamespace) return template.object;
  const { namespace: _defaulted, ...metadata } = template.object.metadata;
  return { ...template.object, metadata };
}
