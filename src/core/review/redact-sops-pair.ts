// A SOPS-encrypted file in a diff: its ciphertexts say nothing to a reviewer and change with
// every re-encryption, so each encrypted value is shown as `<encrypted>`, or on the new side as
// `<encrypted value changed>` when its ciphertext differs from the old side's at the same place;
// the `sops` metadata (data keys, MAC, dates) is shown as its recipients only. Everything in
// the clear (metadata, type) is shown as it is.
import * as jsyaml from 'js-yaml';
import { KUBE_YAML_SCHEMA } from '../load/kube-yaml-schema.js';
import { deepCopy, isMap } from '../model/kube-object.js';
import { emitYaml } from '../format/emit-yaml.js';
import { isEncryptedValue, locationKey, sopsLeaves } from '../secrets/sops-leaves.js';
import { isSopsDocument, readSopsMetadata, sopsKey } from '../secrets/sops-metadata.js';

const MAY_BE_SOPS = /^sops:/m;

/** Returns the two sides of a file with its encrypted values marked; files that are not SOPS-encrypted as they are. */
export function redactSopsPair(
  a: string | undefined,
  b: string | undefined,
): { a: string | undefined; b: string | undefined } {
  const before = readSops(a);
  const after = readSops(b);
  if (before === undefined && after === undefined) return { a, b };
  return {
    a: before === undefined ? a : emitYaml(markValues(before, after, 'base'), { keepOrder: true }),
    b: after === undefined ? b : emitYaml(markValues(after, before, 'head'), { keepOrder: true }),
  };
}

function readSops(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined || !MAY_BE_SOPS.test(text)) return undefined;
  try {
    const value: unknown = jsyaml.load(text, { schema: KUBE_YAML_SCHEMA });
    return isMap(value) && isSopsDocument(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function markValues(
  own: Record<string, unknown>,
  other: Record<string, unknown> | undefined,
  side: 'base' | 'head',
): Record<string, unknown> {
  const theirs = new Map((other ? sopsLeaves(other) : []).map((l) => [locationKey(l.location), l.value]));
  const copy = deepCopy(own);
  for (const leaf of sopsLeaves(copy)) {
    if (!isEncryptedValue(leaf.value)) continue;
    const changed = other !== undefined && theirs.get(locationKey(leaf.location)) !== leaf.value;
    (leaf.parent as Record<string | number, unknown>)[leaf.at] =
      changed && side === 'head' ? '<encrypted value changed>' : '<encrypted>';
  }
  const read = readSopsMetadata(own);
  copy[sopsKey] = read.ok ? { age: read.metadata.age.map((k) => k.recipient) } : '<sops metadata>';
  return copy;
}
