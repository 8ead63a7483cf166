// OpenPGP commit signatures both ways against real git and gpg: commits `git commit -S` signs
// with gpg verify with ours, ours (signed with the key gpg exported) verify with
// `git verify-commit`, and expired, revoked, unknown and copied signatures are refused.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as openpgp from 'openpgp';
import { emptyTreeOid } from '../../../src/adapters/git/git-object.js';
import { makeCommit } from '../../../src/adapters/git/make-commit.js';
import { addSignature, splitSignedCommit } from '../../../src/adapters/signing/commit-payload.js';
import { signCommit } from '../../../src/adapters/signing/commit-signer.js';
import { loadSigningKey } from '../../../src/adapters/signing/load-signing-key.js';
import { loadTrustedKeys, trustedKeysOf } from '../../../src/adapters/signing/load-trusted-keys.js';
import { SigningError } from '../../../src/adapters/signing/signing-error.js';
import { describeVerdict, type SignatureVerdict } from '../../../src/core/model/signature-verdict.js';
import { git, gitFails, makeRepo, removeRepos } from '../git/git-repo-fixture.js';
import {
  commitSignedByGit,
  killGpgAgent,
  makeGpgKey,
  missingTool,
  type TestGpgKey,
} from '../../support/signing-keys.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';

const skip = missingTool('gpg');
const keys: TestGpgKey[] = [];
after(() => {
  keys.forEach(killGpgAgent);
  removeRepos();
  removeTempDirs();
});

const now = new Date();
const author = {
  name: 'A',
  email: 'a@example.com',
  time: Math.floor(now.getTime() / 1000),
  tzOffsetMinutes: 0,
};

function gpgKey(uid?: string): TestGpgKey {
  const key = makeGpgKey(uid);
  keys.push(key);
  return key;
}

function problemOf(verdict: SignatureVerdict): string {
  return verdict.ok ? 'Good' : verdict.problem;
}

function fileOf(text: string): string {
  const file = join(tempDir('pgp'), 'key.asc');
  writeFileSync(file, text);
  return file;
}

test(
  'A commit git signed with gpg verifies with ours against the exported public key.',
  { skip },
  async () => {
    const key = gpgKey();
    const repo = makeRepo({ bare: false });
    const oid = commitSignedByGit({
      dir: repo.dir,
      config: [`user.signingkey=${key.fingerprint}`],
      message: 'signed by gpg',
      env: key.env,
    });
    const content = execFileSync('git', ['--git-dir', repo.gitdir, 'cat-file', 'commit', oid]);
    const { verifier, openpgpKeys } = await loadTrustedKeys(fileOf(key.publicArmored));
    assert.equal(openpgpKeys, 1);
    const verdict = await verifier.verify({ oid, content }, new Date());
    assert.equal(problemOf(verdict), 'Good', describeVerdict(verdict));
    assert.match(
      describeVerdict(verdict),
      new RegExp(`good openpgp signature by Test Signer <signer@example.com> \\(${key.fingerprint}\\)`),
    );
    const other = gpgKey('Other <other@example.com>');
    const unknown = await (
      await loadTrustedKeys(fileOf(other.publicArmored))
    ).verifier.verify({ oid, content }, new Date());
    assert.equal(problemOf(unknown), 'UnknownKey');
  },
);

test('A commit we sign with the key gpg exported verifies with git verify-commit.', { skip }, async () => {
  const key = gpgKey();
  const signer = await loadSigningKey(fileOf(key.secretArmored));
  assert.equal(signer.keyId, key.fingerprint);
  const repo = makeRepo({ bare: true });
  git(repo, ['hash-object', '-t', 'tree', '-w', '--stdin'], '');
  const signed = await signCommit(
    makeCommit({ tree: emptyTreeOid, parents: [], author, message: 'bindings 1a2b3c4\n' }),
    signer,
  );
  assert.equal(git(repo, ['hash-object', '-t', 'commit', '-w', '--stdin'], signed.content), signed.oid);
  const out = execFileSync('git', ['--git-dir', repo.gitdir, 'verify-commit', '--raw', signed.oid], {
    env: key.env,
    stdio: 'pipe',
  });
  assert.equal(out.length, 0);
  const forged = addSignature(
    makeCommit({ tree: emptyTreeOid, parents: [signed.oid], author, message: 'forged\n' }).content,
    splitSignedCommit(signed.content).signature ?? '',
  );
  git(repo, ['hash-object', '-t', 'commit', '-w', '--stdin'], forged.content);
  assert.notEqual(gitFails(repo, ['verify-commit', forged.oid]).status, 0);
  const ours = await (await loadTrustedKeys(fileOf(key.publicArmored))).verifier.verify(forged, now);
  assert.equal(problemOf(ours), 'BadSignature');
});

test(
  'Signatures by an expired, a revoked or a not-yet-valid OpenPGP key are refused.',
  { skip },
  async () => {
    const past = new Date(now.getTime() - 10 * 86400_000);
    const expiring = await openpgp.generateKey({
      userIDs: [{ name: 'Old', email: 'old@example.com' }],
      type: 'curve25519',
      keyExpirationTime: 86400,
      date: past,
      format: 'object',
    });
    const revoking = await openpgp.generateKey({
      userIDs: [{ name: 'Gone', email: 'gone@example.com' }],
      type: 'curve25519',
      format: 'object',
    });
    const revoked = await openpgp.revokeKey({ key: revoking.privateKey, format: 'object' });
    const sign = async (
      key: openpgp.PrivateKey,
      date: Date,
    ): Promise<{ oid: string; content: Uint8Array }> => {
      const unsigned = makeCommit({ tree: emptyTreeOid, parents: [], author, message: 'x\n' });
      const message = await openpgp.createMessage({ binary: unsigned.content });
      const signature = await openpgp.sign({ message, signingKeys: key, detached: true, date });
      return addSignature(unsigned.content, signature);
    };
    const { verifier } = await trustedKeysOf([
      { text: expiring.publicKey.armor(), source: 'expiring' },
      { text: revoked.publicKey.armor(), source: 'revoked' },
    ]);
    const whileValid = await sign(expiring.privateKey, new Date(past.getTime() + 3600_000));
    assert.equal(problemOf(await verifier.verify(whileValid, new Date(past.getTime() + 7200_000))), 'Good');
    assert.equal(problemOf(await verifier.verify(whileValid, new Date())), 'KeyExpired');
    assert.equal(
      problemOf(await verifier.verify(whileValid, new Date(past.getTime() - 3600_000))),
      'KeyNotYetValid',
    );
    const byRevoked = await sign(revoking.privateKey, new Date());
    const verdict = await verifier.verify(byRevoked, new Date());
    assert.equal(problemOf(verdict), 'KeyRevoked', describeVerdict(verdict));
  },
);

test(
  'Private keys with a passphrase, and trusted keys files holding a private key, are refused by name.',
  { skip },
  async () => {
    const locked = await openpgp.generateKey({
      userIDs: [{ name: 'L' }],
      passphrase: 'phrase',
      format: 'armored',
    });
    const file = fileOf(locked.privateKey);
    await assert.rejects(
      loadSigningKey(file),
      (e: unknown) =>
        e instanceof SigningError && e.code === 'EncryptedKey' && e.message.startsWith(`${file}: `),
    );
    const mixed = fileOf(locked.privateKey);
    await assert.rejects(
      loadTrustedKeys(mixed),
      (e: unknown) =>
        e instanceof SigningError && e.code === 'InvalidKey' && /holds a private key/.test(e.message),
    );
    const broken = fileOf(
      '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nnot a key\n-----END PGP PUBLIC KEY BLOCK-----\n',
    );
    await assert.rejects(
      loadTrustedKeys(broken),
      (e: unknown) => e instanceof SigningError && /OpenPGP key block 1/.test(e.message),
    );
  },
);
