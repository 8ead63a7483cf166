// SOPS's data key, wrapped once per age recipient: each `enc` is an armored age file whose
// content is the 32-byte key. age-encryption (the reference TypeScript age) opens it.
import { armor, Decrypter } from 'age-encryption';
import type { SopsAgeKey } from '../../core/secrets/sops-metadata.js';
import type { AgeIdentity } from './age-keyring.js';

/** Returns the data key, or why none of the identities opens it (recipients named, never keys). */
export async function unwrapDataKey(
  keys: readonly SopsAgeKey[],
  identities: readonly AgeIdentity[],
): Promise<{ ok: true; key: Buffer } | { ok: false; reason: string }> {
  const mine = new Set(identities.map((i) => i.recipient));
  const addressed = keys.filter((k) => mine.has(k.recipient));
  if (addressed.length === 0) {
    const ours = [...mine].join(', ');
    return {
      ok: false,
      reason: `not encrypted to this agent's age key (${ours}); the file's recipients: ${keys.map((k) => k.recipient).join(', ')}`,
    };
  }
  const decrypter = new Decrypter();
  for (const id of identities) decrypter.addIdentity(id.identity);
  for (const key of addressed) {
    try {
      const opened = await decrypter.decrypt(armor.decode(key.enc));
      if (opened.length === 32) return { ok: true, key: Buffer.from(opened) };
    } catch {
      // A damaged stanza for this recipient: try the next one.
    }
  }
  return {
    ok: false,
    reason: `the data key encrypted to ${addressed[0]!.recipient} does not open (damaged or truncated)`,
  };
}
