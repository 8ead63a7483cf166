import { isMap } from '../model/kube-object.js';

/**
 * RFC 6901 JSON pointers: `/a/b~1c/0` names key `a`, then key `b/c`, then index 0. The empty
 * pointer names the whole document.
 */

/** Returns the reference tokens of a pointer, or undefined when it is neither empty nor starts with '/'. */
export function parseJsonPointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Returns the pointer that names the given tokens (the inverse of parseJsonPointer). */
export function formatJsonPointer(tokens: readonly (string | number)[]): string {
  return tokens.map((token) => '/' + String(token).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/** Returns the value a pointer names, or `{ found: false }` when some step of it does not exist. */
export function readJsonPointer(
  doc: unknown,
  tokens: readonly string[],
): { found: true; value: unknown } | { found: false } {
  let current: unknown = doc;
  for (const token of tokens) {
    const next = childOf(current, token);
    if (!next.found) return next;
    current = next.value;
  }
  return { found: true, value: current };
}

/** Returns a list index token as a number (decimal digits only), or undefined. */
export function parseArrayIndex(token: string): number | undefined {
  return /^[0-9]+$/.test(token) ? Number(token) : undefined;
}

function childOf(value: unknown, token: string): { found: true; value: unknown } | { found: false } {
  if (Array.isArray(value)) {
    const index = parseArrayIndex(token);
    return index !== undefined && index < value.length
      ? { found: true, value: value[index] }
      : { found: false };
  }
  if (isMap(value) && Object.prototype.hasOwnProperty.call(value, token)) {
    return { found: true, value: value[token] };
  }
  return { found: false };
}
