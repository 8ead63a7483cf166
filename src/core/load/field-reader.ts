// Typed reading of untyped YAML with every problem recorded against its field path
// (`spec.placement.spreadConstraints[0].maxGroups`), so one pass reports all of a document's
// problems. `null` reads as absent, as Go's JSON decoding treats it. The parsers read only the
// fields they act on; unknown fields are refused apart, by the strict-field pass (schema/).
import { quoteText } from '../model/quote-text.js';
import { isMap } from '../model/kube-object.js';

/** One problem with one field of a document. */
export interface FieldIssue {
  path: string;
  message: string;
}

export type Issues = FieldIssue[];

/** Returns the path of a child field: `parent.key`. */
export function childPath(parent: string, key: string): string {
  return parent ? `${parent}.${key}` : key;
}

/** Returns the path of a list item or map entry: `parent[i]`. */
export function itemPath(parent: string, index: number | string): string {
  return `${parent}[${index}]`;
}

/** Returns true when a field is absent (undefined or null). */
export function isAbsent(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}

/** Returns the value as a map, undefined when absent; records an issue when it is something else. */
export function readMap(value: unknown, path: string, issues: Issues): Record<string, unknown> | undefined {
  if (isAbsent(value)) return undefined;
  if (isMap(value)) return value;
  issues.push({ path, message: 'must be a mapping' });
  return undefined;
}

/** Returns the value as a string, undefined when absent; records an issue when it is something else. */
export function readString(value: unknown, path: string, issues: Issues): string | undefined {
  if (isAbsent(value)) return undefined;
  if (typeof value === 'string') return value;
  issues.push({ path, message: `must be a string, not ${describe(value)}` });
  return undefined;
}

/** Returns a required non-empty string; records an issue when it is absent, empty or not a string. */
export function readRequiredString(value: unknown, path: string, issues: Issues): string | undefined {
  const text = readString(value, path, issues);
  if (text === '' || (text === undefined && isAbsent(value))) issues.push({ path, message: 'is required' });
  return text === '' ? undefined : text;
}

/** Returns the value as a boolean, undefined when absent; records an issue when it is something else. */
export function readBool(value: unknown, path: string, issues: Issues): boolean | undefined {
  if (isAbsent(value)) return undefined;
  if (typeof value === 'boolean') return value;
  issues.push({ path, message: `must be a boolean, not ${describe(value)}` });
  return undefined;
}

/** Returns the value as an integer, undefined when absent; records an issue when it is something else. */
export function readInt(value: unknown, path: string, issues: Issues): number | undefined {
  if (isAbsent(value)) return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  issues.push({ path, message: `must be an integer, not ${describe(value)}` });
  return undefined;
}

/** Returns the value as a finite number, undefined when absent; records an issue when it is something else. */
export function readNumber(value: unknown, path: string, issues: Issues): number | undefined {
  if (isAbsent(value)) return undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  issues.push({ path, message: `must be a number, not ${describe(value)}` });
  return undefined;
}

/** Returns the value when it is one of `allowed` (absent and '' read as undefined); records an issue otherwise. */
export function readEnum<T extends string>(
  value: unknown,
  allowed: readonly T[],
  path: string,
  issues: Issues,
): T | undefined {
  const text = readString(value, path, issues);
  if (text === undefined || text === '') return undefined;
  if ((allowed as readonly string[]).includes(text)) return text as T;
  issues.push({
    path,
    message: `unsupported value ${quoteText(text)}: must be one of ${allowed.join(', ')}`,
  });
  return undefined;
}

/** Returns the value when it is one of `allowed`; records an issue when it is absent or anything else. */
export function readRequiredEnum<T extends string>(
  value: unknown,
  allowed: readonly T[],
  path: string,
  issues: Issues,
): T | undefined {
  if (isAbsent(value) || value === '') {
    issues.push({ path, message: `is required: one of ${allowed.join(', ')}` });
    return undefined;
  }
  return readEnum(value, allowed, path, issues);
}

/** Returns the items read by `item` (items it rejects are dropped), undefined when absent. */
export function readList<T>(
  value: unknown,
  path: string,
  issues: Issues,
  item: (value: unknown, path: string) => T | undefined,
): T[] | undefined {
  if (isAbsent(value)) return undefined;
  if (!Array.isArray(value)) {
    issues.push({ path, message: `must be a list, not ${describe(value)}` });
    return undefined;
  }
  const out: T[] = [];
  for (let i = 0; i < value.length; i++) {
    const read = item(value[i], itemPath(path, i));
    if (read !== undefined) out.push(read);
  }
  return out;
}

/** Returns a list of strings, undefined when absent. */
export function readStringList(value: unknown, path: string, issues: Issues): string[] | undefined {
  return readList(value, path, issues, (v, p) => {
    if (typeof v === 'string') return v;
    issues.push({ path: p, message: `must be a string, not ${describe(v)}` });
    return undefined;
  });
}

/** Returns a map of strings to strings (labels, annotations), undefined when absent. */
export function readStringMap(
  value: unknown,
  path: string,
  issues: Issues,
): Record<string, string> | undefined {
  const map = readMap(value, path, issues);
  if (map === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(map)) {
    if (typeof v === 'string') out[key] = v;
    else issues.push({ path: itemPath(path, key), message: `must be a string, not ${describe(v)}` });
  }
  return out;
}

/** Returns the object without its undefined properties, so optional fields stay absent rather than undefined. */
export function compact<T extends object>(value: Loose<T>): T {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = v;
  return out as T;
}

type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];

/** `T` whose optional properties also accept an explicit undefined (for `compact`). */
export type Loose<T> = { [K in keyof T]: K extends OptionalKeys<T> ? T[K] | undefined : T[K] };

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (isMap(value)) return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)}`;
}
