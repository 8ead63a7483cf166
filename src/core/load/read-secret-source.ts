// Where a NotificationPolicy's receiver reads a secret from (docs/notifications.md#secrets): a
// file of --notifications-secrets-dir by its plain name (nothing that could leave the directory),
// or a key of a Secret in the hub's namespace.
import type { SecretSource } from '../model/notification-policy.js';
import { childPath, readMap, readRequiredString, readString, type Issues } from './field-reader.js';
import { checkDns1123Subdomain } from './name-rules.js';

/** Returns a file name of the secrets directory, or undefined (with an issue when it is not one). */
export function readSecretFile(value: unknown, path: string, issues: Issues): string | undefined {
  const file = readString(value, path, issues);
  if (file === undefined) return undefined;
  if (file === '' || file.startsWith('.') || /[/\\\0]/.test(file)) {
    issues.push({
      path,
      message: `"${file}": must be a file name of --notifications-secrets-dir (no path, no leading dot)`,
    });
    return undefined;
  }
  return file;
}

/** Returns the `{name, key}` of a secretRef at `path`, or undefined with the issues found. */
export function readSecretRef(value: unknown, path: string, issues: Issues): SecretSource | undefined {
  const ref = readMap(value, path, issues);
  const name = readRequiredString(ref?.['name'], childPath(path, 'name'), issues);
  const key = readRequiredString(ref?.['key'], childPath(path, 'key'), issues);
  const bad = name === undefined ? undefined : checkDns1123Subdomain(name);
  if (bad) issues.push({ path: childPath(path, 'name'), message: `"${name}": ${bad}` });
  if (key !== undefined && !/^[-._a-zA-Z0-9]+$/.test(key))
    issues.push({ path: childPath(path, 'key'), message: `"${key}": not a Secret data key` });
  return name === undefined || key === undefined || bad ? undefined : { type: 'secret', name, key };
}
