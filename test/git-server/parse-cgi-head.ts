// Splits what a CGI program writes into its header block and the start of its body.
// A CGI response is `Name: value` lines, a blank line, then the body; the pseudo-header
// `Status: 404 Not Found` carries the HTTP status (RFC 3875 §6.3). git http-backend ends its
// lines with `\r\n`; plain `\n` is accepted too.

/** The parsed head of a CGI response. */
export interface CgiHead {
  status: number;
  statusText: string;
  headers: [string, string][];
  /** Bytes after the blank line: the start of the body. */
  rest: Buffer;
}

/** Returns the head once `buffered` holds the whole header block, or null while it does not yet. */
export function parseCgiHead(buffered: Buffer): CgiHead | null {
  const end = findHeadEnd(buffered);
  if (end === null) return null;
  const lines = buffered.subarray(0, end.at).toString('latin1').split(/\r?\n/);
  let status = 200;
  let statusText = 'OK';
  const headers: [string, string][] = [];
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (name.toLowerCase() === 'status') {
      const match = /^(\d{3})\s*(.*)$/.exec(value);
      if (match) {
        status = Number(match[1]);
        statusText = match[2] ?? '';
      }
    } else {
      headers.push([name, value]);
    }
  }
  return { status, statusText, headers, rest: buffered.subarray(end.at + end.length) };
}

function findHeadEnd(buffered: Buffer): { at: number; length: number } | null {
  const crlf = buffered.indexOf('\r\n\r\n');
  const lf = buffered.indexOf('\n\n');
  if (crlf >= 0 && (lf < 0 || crlf < lf)) return { at: crlf, length: 4 };
  if (lf >= 0) return { at: lf, length: 2 };
  return null;
}
