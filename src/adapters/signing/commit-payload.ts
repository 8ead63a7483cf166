// A signed commit, as git writes and reads it (commit.c: add_header_signature,
// parse_buffer_signed_by_header): the signature sits in a `gpgsig` header after the committer
// line, its lines after the first indented by one space; the signed payload is the commit
// object without that header (and without any other `gpgsig…` header, such as the sha256
// repository's `gpgsig-sha256`). So a signature covers the tree, the parents, both
// identities and the message: copied onto another commit, it no longer matches.
import { toGitObject } from '../git/hash-object.js';
import type { GitObject } from '../git/git-object.js';

/** The signature block longest accepted: an OpenPGP RSA-4096 signature is under 1 KiB. */
export const maxSignatureBytes = 16 * 1024;

/** A commit object split into the bytes that were signed and the signature over them. */
export interface SignedPayload {
  payload: Buffer;
  /** The signature block (armored), or undefined when the commit carries none. */
  signature: string | undefined;
  /** How many `gpgsig` headers the commit carries (more than one is malformed). */
  signatureHeaders: number;
}

/** Returns the signed payload and the signature of a commit object's content. */
export function splitSignedCommit(content: Uint8Array): SignedPayload {
  const bytes = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  const headerEnd = bytes.indexOf('\n\n');
  const header = headerEnd < 0 ? bytes : bytes.subarray(0, headerEnd + 1);
  const payload: Buffer[] = [];
  const signature: Buffer[] = [];
  let signatureHeaders = 0;
  let inSignature = false;
  let otherSignature = false;
  for (let start = 0; start < header.length;) {
    const newline = header.indexOf(0x0a, start);
    const next = newline < 0 ? header.length : newline + 1;
    const line = header.subarray(start, next);
    start = next;
    if (line[0] === 0x20 && (inSignature || otherSignature)) {
      if (inSignature) signature.push(line.subarray(1));
      continue;
    }
    inSignature = line.subarray(0, 7).toString('latin1') === 'gpgsig ';
    otherSignature = !inSignature && line.subarray(0, 6).toString('latin1') === 'gpgsig';
    if (inSignature) {
      signatureHeaders++;
      signature.push(line.subarray(7));
    } else if (!otherSignature) payload.push(line);
  }
  if (headerEnd >= 0) payload.push(bytes.subarray(headerEnd + 1));
  return {
    payload: Buffer.concat(payload),
    signature: signatureHeaders === 0 ? undefined : Buffer.concat(signature).toString('utf8'),
    signatureHeaders,
  };
}

/** Returns the commit object of `payload` (an unsigned commit's content) carrying `signature` in its `gpgsig` header. */
export function addSignature(payload: Uint8Array, signature: string): GitObject {
  const bytes = Buffer.from(payload);
  const headerEnd = bytes.indexOf('\n\n');
  const at = headerEnd < 0 ? bytes.length : headerEnd + 1;
  const lines = signature.endsWith('\n') ? signature.slice(0, -1).split('\n') : signature.split('\n');
  const header = `gpgsig ${lines.join('\n ')}\n`;
  return toGitObject(
    'commit',
    Buffer.concat([bytes.subarray(0, at), Buffer.from(header, 'utf8'), bytes.subarray(at)]),
  );
}
