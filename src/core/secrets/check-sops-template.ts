import { isMap } from '../model/kube-object.js';
import { isEncryptedValue, shouldBeEncrypted } from './sops-leaves.js';
import { readSopsMetadata } from './sops-metadata.js';

// What the hub must read in the clear to place an encrypted document: its envelope.
const ENVELOPE: readonly (readonly string[])[] = [
  ['apiVersion'],
  ['kind'],
  ['metadata', 'name'],
  ['metadata', 'namespace'],
];

/**
 * Returns why a SOPS-encrypted template cannot be a template (subject first), or undefined
 * when it can: its metadata must name an age recipient, and its envelope (apiVersion, kind,
 * metadata.name and namespace) must stay in the clear, since the hub places it without a key.
 */
export function checkSopsTemplate(object: Record<string, unknown>, subject: string): string | undefined {
  const read = readSopsMetadata(object);
  if (!read.ok) return `${subject}: SOPS-encrypted, ${read.error}`;
  for (const path of ENVELOPE) {
    const value = path.reduce<unknown>((at, key) => (isMap(at) ? at[key] : undefined), object);
    if (isEncryptedValue(value) || (value !== undefined && shouldBeEncrypted(path, read.metadata.rules)))
      return (
        `${subject}: SOPS-encrypted with ${path.join('.')} encrypted: the hub must read it to place the file; ` +
        'encrypt only the secret fields (sops --encrypted-regex "^(data|stringData)$")'
      );
  }
  return undefined;
}
