// OpenSSH keys as node:crypto KeyObjects: a public key line (`ssh-ed25519 AAAA… comment`, the
// format of `.pub` files and allowed_signers) and an unencrypted private key in OpenSSH's own
// format (`-----BEGIN OPENSSH PRIVATE KEY-----`, PROTOCOL.key: `openssh-key-v1`). Only ed25519
// signs and verifies; other key types are read (so a keys file naming one still loads) and
// refused where they would be used.
import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { SshReader, sshEncode } from './ssh-wire.js';
import { SigningError } from './signing-error.js';

/** A public key as SSH writes it: its type, its wire blob and, for ed25519, the key itself. */
export interface SshPublicKey {
  type: string;
  /** The key's SSH wire encoding (what a `.pub` line holds in base64). */
  blob: Buffer;
  /** `SHA256:<base64>`, as `ssh-keygen -l` prints it. */
  fingerprint: string;
  /** The node:crypto key, for ed25519 keys only. */
  key: KeyObject | undefined;
}

/** An ed25519 key pair read from an OpenSSH private key. */
export interface SshKeyPair {
  publicKey: SshPublicKey & { key: KeyObject };
  privateKey: KeyObject;
  comment: string;
}

const privateBegin = '-----BEGIN OPENSSH PRIVATE KEY-----';
const privateEnd = '-----END OPENSSH PRIVATE KEY-----';
const magic = Buffer.from('openssh-key-v1\0', 'latin1');

/** Returns whether the text looks like an OpenSSH private key. */
export function isOpensshPrivateKey(text: string): boolean {
  return text.trimStart().startsWith(privateBegin);
}

/** Returns the public key of an SSH wire blob (`string type, …`). */
export function sshPublicKeyOfBlob(blob: Buffer): SshPublicKey {
  const reader = new SshReader(blob);
  const type = reader.text();
  const fingerprint = `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
  if (type !== 'ssh-ed25519') return { type, blob, fingerprint, key: undefined };
  const raw = reader.string();
  if (raw.length !== 32) throw new Error(`an ed25519 public key of ${raw.length} bytes, not 32`);
  return { type, blob, fingerprint, key: ed25519PublicKey(raw) };
}

/** Returns the public key of a `<type> <base64> [comment]` line; throws a plain Error saying what is wrong. */
export function parseSshPublicKey(type: string, base64: string): SshPublicKey {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) throw new Error(`${type}: the key is not base64`);
  const key = sshPublicKeyOfBlob(Buffer.from(base64, 'base64'));
  if (key.type !== type) throw new Error(`the key says it is ${key.type}, the line says ${type}`);
  return key;
}

/** Returns the key pair of an unencrypted OpenSSH ed25519 private key; `file` names it in errors. */
export function parseOpensshPrivateKey(text: string, file: string): SshKeyPair {
  const body = text.trim();
  if (!body.startsWith(privateBegin) || !body.endsWith(privateEnd)) {
    throw new SigningError('InvalidKey', `${file}: not an OpenSSH private key (no ${privateBegin} block)`);
  }
  const bytes = Buffer.from(
    body.slice(privateBegin.length, -privateEnd.length).replace(/\s+/g, ''),
    'base64',
  );
  try {
    return readPrivateKey(bytes, file);
  } catch (error) {
    if (error instanceof SigningError) throw error;
    throw new SigningError(
      'InvalidKey',
      `${file}: a malformed OpenSSH private key: ${(error as Error).message}`,
    );
  }
}

function readPrivateKey(bytes: Buffer, file: string): SshKeyPair {
  const reader = new SshReader(bytes);
  if (!reader.raw(magic.length).equals(magic)) throw new Error('no openssh-key-v1 header');
  const cipher = reader.text();
  reader.text(); // kdf name
  reader.string(); // kdf options
  if (cipher !== 'none') {
    throw new SigningError(
      'EncryptedKey',
      `${file}: the private key is encrypted (${cipher}); gitfleet takes an unencrypted key (ssh-keygen -p -N '' -f ${file} removes the passphrase; keep the file in a Secret)`,
    );
  }
  const count = reader.uint32();
  if (count !== 1) throw new Error(`${count} keys in the file, not 1`);
  reader.string(); // the public key, repeated in the private section
  const secret = new SshReader(reader.string());
  if (secret.uint32() !== secret.uint32()) throw new Error('the check integers differ (a damaged key)');
  const type = secret.text();
  if (type !== 'ssh-ed25519') {
    throw new SigningError(
      'UnsupportedKey',
      `${file}: a ${type} key; gitfleet signs with ed25519 keys only (ssh-keygen -t ed25519)`,
    );
  }
  const pub = secret.string();
  const priv = secret.string();
  const comment = secret.text();
  if (pub.length !== 32 || priv.length !== 64 || !priv.subarray(32).equals(pub)) {
    throw new Error('the ed25519 key halves do not match');
  }
  const blob = sshEncode('ssh-ed25519', pub);
  const publicKey = sshPublicKeyOfBlob(blob) as SshKeyPair['publicKey'];
  const privateKey = createPrivateKey({
    key: {
      kty: 'OKP',
      crv: 'Ed25519',
      x: pub.toString('base64url'),
      d: priv.subarray(0, 32).toString('base64url'),
    },
    format: 'jwk',
  });
  return { publicKey, privateKey, comment };
}

function ed25519PublicKey(raw: Buffer): KeyObject {
  return createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') },
    format: 'jwk',
  });
}
