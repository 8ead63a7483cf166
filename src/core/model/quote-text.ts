// User text (names, refs, prefixes, keys) quoted into a message could carry a NUL, an escape
// sequence that rewrites the terminal, a newline that forges a second log line, or a bidi
// control that shows the text reversed. Every message quotes such text through quoteText, which
// writes those characters as escapes, so what is printed is what was written, visibly.

// C0 controls and DEL, C1 controls, line and paragraph separators, bidi embeddings, overrides
// and isolates, and the BOM / zero-width no-break space.
const UNPRINTABLE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]|[\ud800-\udfff]/gu;

/** Returns the text in double quotes, with quotes, backslashes and unprintable characters escaped. */
export function quoteText(text: string): string {
  return `"${escapeText(text)}"`;
}

/** Returns the text with backslashes, double quotes and unprintable characters escaped, unquoted. */
export function escapeText(text: string): string {
  return text.replace(/[\\"]/g, (c) => `\\${c}`).replace(UNPRINTABLE, escapeOne);
}

function escapeOne(c: string): string {
  switch (c) {
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
    default:
      return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  }
}

/**
 * Returns the text with unprintable characters escaped and everything else as it is (no quotes,
 * backslashes kept): for whole lines of output, where `lines` keeps line breaks and tabs, which
 * the output itself is made of, and for one-line text (a file name, a message), where an LF
 * would forge a line of its own.
 */
export function escapeControls(text: string, opts: { lines?: boolean } = {}): string {
  return text.replace(UNPRINTABLE, (c) => (opts.lines && (c === '\n' || c === '\t') ? c : escapeOne(c)));
}
