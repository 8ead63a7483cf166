// The values of a SOPS document in the order SOPS walks them (sops.go walkBranch, walkSlice):
// map entries in document order, list items in theirs, the top-level `sops` key left out, nulls
// skipped. A value's path is its map keys only (list items share their list's path), which is
// also the additional data its encryption is bound to (`data:password:`).
import { isMap } from '../model/kube-object.js';
import { sopsKey, type SopsRules } from './sops-metadata.js';

/** One value of a document: its path of map keys, and where it sits (its parent and key or index). */
export interface SopsLeaf {
  path: readonly string[];
  /** Its place: map keys and list indexes from the top. */
  location: readonly (string | number)[];
  value: string | number | boolean;
  parent: Record<string, unknown> | unknown[];
  at: string | number;
}

/** Returns every scalar value of the document in SOPS's walk order, `sops` excluded. */
export function sopsLeaves(object: Record<string, unknown>): SopsLeaf[] {
  const out: SopsLeaf[] = [];
  for (const key of Object.keys(object)) {
    if (key === sopsKey) continue;
    walk(object, key, [key], [key], out);
  }
  return out;
}

function walk(
  parent: Record<string, unknown> | unknown[],
  at: string | number,
  path: string[],
  location: (string | number)[],
  out: SopsLeaf[],
): void {
  const value = Array.isArray(parent) ? parent[at as number] : parent[at as string];
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) walk(value, i, path, [...location, i], out);
  } else if (isMap(value)) {
    for (const key of Object.keys(value)) walk(value, key, [...path, key], [...location, key], out);
  } else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    out.push({ path, location, value, parent, at });
  }
}

/** Returns a leaf's location as one string key. */
export function locationKey(location: readonly (string | number)[]): string {
  return JSON.stringify(location);
}

/** Returns whether SOPS encrypts the value at a path under the rules (sops.go shouldBeEncrypted). */
export function shouldBeEncrypted(path: readonly string[], rules: SopsRules): boolean {
  let encrypted = true;
  if (rules.unencryptedSuffix !== undefined && path.some((p) => p.endsWith(rules.unencryptedSuffix!)))
    encrypted = false;
  if (rules.encryptedSuffix !== undefined) encrypted = path.some((p) => p.endsWith(rules.encryptedSuffix!));
  if (rules.unencryptedRegex !== undefined && path.some((p) => rules.unencryptedRegex!.test(p)))
    encrypted = false;
  if (rules.encryptedRegex !== undefined) encrypted = path.some((p) => rules.encryptedRegex!.test(p));
  return encrypted;
}

/** Returns the bytes SOPS hashes into the MAC for a value (sops.go ToBytes), as text. */
export function macText(value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return String(value);
}

/** Returns whether a value is an encrypted SOPS value (`ENC[AES256_GCM,...]`). */
export function isEncryptedValue(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith('ENC[AES256_GCM,');
}

/** The additional data SOPS binds a value's encryption to: its path joined by `:`, with a trailing `:`. */
export function additionalDataOf(path: readonly string[]): string {
  return `${path.join(':')}:`;
}
