// Every line a command prints to a terminal passes here, so that text from the fleet (a file
// name, a YAML key, a commit subject, a pattern) that carries ESC, CR, BEL, a bidi override or a
// NUL is printed as an escape, never raw, whichever message quotes it (escapeControls). Line
// breaks and tabs stay: the output is made of them; the messages that quote one-line text escape
// an LF there (formatLoadError, quoteText). JSON output passes unchanged in meaning: JSON already
// escapes C0 controls, and `\u202e` written for a raw U+202E inside a string is the same string.
import { escapeControls } from '../core/model/quote-text.js';
import type { Io } from './io.js';

/** The one control sequence a command may print on purpose: clear the screen (`status --watch`). */
export const clearScreen = '\x1b[H\x1b[2J';

/** Returns an Io that escapes unprintable characters in everything printed through it. */
export function escapingIo(io: Io): Io {
  const escape = (text: string) =>
    text.startsWith(clearScreen)
      ? clearScreen + escapeControls(text.slice(clearScreen.length), { lines: true })
      : escapeControls(text, { lines: true });
  return {
    ...io,
    out: (text) => io.out(escape(text)),
    err: (text) => io.err(escape(text)),
  };
}
