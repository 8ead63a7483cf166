// The real sops and age binaries for the secrets tests, built from their Go modules by
// test/tools/build-sops.sh (cached in ~/.cache/gitfleet/sops-<version>/bin; scripts/run-tests.js
// builds them first and passes GITFLEET_SOPS_BIN). Files are encrypted with them, to age
// identities the tests make on the spot: no private key is committed.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateX25519Identity, identityToRecipient } from 'age-encryption';
import { tempDir } from './temp-dirs.js';

const root = new URL('../../..', import.meta.url).pathname;

/** Returns the folder holding sops, age and age-keygen, or why there is none (the tests then skip). */
export function sopsBin(): { dir: string } | { skip: string } {
  const given = process.env['GITFLEET_SOPS_BIN'];
  if (given && existsSync(join(given, 'sops'))) return { dir: given };
  const built = spawnSync('bash', [join(root, 'test/tools/build-sops.sh')], { encoding: 'utf8' });
  const dir = built.stdout.trim().split('\n').pop() ?? '';
  if (built.status === 0 && existsSync(join(dir, 'sops'))) return { dir };
  return {
    skip: `sops could not be built (test/tools/build-sops.sh: ${built.stderr.trim().split('\n').pop()})`,
  };
}

/** A fresh age key pair. */
export async function anAgeKey(): Promise<{ identity: string; recipient: string }> {
  const identity = await generateX25519Identity();
  return { identity, recipient: await identityToRecipient(identity) };
}

/** Options of `sops encrypt` beyond the recipients: e.g. ['--encrypted-regex', '^(data|stringData)$']. */
export interface SopsEncryptOptions {
  recipients: string[];
  args?: string[];
  /** The file's name (its extension picks the format); default secret.yaml. */
  name?: string;
  /** Made under a .sops.yaml creation rule with `mac_only_encrypted: true` (SOPS has no flag for it). */
  macOnly?: boolean;
}

/** Returns the text `sops encrypt` makes of a plaintext document. */
export function sopsEncrypt(bin: string, plaintext: string, opts: SopsEncryptOptions): string {
  const dir = tempDir('sops');
  const file = join(dir, opts.name ?? 'secret.yaml');
  writeFileSync(file, plaintext);
  if (opts.macOnly) writeFileSync(join(dir, '.sops.yaml'), 'creation_rules:\n  - mac_only_encrypted: true\n');
  return execFileSync(
    join(bin, 'sops'),
    ['encrypt', '--age', opts.recipients.join(','), ...(opts.args ?? []), file],
    { encoding: 'utf8', cwd: dir, env: { PATH: process.env['PATH'] ?? '', HOME: dir } },
  );
}

/** Returns what `sops decrypt` makes of an encrypted document with an identity (to compare with ours). */
export function sopsDecrypt(bin: string, encrypted: string, identity: string, name = 'secret.yaml'): string {
  const dir = tempDir('sops');
  const file = join(dir, name);
  writeFileSync(file, encrypted);
  return execFileSync(join(bin, 'sops'), ['decrypt', file], {
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '', HOME: dir, SOPS_AGE_KEY: identity },
  });
}
