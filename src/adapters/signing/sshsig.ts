// OpenSSH's signature format, SSHSIG (PROTOCOL.sshsig), which `git commit -S` writes with
// gpg.format=ssh: an armored blob holding the signer's public key, the namespace ("git" for
// commits), the hash algorithm and an SSH signature over
//
//   "SSHSIG" || string namespace || string reserved || string hash_algorithm || string H(message)
//
// The framing is written here; the signature itself is node:crypto's ed25519.
import { createHash, sign, verify, type KeyObject } from 'node:crypto';
import { SshReader, sshEncode } from './ssh-wire.js';
import { sshPublicKeyOfBlob, type SshPublicKey } from './ssh-keys.js';

const preamble = Buffer.from('SSHSIG', 'latin1');
const begin = '-----BEGIN SSH SIGNATURE-----';
const end = '-----END SSH SIGNATURE-----';
const hashes: Readonly<Record<string, string>> = { sha512: 'sha512', sha256: 'sha256' };

/** What an SSHSIG blob says; `publicKey` is whoever claims to have signed. */
export interface Sshsig {
  publicKey: SshPublicKey;
  namespace: string;
  hashAlgorithm: string;
  signatureType: string;
  signature: Buffer;
}

/** Returns the armored SSHSIG signature of `message` by an ed25519 key (sha512, as ssh-keygen -Y sign). */
export function signSshsig(input: {
  message: Uint8Array;
  namespace: string;
  publicKeyBlob: Buffer;
  privateKey: KeyObject;
}): string {
  const hashed = signedData(input.namespace, 'sha512', input.message);
  const signature = sign(null, hashed, input.privateKey);
  const blob = Buffer.concat([
    preamble,
    sshEncode(1, input.publicKeyBlob, input.namespace, '', 'sha512', sshEncode('ssh-ed25519', signature)),
  ]);
  const lines = blob.toString('base64').match(/.{1,70}/g) ?? [];
  return `${begin}\n${lines.join('\n')}\n${end}\n`;
}

/** Returns the parts of an armored SSH signature; throws a plain Error saying what is malformed. */
export function parseSshsig(armored: string): Sshsig {
  const text = armored.trim();
  if (!text.startsWith(begin) || !text.endsWith(end)) throw new Error('not an armored SSH signature');
  const base64 = text.slice(begin.length, -end.length).replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) throw new Error('the SSH signature is not base64');
  const reader = new SshReader(Buffer.from(base64, 'base64'));
  if (!reader.raw(preamble.length).equals(preamble)) throw new Error('no SSHSIG preamble');
  const version = reader.uint32();
  if (version !== 1) throw new Error(`SSHSIG version ${version}, not 1`);
  const publicKey = sshPublicKeyOfBlob(reader.string());
  const namespace = reader.text();
  reader.string(); // reserved
  const hashAlgorithm = reader.text();
  const inner = new SshReader(reader.string());
  if (reader.rest().length > 0) throw new Error('bytes after the signature');
  const signatureType = inner.text();
  const signature = inner.string();
  return { publicKey, namespace, hashAlgorithm, signatureType, signature };
}

/** Returns whether the parsed signature is a good ed25519 signature of `message` in `namespace`. */
export function verifySshsig(sig: Sshsig, message: Uint8Array): boolean {
  if (sig.publicKey.key === undefined || sig.signatureType !== 'ssh-ed25519') return false;
  if (hashes[sig.hashAlgorithm] === undefined || sig.signature.length !== 64) return false;
  return verify(
    null,
    signedData(sig.namespace, sig.hashAlgorithm, message),
    sig.publicKey.key,
    sig.signature,
  );
}

function signedData(namespace: string, hashAlgorithm: string, message: Uint8Array): Buffer {
  const digest = createHash(hashes[hashAlgorithm] ?? 'sha512')
    .update(message)
    .digest();
  return Buffer.concat([preamble, sshEncode(namespace, '', hashAlgorithm, digest)]);
}
