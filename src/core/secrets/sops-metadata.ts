// What a SOPS-encrypted document says of itself, under its top-level `sops` key (SOPS's file
// format, github.com/getsops/sops/v3 stores/stores.go): the data key wrapped once per recipient,
// the MAC over the values, when it was last modified, and which values are encrypted.
//
// | key                                        | meaning                                               |
// |--------------------------------------------|-------------------------------------------------------|
// | `age[].recipient`, `age[].enc`             | an age recipient and the data key encrypted to it (armored) |
// | `key_groups[]` (one group, no Shamir)      | the same recipients, grouped                          |
// | `kms`, `gcp_kms`, `azure_kv`, `hc_vault`, `hckms`, `pgp` | other key types: gitfleet decrypts age only |
// | `mac`, `lastmodified`                      | the MAC (encrypted, with `lastmodified` as additional data) |
// | `mac_only_encrypted`                       | the MAC covers only encrypted values (SOPS ≥ 3.9)     |
// | `encrypted_regex`, `encrypted_suffix`, `unencrypted_regex`, `unencrypted_suffix` | which values are encrypted |
import { isMap } from '../model/kube-object.js';

/** Which values of a document are encrypted (SOPS's rules; sops.go shouldBeEncrypted). */
export interface SopsRules {
  unencryptedSuffix?: string;
  encryptedSuffix?: string;
  unencryptedRegex?: RegExp;
  encryptedRegex?: RegExp;
}

/** An age recipient of a file and the data key encrypted to it (an armored age file). */
export interface SopsAgeKey {
  recipient: string;
  enc: string;
}

/** The `sops` metadata of an encrypted document, read. */
export interface SopsMetadata {
  age: SopsAgeKey[];
  /** The other key types the file is encrypted to (`kms`, `pgp`...), which gitfleet cannot use. */
  otherKeys: string[];
  mac: string;
  lastModified: string;
  macOnlyEncrypted: boolean;
  rules: SopsRules;
}

/** The key SOPS keeps its metadata under, at the top of the document. */
export const sopsKey = 'sops';

const OTHER_KEY_TYPES = ['kms', 'gcp_kms', 'azure_kv', 'hc_vault', 'hckms', 'pgp'] as const;

/** Returns whether a document is SOPS-encrypted: a top-level `sops` map with a `mac`. */
export function isSopsDocument(object: Record<string, unknown>): boolean {
  const meta = object[sopsKey];
  return isMap(meta) && 'mac' in meta;
}

/**
 * Returns the document's SOPS metadata, or why gitfleet cannot use it (the message has no
 * subject: the caller names the file). Comment-based rules and Shamir key groups are not
 * supported; a file with no age recipient is not either (cloud KMS and PGP need keys the agent
 * does not hold).
 */
export function readSopsMetadata(
  object: Record<string, unknown>,
): { ok: true; metadata: SopsMetadata } | { ok: false; error: string } {
  const meta = object[sopsKey];
  if (!isMap(meta)) return { ok: false, error: 'no sops metadata' };
  if (meta['encrypted_comment_regex'] !== undefined || meta['unencrypted_comment_regex'] !== undefined)
    return {
      ok: false,
      error: 'SOPS comment rules (encrypted_comment_regex) are not supported: use encrypted_regex',
    };
  const groups = Array.isArray(meta['key_groups']) ? meta['key_groups'] : [];
  if (groups.length > 1)
    return {
      ok: false,
      error: 'SOPS key groups with a Shamir threshold are not supported: use one group of age recipients',
    };
  const holders = [meta, ...groups.filter(isMap)];
  const age = holders.flatMap((h) => ageKeysOf(h['age']));
  const otherKeys = OTHER_KEY_TYPES.filter((type) => holders.some((h) => listed(h[type])));
  if (age.length === 0) {
    const found = otherKeys.length > 0 ? `only ${otherKeys.join(', ')} keys` : 'no key';
    return {
      ok: false,
      error: `encrypted with ${found}: not supported, gitfleet decrypts SOPS files with age recipients only`,
    };
  }
  const mac = meta['mac'];
  const lastModified = meta['lastmodified'];
  if (typeof mac !== 'string' || typeof lastModified !== 'string')
    return { ok: false, error: 'the sops metadata has no mac or lastmodified (truncated?)' };
  const rules = readRules(meta);
  if (typeof rules === 'string') return { ok: false, error: rules };
  return {
    ok: true,
    metadata: {
      age,
      otherKeys,
      mac,
      lastModified,
      macOnlyEncrypted: meta['mac_only_encrypted'] === true,
      rules,
    },
  };
}

function listed(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0;
}

function ageKeysOf(value: unknown): SopsAgeKey[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((k) =>
    isMap(k) && typeof k['recipient'] === 'string' && typeof k['enc'] === 'string'
      ? [{ recipient: k['recipient'].trim(), enc: k['enc'] }]
      : [],
  );
}

function readRules(meta: Record<string, unknown>): SopsRules | string {
  const rules: SopsRules = {};
  const text = (key: string) => (typeof meta[key] === 'string' && meta[key] !== '' ? meta[key] : undefined);
  const unencryptedSuffix = text('unencrypted_suffix');
  const encryptedSuffix = text('encrypted_suffix');
  if (unencryptedSuffix !== undefined) rules.unencryptedSuffix = unencryptedSuffix;
  if (encryptedSuffix !== undefined) rules.encryptedSuffix = encryptedSuffix;
  for (const [key, field] of [
    ['unencrypted_regex', 'unencryptedRegex'],
    ['encrypted_regex', 'encryptedRegex'],
  ] as const) {
    const source = text(key);
    if (source === undefined) continue;
    try {
      rules[field] = new RegExp(source);
    } catch {
      return `${key} ${JSON.stringify(source)} is not a regular expression gitfleet can read`;
    }
  }
  return rules;
}
