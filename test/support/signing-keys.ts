// Real keys for the signing tests, made by the tools git signs with: ssh-keygen for SSH keys,
// gpg (in a private GNUPGHOME) for OpenPGP keys, and the allowed_signers lines git reads.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-dirs.js';
import type { CommitSigner } from '../../src/adapters/signing/commit-signer.js';
import { generateSshKey } from '../../src/adapters/signing/generate-ssh-key.js';
import { signerOfText } from '../../src/adapters/signing/load-signing-key.js';

/** An ed25519 key pair ssh-keygen made: the private key file, the public key line. */
export interface TestSshKey {
  privateFile: string;
  publicFile: string;
  /** `ssh-ed25519 AAAA… comment` */
  publicLine: string;
}

/** Returns a new unencrypted ed25519 key made by ssh-keygen (or of `type`, or with a passphrase). */
export function makeSshKey(
  opts: { type?: 'ed25519' | 'rsa' | 'ecdsa'; passphrase?: string; comment?: string } = {},
): TestSshKey {
  const dir = tempDir('sshkey');
  const privateFile = join(dir, 'id');
  execFileSync('ssh-keygen', [
    '-q',
    '-t',
    opts.type ?? 'ed25519',
    '-N',
    opts.passphrase ?? '',
    '-C',
    opts.comment ?? 'test',
    '-f',
    privateFile,
  ]);
  const publicFile = `${privateFile}.pub`;
  return { privateFile, publicFile, publicLine: readFileSync(publicFile, 'utf8').trim() };
}

/** Returns the path of an allowed_signers file holding the given lines. */
export function writeAllowedSigners(lines: readonly string[]): string {
  const file = join(tempDir('allowed'), 'allowed_signers');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** An allowed_signers line for a key: `<principal> [options] <key line>`. */
export function allowedLine(principal: string, key: TestSshKey, options = ''): string {
  const [type, base64] = key.publicLine.split(' ');
  return `${principal}${options ? ` ${options}` : ''} ${type} ${base64}`;
}

/** A private gpg home with one ed25519 signing key. */
export interface TestGpgKey {
  home: string;
  fingerprint: string;
  /** The armored public key, as `gpg --armor --export` writes it. */
  publicArmored: string;
  /** The armored unprotected secret key, as `gpg --armor --export-secret-keys` writes it. */
  secretArmored: string;
  env: NodeJS.ProcessEnv;
}

/** Returns a new gpg home with an unprotected ed25519 key for `uid`; call `killGpgAgent` when done. */
export function makeGpgKey(uid = 'Test Signer <signer@example.com>'): TestGpgKey {
  const home = tempDir('gnupg');
  const env = { ...process.env, GNUPGHOME: home };
  const gpg = (args: string[]): string =>
    execFileSync('gpg', ['--batch', '--quiet', ...args], { env, stdio: 'pipe' }).toString();
  gpg(['--passphrase', '', '--quick-gen-key', uid, 'ed25519', 'sign', '0']);
  const fingerprint = /^fpr:+([0-9A-F]{40}):/m.exec(gpg(['--with-colons', '--list-secret-keys']))?.[1] ?? '';
  return {
    home,
    fingerprint,
    publicArmored: gpg(['--armor', '--export', fingerprint]),
    secretArmored: gpg([
      '--pinentry-mode',
      'loopback',
      '--passphrase',
      '',
      '--armor',
      '--export-secret-keys',
      fingerprint,
    ]),
    env,
  };
}

/** Stops the gpg-agent a test's gpg home started. */
export function killGpgAgent(key: TestGpgKey): void {
  try {
    execFileSync('gpgconf', ['--kill', 'gpg-agent'], { env: key.env, stdio: 'ignore' });
  } catch {
    // no agent running
  }
}

/** Makes an empty commit with `git commit -S` in the work tree `dir`, with the given config (`key=value`) and environment; returns its id. */
export function commitSignedByGit(input: {
  dir: string;
  config: string[];
  message: string;
  env?: NodeJS.ProcessEnv;
}): string {
  const env = {
    ...(input.env ?? process.env),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'A',
    GIT_AUTHOR_EMAIL: 'a@example.com',
    GIT_COMMITTER_NAME: 'A',
    GIT_COMMITTER_EMAIL: 'a@example.com',
  };
  const config = input.config.flatMap((c) => ['-c', c]);
  execFileSync('git', [...config, 'commit', '-q', '-S', '--allow-empty', '-m', input.message], {
    cwd: input.dir,
    env,
  });
  return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: input.dir, env }).toString().trim();
}

/** Returns why a test needing the command cannot run (it is not installed), or false. */
export function missingTool(command: 'ssh-keygen' | 'gpg'): string | false {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return false;
  } catch {
    return `${command} is not installed (Debian: ${command === 'gpg' ? 'gnupg' : 'openssh-client'}; .ci/run installs it)`;
  }
}

/** A key made in-process (no ssh-keygen): its signer, and its allowed_signers line for a principal. */
export interface MadeKey {
  signer: CommitSigner;
  publicLine: string;
  allowed: (principal: string) => string;
}

/** Returns a new ed25519 key made with node:crypto, ready to sign and to list. */
export async function madeKey(comment = 'test'): Promise<MadeKey> {
  const pair = generateSshKey(comment);
  const signer = await signerOfText(pair.privateKey, comment);
  return { signer, publicLine: pair.publicLine, allowed: (principal) => `${principal} ${pair.publicLine}` };
}
