// A receiver's secrets (docs/notifications.md#secrets): a file of --notifications-secrets-dir
// named by the policy (a plain file name, checked at load: nothing outside the directory; a
// mounted Secret's symlinks are followed, as its volume makes them), or a key of a Kubernetes
// Secret in the hub's own namespace. Read at each delivery, so a rotated secret is used at once.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { SecretSource } from '../../core/model/notification-policy.js';
import { NotificationSecretError } from './notification-secret-error.js';

/** Where secrets are read from. */
export interface SecretReaders {
  /** --notifications-secrets-dir; absent: a policy naming a file gets an error saying so. */
  dir?: string;
  /** Returns the value of a key of a Secret of the hub's namespace, undefined when there is none. */
  secretKey?: (name: string, key: string) => Promise<string | undefined>;
}

const maxSecretBytes = 64 * 1024;

/** Returns the secret's value, trimmed; throws a NotificationSecretError that names `subject` and the source, never the value. */
export async function readReceiverSecret(
  source: SecretSource,
  subject: string,
  readers: SecretReaders,
): Promise<string> {
  if (source.type === 'inline') return source.value;
  if (source.type === 'secret') {
    const where = `${subject}: Secret ${source.name} key ${source.key}`;
    if (!readers.secretKey)
      throw new NotificationSecretError(
        'NotificationSecretMissing',
        `${where}: the hub reads no Kubernetes Secrets (it runs outside a cluster)`,
      );
    const value = await readers.secretKey(source.name, source.key);
    if (value === undefined)
      throw new NotificationSecretError('NotificationSecretMissing', `${where}: not found`);
    return nonEmpty(value.trim(), where);
  }
  const where = `${subject}: file ${source.file}`;
  if (readers.dir === undefined)
    throw new NotificationSecretError(
      'NotificationSecretMissing',
      `${where}: the hub has no --notifications-secrets-dir`,
    );
  const path = join(readers.dir, source.file);
  try {
    const info = await stat(path);
    if (!info.isFile())
      throw new NotificationSecretError('NotificationSecretUnusable', `${where}: not a file`);
    if (info.size > maxSecretBytes)
      throw new NotificationSecretError(
        'NotificationSecretUnusable',
        `${where}: larger than ${maxSecretBytes} bytes`,
      );
    return nonEmpty((await readFile(path, 'utf8')).trim(), where);
  } catch (error) {
    if (error instanceof NotificationSecretError) throw error;
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT')
      throw new NotificationSecretError(
        'NotificationSecretMissing',
        `${where}: not found in --notifications-secrets-dir`,
      );
    throw new NotificationSecretError(
      'NotificationSecretUnusable',
      `${where}: cannot be read (${String(code ?? 'error')})`,
    );
  }
}

function nonEmpty(value: string, where: string): string {
  if (value === '') throw new NotificationSecretError('NotificationSecretUnusable', `${where}: empty`);
  return value;
}
