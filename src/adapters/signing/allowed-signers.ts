// git's allowed_signers file (gpg.ssh.allowedSignersFile; the format is ssh-keygen(1)'s ALLOWED
// SIGNERS): one key per line,
//
//   <principals> [options] <keytype> <base64 key> [comment]
//
// principals a comma-separated pattern list (`*`, `?`, `!negation`), options comma-separated:
// `namespaces="git,file"`, `valid-after="YYYYMMDD[HHMM[SS]][Z]"`, `valid-before="…"`, and
// `cert-authority`, which is refused (gitfleet verifies plain keys, not certificates). A time
// without `Z` is read as UTC (ssh-keygen reads it in local time; say `Z` to mean the same).
// Blank lines and `#` comments are skipped. A key removed from the file is revoked.
import { parseSshPublicKey, type SshPublicKey } from './ssh-keys.js';
import { SigningError } from './signing-error.js';

/** One line of an allowed_signers file. */
export interface AllowedSigner {
  line: number;
  principals: string[];
  namespaces: string[] | undefined;
  validAfter: Date | undefined;
  validBefore: Date | undefined;
  key: SshPublicKey;
}

/** Returns the entries of an allowed_signers file's text; `file` names it in errors. */
export function parseAllowedSigners(text: string, file: string): AllowedSigner[] {
  const entries: AllowedSigner[] = [];
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    try {
      entries.push(parseLine(line, index + 1));
    } catch (error) {
      throw new SigningError('InvalidAllowedSigners', `${file}:${index + 1}: ${(error as Error).message}`);
    }
  });
  return entries;
}

function parseLine(line: string, lineNumber: number): AllowedSigner {
  const fields = splitFields(line);
  const principals = fields.shift();
  if (principals === undefined || fields.length < 2)
    throw new Error('expected <principals> [options] <keytype> <key>');
  const options = isKeyType(fields[0] ?? '') ? '' : (fields.shift() ?? '');
  const [type, base64] = fields;
  if (type === undefined || base64 === undefined || !isKeyType(type))
    throw new Error('no key type after the principals and options');
  const entry: AllowedSigner = {
    line: lineNumber,
    principals: principals.split(','),
    namespaces: undefined,
    validAfter: undefined,
    validBefore: undefined,
    key: parseSshPublicKey(type, base64),
  };
  for (const option of splitOptions(options)) applyOption(entry, option);
  return entry;
}

function applyOption(entry: AllowedSigner, option: string): void {
  const eq = option.indexOf('=');
  const name = (eq < 0 ? option : option.slice(0, eq)).toLowerCase();
  const value = eq < 0 ? '' : unquote(option.slice(eq + 1));
  if (name === 'namespaces') entry.namespaces = value.split(',');
  else if (name === 'valid-after') entry.validAfter = parseTime(value, name);
  else if (name === 'valid-before') entry.validBefore = parseTime(value, name);
  else if (name === 'cert-authority')
    throw new Error('cert-authority: certificates are not supported; list the signing keys themselves');
  else throw new Error(`unknown option ${name}`);
}

/** Returns whether `value` matches an ssh pattern list (`*`, `?`, a `!` pattern that matches refuses). */
export function matchesPatternList(value: string, patterns: readonly string[]): boolean {
  let matched = false;
  for (const pattern of patterns) {
    const negated = pattern.startsWith('!');
    if (!globToRegExp(negated ? pattern.slice(1) : pattern).test(value)) continue;
    if (negated) return false;
    matched = true;
  }
  return matched;
}

function globToRegExp(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

// YYYYMMDD, YYYYMMDDHHMM or YYYYMMDDHHMMSS, then an optional Z.
function parseTime(value: string, option: string): Date {
  const m = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2})?)?Z?$/.exec(value);
  if (!m) throw new Error(`${option}="${value}": not YYYYMMDD[HHMM[SS]][Z]`);
  const [, y, mo, d, h, mi, s] = m.map((part) => Number(part ?? 0));
  const date = new Date(Date.UTC(y ?? 0, (mo ?? 1) - 1, d, h, mi, s));
  if (Number.isNaN(date.getTime()) || date.getUTCDate() !== d)
    throw new Error(`${option}="${value}": not a date`);
  return date;
}

function isKeyType(field: string): boolean {
  return /^(ssh-|ecdsa-|sk-)/.test(field);
}

// Fields are separated by blanks, except inside double quotes.
function splitFields(line: string): string[] {
  const fields: string[] = [];
  const pattern = /(?:"[^"]*"|[^\s"])+/g;
  if ((line.match(/"/g) ?? []).length % 2 !== 0) throw new Error('a double quote is not closed');
  for (const m of line.matchAll(pattern)) fields.push(m[0]);
  return fields.map((field, index) => (index === 0 ? unquote(field) : field));
}

function splitOptions(options: string): string[] {
  return options === '' ? [] : (options.match(/(?:"[^"]*"|[^,"])+/g) ?? []);
}

function unquote(value: string): string {
  return value.startsWith('"') && value.endsWith('"') && value.length >= 2 ? value.slice(1, -1) : value;
}
