import { InternalError } from '../model/gitfleet-error.js';
/**
 * The canonical YAML form of a Kubernetes object: keys sorted (as `kubectl get -o yaml` and Go's
 * YAML marshalling of maps do), two-space indentation, list items at their parent's indentation,
 * multi-line strings as literal blocks, and every scalar that another YAML parser could read
 * differently quoted. Identical values give byte-identical text.
 *
 * Plain scalars are emitted only when YAML 1.1 parsers (go-yaml v2, as used by kubectl) and
 * YAML 1.2 parsers (js-yaml) both read them back as the same string, so the output is safe for
 * every tool in the chain. Everything else is double-quoted with JSON escapes, which both read.
 */
export function emitYaml(value: unknown, opts: { keepOrder?: boolean } = {}): string {
  keepOrder = opts.keepOrder === true;
  try {
    return emitValue(value);
  } finally {
    keepOrder = false;
  }
}

// `keepOrder`: keys as they are in the value instead of sorted, for a SOPS-encrypted document,
// whose MAC hashes its values in document order (core/secrets/sops-leaves.ts). Set for one call.
let keepOrder = false;

function emitValue(value: unknown): string {
  const out: string[] = [];
  if (isPlainMap(value)) {
    if (Object.keys(value).length === 0) return '{}\n';
    emitMap(value, 0, out);
  } else if (Array.isArray(value)) {
    if (value.length === 0) return '[]\n';
    emitList(value, 0, out);
  } else {
    out.push(scalar(value, 0), '\n');
  }
  return out.join('');
}

function isPlainMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const spaces: string[] = [];
function indent(n: number): string {
  return (spaces[n] ??= ' '.repeat(n));
}

function sortedKeys(map: Record<string, unknown>): string[] {
  const keys = Object.keys(map);
  if (keepOrder) return keys;
  // Byte order of UTF-16 code units equals Go's string order for the BMP, which is all that
  // Kubernetes keys use in practice.
  return keys.length > 1 ? keys.sort() : keys;
}

function emitMap(map: Record<string, unknown>, level: number, out: string[]): void {
  const pad = indent(level);
  for (const key of sortedKeys(map)) {
    const value = map[key];
    if (value === undefined) continue;
    out.push(pad, quoteKey(key), ':');
    emitValueAfterKey(value, level, out);
  }
}

function emitValueAfterKey(value: unknown, level: number, out: string[]): void {
  if (isPlainMap(value)) {
    if (hasDefinedKey(value)) {
      out.push('\n');
      emitMap(value, level + 2, out);
    } else out.push(' {}\n');
  } else if (Array.isArray(value)) {
    if (value.length === 0) out.push(' []\n');
    else {
      out.push('\n');
      emitList(value, level, out);
    }
  } else {
    out.push(' ', scalar(value, level + 2), '\n');
  }
}

function hasDefinedKey(map: Record<string, unknown>): boolean {
  for (const key in map) if (map[key] !== undefined) return true;
  return false;
}

function emitList(list: unknown[], level: number, out: string[]): void {
  const pad = indent(level);
  for (const item of list) {
    if (isPlainMap(item) && hasDefinedKey(item)) {
      // The first key shares the line with the dash; the rest align under it.
      const lines: string[] = [];
      emitMap(item, level + 2, lines);
      const text = lines.join('');
      out.push(pad, '- ', text.slice(level + 2));
    } else if (Array.isArray(item) && item.length > 0) {
      out.push(pad, '-\n');
      emitList(item, level + 2, out);
    } else if (isPlainMap(item)) {
      out.push(pad, '- {}\n');
    } else if (Array.isArray(item)) {
      out.push(pad, '- []\n');
    } else {
      out.push(pad, '- ', scalar(item ?? null, level + 2), '\n');
    }
  }
}

function scalar(value: unknown, level: number): string {
  switch (typeof value) {
    case 'string':
      return quoteString(value, level);
    case 'number':
      return formatNumber(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return value.toString();
    default:
      if (value === null || value === undefined) return 'null';
      throw new InternalError(`YAML: cannot emit a ${typeof value}`);
  }
}

function formatNumber(n: number): string {
  if (Number.isNaN(n)) return '.nan';
  if (n === Infinity) return '.inf';
  if (n === -Infinity) return '-.inf';
  if (Object.is(n, -0)) return '0';
  return String(n);
}

function quoteKey(key: string): string {
  return isPlainSafe(key) ? key : JSON.stringify(key);
}

function quoteString(s: string, level: number): string {
  if (isPlainSafe(s)) return s;
  if (level > 0 && s.includes('\n') && s.trim() !== '' && isBlockSafe(s)) return literalBlock(s, level);
  return JSON.stringify(s);
}

// A literal block keeps text exactly, except that it cannot carry carriage returns, other
// control characters, a BOM, or whitespace at the end of a line, and its indentation is found
// from the first non-empty line, so that line must not start with a space or tab. Strings
// outside those rules stay double-quoted.
// eslint-disable-next-line no-control-regex
const blockUnsafe = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\ufeff\u2028\u2029]|[ \t]\n|[ \t]$|^\n*[ \t]/;

function isBlockSafe(s: string): boolean {
  return !blockUnsafe.test(s);
}

// Chomping: `|-` strips the final line break, `|` keeps exactly one, `|+` keeps them all.
function literalBlock(s: string, level: number): string {
  const pad = indent(level);
  let header: string;
  let body: string;
  if (!s.endsWith('\n')) {
    header = '|-';
    body = s;
  } else {
    header = s.endsWith('\n\n') ? '|+' : '|';
    body = s.slice(0, -1);
  }
  const parts: string[] = [header];
  for (const line of body.split('\n')) parts.push(line.length === 0 ? '' : pad + line);
  return parts.join('\n');
}

// Plain scalars: a conservative rule, so that YAML 1.1 and 1.2 parsers agree.
// eslint-disable-next-line no-control-regex
const plainUnsafeChar = /[\u0000-\u001f\u007f-\u009f\ufeff\u2028\u2029"'`{}[\],&*!|>%@#]/;
const firstUnsafe = /^[-?:\s~<=]/;
const reserved11 =
  /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~)$/;
// Strings that some YAML 1.1 or 1.2 parser reads as a number or a timestamp: digits with
// underscores, dots, colons (sexagesimal) and an exponent; 0x/0o/0b prefixes; dates; .inf/.nan.
// Other strings that merely start with a digit ("100m", "256Mi", "1.27-alpine") stay plain.
const numberLike = /^[-+]?[0-9_.:]+(?:[eE][-+]?[0-9]+)?$/;
const prefixedNumber = /^[-+]?0[xXoObB]/;
const dateLike = /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}/;
const specialFloat = /^[-+]?\.(?:inf|Inf|INF|nan|NaN|NAN)$/;

function looksNumeric(s: string): boolean {
  const c = s.charCodeAt(0);
  const startsNumeric = (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46;
  if (!startsNumeric) return false;
  return (
    c === 43 ||
    c === 46 ||
    numberLike.test(s) ||
    prefixedNumber.test(s) ||
    dateLike.test(s) ||
    specialFloat.test(s)
  );
}

function isPlainSafe(s: string): boolean {
  if (s.length === 0 || s.length > 1024) return false;
  if (plainUnsafeChar.test(s)) return false;
  if (firstUnsafe.test(s) || s.endsWith(' ') || s.endsWith(':')) return false;
  if (s.includes(': ') || s.includes(' #')) return false;
  if (reserved11.test(s) || looksNumeric(s)) return false;
  if (s === '.inf' || s === '.nan' || s === '<<' || s === '=') return false;
  return true;
}
