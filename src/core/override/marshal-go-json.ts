/**
 * Returns compact JSON the way Karmada writes a JSON field back (evanphx/json-patch's Apply, which
 * marshals with Go's encoding/json and HTML escaping on): no spaces, keys in document order, and
 * `<`, `>`, `&`, U+2028 and U+2029 escaped as \u003c, \u003e, \u0026, \u2028 and \u2029.
 *
 * Known differences, all in spelling, never in meaning: Go keeps the original text of untouched
 * numbers (`1.50`, `1e3`) and string escapes (`\u00e9`), where this writes them as JavaScript
 * does (`1.5`, `1000`, `é`); and JavaScript objects put integer-like keys ("10", "2") first, in
 * ascending order, where Go keeps the document's order.
 */
export function marshalGoJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, escapeChar);
}

// These characters only ever occur inside JSON strings, so escaping them in the whole text is safe.
function escapeChar(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
