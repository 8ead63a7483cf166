import type { Template } from '../model/fleet.js';
import { isMap } from '../model/kube-object.js';
import { refLabel } from '../model/object-ref.js';

/**
 * Returns the Secrets committed with their values in the clear, each with a loud warning: the
 * values are now readable by everyone who can read the repository, and in its history for good.
 * `validate` and `diff` print them; SOPS-encrypted Secrets (docs/secrets.md) and empty ones are
 * not warned of.
 */
export function findPlaintextSecrets(
  templates: readonly Template[],
): { template: Template; message: string }[] {
  const out: { template: Template; message: string }[] = [];
  for (const t of templates) {
    if (t.encrypted || t.ref.apiVersion !== 'v1' || t.ref.kind !== 'Secret') continue;
    const { data, stringData } = t.object;
    if (![data, stringData].some((v) => isMap(v) && Object.keys(v).length > 0)) continue;
    out.push({
      template: t,
      message:
        `${refLabel(t.ref)}: PLAINTEXT SECRET committed to Git: its values are readable by everyone with the ` +
        'repository, and stay in its history; encrypt it with sops and age (docs/secrets.md) and rotate the values',
    });
  }
  return out;
}
