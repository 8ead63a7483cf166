// The credentials of chart repositories and OCI registries (docs/sources.md#credentials): a file
// of the hub's (`--chart-credentials FILE`), never the fleet repository. A YAML or JSON map whose
// keys are chart repository URLs (`https://…`: they cover every URL under them, the longest key
// wins) or registry hosts (`host[:port]`), each with `username` and `password`, or (a chart
// repository only) a bearer `token`. The file is checked when the command starts and read again
// at each pull, so a rotated password is used without a restart. No message names a value.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import yaml from 'js-yaml';
import { GitfleetError } from '../../core/model/gitfleet-error.js';

/** A user name and password (basic auth, or a registry login), or a bearer token. */
export type ChartCredential = { username: string; password: string } | { token: string };

/** Why the credentials file cannot be used: named by its file and key, never a value. */
export class ChartCredentialsError extends GitfleetError<'ChartCredentialsUnusable'> {
  constructor(message: string) {
    super(message, { code: 'ChartCredentialsUnusable' });
  }
}

const MAX_FILE_BYTES = 1024 * 1024;
const URL_KEY = /^(https?):\/\/[^\s/?#@]+(\/[^\s?#@]*)?$/;
const HOST_KEY = /^[A-Za-z0-9.-]+(:[0-9]{1,5})?$|^\[[0-9a-fA-F:]+\](:[0-9]{1,5})?$/;

/** The entries of a credentials file, by key (a URL without its trailing `/`, or a host). */
export type CredentialEntries = ReadonlyMap<string, ChartCredential>;

/** Returns the entries a credentials file holds; throws ChartCredentialsError naming the file and key. */
export function parseChartCredentials(text: string, file: string): CredentialEntries {
  let doc: unknown;
  try {
    doc = yaml.load(text, { schema: yaml.CORE_SCHEMA });
  } catch (error) {
    // js-yaml's message quotes the lines around the fault: a value would be printed.
    const line = (error as { mark?: { line?: number } }).mark?.line;
    throw new ChartCredentialsError(
      `${file}: not YAML or JSON${line !== undefined ? ` (line ${line + 1})` : ''}`,
    );
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw new ChartCredentialsError(
      `${file}: must be a map of repository URLs or registry hosts to credentials`,
    );
  const entries = new Map<string, ChartCredential>();
  for (const [key, value] of Object.entries(doc)) {
    const where = `${file}: ${JSON.stringify(key)}`;
    const isUrl = URL_KEY.test(key);
    if (!isUrl && !HOST_KEY.test(key))
      throw new ChartCredentialsError(
        `${where}: must be a chart repository URL (https://host/path) or a registry host (host[:port])`,
      );
    entries.set(isUrl ? key.replace(/\/+$/, '') : key.toLowerCase(), readCredential(value, where, isUrl));
  }
  return entries;
}

function readCredential(value: unknown, where: string, isUrl: boolean): ChartCredential {
  const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const keys = Object.keys(v).sort().join(',');
  const text = (name: string) => typeof v[name] === 'string' && (v[name] as string) !== '';
  if (keys === 'password,username' && text('username') && text('password'))
    return { username: v['username'] as string, password: v['password'] as string };
  if (keys === 'token' && text('token')) {
    if (!isUrl)
      throw new ChartCredentialsError(
        `${where}: a registry logs in with username and password (a token goes in password)`,
      );
    return { token: v['token'] as string };
  }
  throw new ChartCredentialsError(
    `${where}: must hold username and password, or token, as non-empty strings`,
  );
}

/** Returns the file's entries, read now; throws ChartCredentialsError. */
export async function readChartCredentials(file: string): Promise<CredentialEntries> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw unreadable(file, error);
  }
  return parseChartCredentials(checkSize(bytes, file), file);
}

/** Returns the file's entries, read now and synchronously (a command checking its flag); throws ChartCredentialsError. */
export function readChartCredentialsSync(file: string): CredentialEntries {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw unreadable(file, error);
  }
  return parseChartCredentials(checkSize(bytes, file), file);
}

function checkSize(bytes: Buffer, file: string): string {
  if (bytes.length > MAX_FILE_BYTES)
    throw new ChartCredentialsError(`${file}: larger than ${MAX_FILE_BYTES} bytes`);
  return bytes.toString('utf8');
}

function unreadable(file: string, error: unknown): ChartCredentialsError {
  const code = (error as { code?: unknown }).code;
  return new ChartCredentialsError(`${file}: cannot be read (${typeof code === 'string' ? code : 'error'})`);
}

/** Returns the credential of the longest URL key that is the URL or a folder above it. */
export function credentialForUrl(entries: CredentialEntries, url: string): ChartCredential | undefined {
  let best: { key: string; credential: ChartCredential } | undefined;
  for (const [key, credential] of entries)
    if ((url === key || url.startsWith(`${key}/`)) && (best === undefined || key.length > best.key.length))
      best = { key, credential };
  return best?.credential;
}

/** Returns the credential of a registry host (`host[:port]`), if the file names it. */
export function credentialForRegistry(
  entries: CredentialEntries,
  host: string,
): Extract<ChartCredential, { username: string }> | undefined {
  const found = entries.get(host.toLowerCase());
  return found !== undefined && 'username' in found ? found : undefined;
}

/** Returns the secret values of the entries (to mask them wherever they could appear). */
export function credentialSecrets(entries: CredentialEntries): string[] {
  return [...entries.values()].map((c) => ('token' in c ? c.token : c.password));
}
