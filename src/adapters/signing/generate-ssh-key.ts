// A new ed25519 key pair in OpenSSH's formats, made with node:crypto: the private key as
// `ssh-keygen -t ed25519 -N ''` writes it (openssh-key-v1, unencrypted) and its public line
// (`ssh-ed25519 AAAA… comment`). What `gitfleet cluster join` gives an agent, and what tests
// sign with when ssh-keygen is not at hand.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { sshEncode } from './ssh-wire.js';

/** A key pair as OpenSSH stores it. */
export interface OpensshKeyPair {
  /** The private key file's text. */
  privateKey: string;
  /** `ssh-ed25519 <base64> <comment>` */
  publicLine: string;
}

/** Returns a new ed25519 key pair in OpenSSH's formats, with the comment on both halves. */
export function generateSshKey(comment: string): OpensshKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const pub = Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url');
  const seed = Buffer.from(privateKey.export({ format: 'jwk' }).d ?? '', 'base64url');
  const blob = sshEncode('ssh-ed25519', pub);
  const check = randomBytes(4).readUInt32BE();
  const secret = sshEncode(check, check, 'ssh-ed25519', pub, Buffer.concat([seed, pub]), comment);
  const padding = Buffer.from(Array.from({ length: (8 - (secret.length % 8)) % 8 }, (_, i) => i + 1));
  const body = Buffer.concat([
    Buffer.from('openssh-key-v1\0', 'latin1'),
    sshEncode('none', 'none', '', 1, blob, Buffer.concat([secret, padding])),
  ]);
  const lines = body.toString('base64').match(/.{1,70}/g) ?? [];
  return {
    privateKey: `-----BEGIN OPENSSH PRIVATE KEY-----\n${lines.join('\n')}\n-----END OPENSSH PRIVATE KEY-----\n`,
    publicLine: `ssh-ed25519 ${blob.toString('base64')} ${comment}`,
  };
}
