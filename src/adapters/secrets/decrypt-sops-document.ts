// Decrypts a SOPS-encrypted document in memory, against SOPS's file format
// (github.com/getsops/sops/v3 sops.go Tree.Decrypt, aes/cipher.go, cmd/sops/common DecryptTree):
//
// 1. the data key: an age recipient's `enc` opened with one of the agent's identities;
// 2. every value SOPS encrypts (its rules: encrypted_regex, suffixes) is
//    `ENC[AES256_GCM,data:<b64>,iv:<b64>,tag:<b64>,type:str|int|float|bool|bytes]`, opened with
//    AES-256-GCM under the data key with the value's path (`data:password:`) as additional data;
// 3. the MAC: SHA-512 over the values in document order (all of them, or with
//    `mac_only_encrypted` the encrypted ones after a fixed prefix), as upper-case hex, must equal
//    the file's `mac`, itself encrypted with `lastmodified` as additional data.
//
// Values the hub added (listed in the gitfleet.io/sops-added annotation, check-sops-copy.ts) are
// left out of the MAC. The result holds the plaintext: it is handed to the apply and never
// written anywhere; errors name paths, never values.
import { createDecipheriv, createHash } from 'node:crypto';
import { deepCopy, isMap, type KubeObject } from '../../core/model/kube-object.js';
import { mayAddOutsideMac, sopsAddedAnnotation } from '../../core/secrets/check-sops-copy.js';
import {
  additionalDataOf,
  locationKey,
  macText,
  shouldBeEncrypted,
  sopsLeaves,
} from '../../core/secrets/sops-leaves.js';
import { readSopsMetadata, sopsKey } from '../../core/secrets/sops-metadata.js';
import type { AgeIdentity } from './age-keyring.js';
import { unwrapDataKey } from './unwrap-data-key.js';

export type SopsDecryption =
  /** The plaintext object, and its decrypted string values (to keep them out of messages). */
  | { ok: true; object: KubeObject; values: string[] }
  /** Why it did not decrypt, without a subject (the caller names the object). */
  | { ok: false; reason: string };

// sops.go MACOnlyEncryptedInitialization: hashed first when the MAC covers encrypted values only.
const MAC_ONLY_PREFIX = Buffer.from(
  '8a3fd2ad54ce66527b1034f3d147be0b0b975b3bf44f72c6fdadec8176f27d69',
  'hex',
);
const ENCRYPTED = /^ENC\[AES256_GCM,data:(.*),iv:(.+),tag:(.+),type:(.+)\]$/;

/** Returns the decrypted document without its `sops` metadata, or why it does not decrypt. */
export async function decryptSopsDocument(
  object: KubeObject,
  identities: readonly AgeIdentity[],
): Promise<SopsDecryption> {
  const read = readSopsMetadata(object);
  if (!read.ok) return { ok: false, reason: read.error };
  const { metadata } = read;
  const dataKey = await unwrapDataKey(metadata.age, identities);
  if (!dataKey.ok) return dataKey;
  const copy = deepCopy(object);
  const added = addedLocations(copy, metadata.macOnlyEncrypted);
  if (typeof added === 'string') return { ok: false, reason: added };
  const hash = createHash('sha512');
  if (metadata.macOnlyEncrypted) hash.update(MAC_ONLY_PREFIX);
  const values: string[] = [];
  for (const leaf of sopsLeaves(copy)) {
    if (added.has(locationKey(leaf.location))) continue;
    const encrypted = shouldBeEncrypted(leaf.path, metadata.rules);
    let value = leaf.value;
    if (encrypted) {
      const opened = openValue(leaf.value, dataKey.key, additionalDataOf(leaf.path));
      if (!opened.ok) return { ok: false, reason: `${leaf.location.join('.')}: ${opened.reason}` };
      value = opened.value;
      if (typeof value === 'string' && value !== '') values.push(value);
      (leaf.parent as Record<string | number, unknown>)[leaf.at] = value;
    }
    if (!metadata.macOnlyEncrypted || encrypted) hash.update(macText(value), 'utf8');
  }
  const computed = hash.digest('hex').toUpperCase();
  const stored = openValue(metadata.mac, dataKey.key, metadata.lastModified);
  if (!stored.ok) return { ok: false, reason: `its MAC does not decrypt (${stored.reason})` };
  if (stored.value !== computed)
    return { ok: false, reason: 'MAC mismatch: a value was changed after encryption' };
  delete copy[sopsKey];
  const annotations = (copy.metadata as KubeObject['metadata'] | undefined)?.annotations;
  if (annotations && sopsAddedAnnotation in annotations) {
    delete annotations[sopsAddedAnnotation];
    if (Object.keys(annotations).length === 0) delete copy.metadata?.annotations;
  }
  return { ok: true, object: copy, values };
}

/** Returns the locations the hub says it added (check-sops-copy.ts), or why the list is not acceptable. */
function addedLocations(object: KubeObject, macOnly: boolean): Set<string> | string {
  const listed = (object.metadata as KubeObject['metadata'] | undefined)?.annotations?.[sopsAddedAnnotation];
  const out = new Set([locationKey(['metadata', 'annotations', sopsAddedAnnotation])]);
  if (listed === undefined) return out;
  let parsed: unknown;
  try {
    parsed = JSON.parse(listed);
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed)) return `its ${sopsAddedAnnotation} annotation is not a list`;
  for (const location of parsed) {
    const ok =
      Array.isArray(location) &&
      location.every((s) => typeof s === 'string') &&
      (macOnly || mayAddOutsideMac(location as string[]));
    if (!ok) return `its ${sopsAddedAnnotation} annotation lists a value the MAC must cover`;
    out.add(locationKey(location as string[]));
  }
  return out;
}

type Opened = { ok: true; value: string | number | boolean } | { ok: false; reason: string };

/** Opens one `ENC[...]` value (aes/cipher.go Decrypt); an empty string stays empty, as SOPS writes it. */
function openValue(text: unknown, key: Buffer, additionalData: string): Opened {
  if (text === '') return { ok: true, value: '' };
  const match = typeof text === 'string' ? ENCRYPTED.exec(text) : null;
  if (!match) return { ok: false, reason: 'not an encrypted SOPS value (ENC[AES256_GCM,...])' };
  const [, data, iv, tag, type] = match as unknown as [string, string, string, string, string];
  let plain: Buffer;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
    decipher.setAAD(Buffer.from(additionalData, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    plain = Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]);
  } catch {
    return { ok: false, reason: 'does not decrypt (tampered, or encrypted under another data key or path)' };
  }
  return typedValue(plain.toString('utf8'), type);
}

function typedValue(text: string, type: string): Opened {
  switch (type) {
    case 'str':
    case 'bytes':
    case 'time':
      return { ok: true, value: text };
    case 'int':
    case 'float': {
      const n = Number(text);
      return Number.isFinite(n)
        ? { ok: true, value: n }
        : { ok: false, reason: `not a number of type ${type}` };
    }
    case 'bool':
      return { ok: true, value: /^(1|t|true)$/i.test(text) };
    default:
      return { ok: false, reason: `unknown SOPS value type ${JSON.stringify(type)}` };
  }
}

/** Returns whether an object parsed from a branch is SOPS-encrypted. */
export function isEncryptedObject(object: KubeObject): boolean {
  return isMap(object[sopsKey]);
}
