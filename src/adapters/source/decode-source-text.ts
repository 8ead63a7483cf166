import { GitfleetError } from '../../core/model/gitfleet-error.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Raised when a fleet file is not UTF-8 text; the message names the file and the first bad byte. */
export class SourceTextError extends GitfleetError<'InvalidUtf8'> {
  constructor(
    readonly path: string | undefined,
    readonly offset: number,
    line: number,
  ) {
    super(
      `${path ?? 'a fleet file'}: not valid UTF-8 at byte ${offset} (line ${line}); ` +
        'fleet files must be UTF-8 text: re-encode the file (e.g. iconv -f latin1 -t utf-8)',
      { code: 'InvalidUtf8', terminal: true, ...(path !== undefined ? { subject: path } : {}) },
    );
  }
}

/**
 * Returns a file's bytes as text: UTF-8, a leading byte-order mark dropped. Bytes that are not
 * UTF-8 are refused (SourceTextError, naming `path` and the byte offset), not replaced: a
 * replaced byte would be rendered and applied as U+FFFD, silently changing the value. Every
 * source adapter decodes with this one function, so a commit and the same tree on disk give
 * identical text, or the identical error.
 */
export function decodeSourceText(bytes: Uint8Array, path?: string): string {
  try {
    return decoder.decode(bytes);
  } catch {
    const offset = firstInvalidByte(bytes);
    let line = 1;
    for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
    throw new SourceTextError(path, offset, line);
  }
}

/** Returns the offset where the first ill-formed UTF-8 sequence starts (RFC 3629), or the length. */
function firstInvalidByte(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const length =
      b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0 || i + length > bytes.length) return i;
    // The second byte's range rules out overlong forms, surrogates and code points past U+10FFFF.
    const [low, high] =
      b === 0xe0
        ? [0xa0, 0xbf]
        : b === 0xed
          ? [0x80, 0x9f]
          : b === 0xf0
            ? [0x90, 0xbf]
            : b === 0xf4
              ? [0x80, 0x8f]
              : [0x80, 0xbf];
    for (let k = 1; k < length; k++) {
      const c = bytes[i + k]!;
      if (k === 1 ? c < low || c > high : c < 0x80 || c > 0xbf) return i;
    }
    i += length;
  }
  return bytes.length;
}
