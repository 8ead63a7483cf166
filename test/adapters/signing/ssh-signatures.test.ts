// SSH commit signatures both ways against real git: commits `git commit -S` signs with
// gpg.format=ssh verify with ours, ours verify with `git verify-commit`, and every bad input
// (a copied signature, another namespace, an expired, early, revoked or unknown key, a huge or
// malformed block) is refused with its reason.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { emptyTreeOid } from '../../../src/adapters/git/git-object.js';
import { makeCommit } from '../../../src/adapters/git/make-commit.js';
import { signCommit } from '../../../src/adapters/signing/commit-signer.js';
import { addSignature, splitSignedCommit } from '../../../src/adapters/signing/commit-payload.js';
import { generateSshKey } from '../../../src/adapters/signing/generate-ssh-key.js';
import { loadSigningKey } from '../../../src/adapters/signing/load-signing-key.js';
import { loadTrustedKeys } from '../../../src/adapters/signing/load-trusted-keys.js';
import { SigningError } from '../../../src/adapters/signing/signing-error.js';
import { describeVerdict, type SignatureVerdict } from '../../../src/core/model/signature-verdict.js';
import { git, gitFails, makeRepo, removeRepos, type TestRepo } from '../git/git-repo-fixture.js';
import {
  allowedLine,
  missingTool,
  commitSignedByGit,
  makeSshKey,
  writeAllowedSigners,
  type TestSshKey,
} from '../../support/signing-keys.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';

after(() => {
  removeRepos();
  removeTempDirs();
});

const now = new Date('2026-06-01T00:00:00Z');
const skip = missingTool('ssh-keygen');
let alice: TestSshKey;
let mallory: TestSshKey;
before(() => {
  if (skip) return;
  alice = makeSshKey({ comment: 'alice' });
  mallory = makeSshKey({ comment: 'mallory' });
});

/** Commits with `git commit -S` (gpg.format=ssh) in a new repository; returns the repository and the commit id. */
function gitSignedCommit(key: TestSshKey, message = 'signed by git'): { repo: TestRepo; oid: string } {
  const repo = makeRepo({ bare: false });
  const oid = commitSignedByGit({
    dir: repo.dir,
    config: ['gpg.format=ssh', `user.signingkey=${key.publicFile}`],
    message,
  });
  return { repo, oid };
}

function commitContent(repo: TestRepo, oid: string): Buffer {
  return execFileSync('git', ['--git-dir', repo.gitdir, 'cat-file', 'commit', oid]);
}

async function verifyWith(
  lines: string[],
  oid: string,
  content: Uint8Array,
  at = now,
): Promise<SignatureVerdict> {
  const { verifier } = await loadTrustedKeys(writeAllowedSigners(lines));
  return verifier.verify({ oid, content }, at);
}

function problemOf(verdict: SignatureVerdict): string {
  return verdict.ok ? 'Good' : verdict.problem;
}

test('A commit git signed with an SSH key verifies with ours, naming the principal.', { skip }, async () => {
  const { repo, oid } = gitSignedCommit(alice);
  const verdict = await verifyWith([allowedLine('alice@example.com', alice)], oid, commitContent(repo, oid));
  assert.equal(problemOf(verdict), 'Good', describeVerdict(verdict));
  assert.ok(verdict.ok && verdict.signer.names.includes('alice@example.com'));
  assert.match(describeVerdict(verdict), /good ssh signature by alice@example\.com \(SHA256:/);
});

test(
  'A commit we sign is byte for byte a commit git verifies with the allowed signers file.',
  { skip },
  async () => {
    const repo = makeRepo({ bare: true });
    const signer = await loadSigningKey(alice.privateFile);
    const unsigned = makeCommit({
      tree: emptyTreeOid,
      parents: [],
      author: { name: 'gitfleet', email: 'hub@gitfleet.invalid', time: 1780000000, tzOffsetMinutes: 0 },
      message: 'render 1a2b3c4: x\n',
    });
    git(repo, ['hash-object', '-t', 'tree', '-w', '--stdin'], '');
    const signed = await signCommit(unsigned, signer);
    const written = git(repo, ['hash-object', '-t', 'commit', '-w', '--stdin'], signed.content);
    assert.equal(written, signed.oid);
    const allowed = writeAllowedSigners([allowedLine('hub@gitfleet.invalid', alice)]);
    const out = execFileSync(
      'git',
      [
        '--git-dir',
        repo.gitdir,
        '-c',
        `gpg.ssh.allowedSignersFile=${allowed}`,
        'verify-commit',
        '-v',
        signed.oid,
      ],
      { stdio: 'pipe' },
    );
    assert.match(out.toString() + '', /render 1a2b3c4/);
    const refused = gitFails(repo, [
      '-c',
      `gpg.ssh.allowedSignersFile=${writeAllowedSigners([allowedLine('x@example.com', mallory)])}`,
      'verify-commit',
      signed.oid,
    ]);
    assert.notEqual(refused.status, 0);
    assert.equal(
      splitSignedCommit(signed.content).payload.toString(),
      Buffer.from(unsigned.content).toString(),
    );
  },
);

test('A signature copied onto another commit is refused by ours and by git.', { skip }, async () => {
  const { repo, oid } = gitSignedCommit(alice, 'the original');
  const { signature } = splitSignedCommit(commitContent(repo, oid));
  const other = makeCommit({
    tree: emptyTreeOid,
    parents: [oid],
    author: { name: 'A', email: 'a@example.com', time: 1780000000, tzOffsetMinutes: 0 },
    message: 'a forgery\n',
  });
  const forged = addSignature(other.content, signature ?? '');
  const verdict = await verifyWith([allowedLine('alice@example.com', alice)], forged.oid, forged.content);
  assert.equal(problemOf(verdict), 'BadSignature');
  assert.match(describeVerdict(verdict), /copied from another commit/);
  git(repo, ['hash-object', '-t', 'commit', '-w', '--stdin'], forged.content);
  const allowed = writeAllowedSigners([allowedLine('alice@example.com', alice)]);
  assert.notEqual(
    gitFails(repo, ['-c', `gpg.ssh.allowedSignersFile=${allowed}`, 'verify-commit', forged.oid]).status,
    0,
  );
});

test(
  'Keys are judged by the allowed signers lines: unknown, revoked, expired, early, namespaces.',
  { skip },
  async () => {
    const { repo, oid } = gitSignedCommit(alice);
    const content = commitContent(repo, oid);
    const cases: { name: string; lines: string[]; want: string }[] = [
      {
        name: 'a key not listed (revoked: removed from the file)',
        lines: [allowedLine('mallory@example.com', mallory)],
        want: 'UnknownKey',
      },
      {
        name: 'a key past valid-before',
        lines: [allowedLine('alice@example.com', alice, 'valid-before="20260101"')],
        want: 'KeyExpired',
      },
      {
        name: 'a key before valid-after',
        lines: [allowedLine('alice@example.com', alice, 'valid-after="20270101000000Z"')],
        want: 'KeyNotYetValid',
      },
      {
        name: 'a key within its validity',
        lines: [allowedLine('alice@example.com', alice, 'valid-after="20250101",valid-before="20270101"')],
        want: 'Good',
      },
      {
        name: 'a key allowed for the file namespace only',
        lines: [allowedLine('alice@example.com', alice, 'namespaces="file"')],
        want: 'WrongNamespace',
      },
      {
        name: 'a key allowed for git among others',
        lines: [allowedLine('alice@example.com', alice, 'namespaces="file,git"')],
        want: 'Good',
      },
      {
        name: 'a rotation: the old key expired, the new one valid',
        lines: [allowedLine('hub', mallory, 'valid-before="20260101"'), allowedLine('hub', alice)],
        want: 'Good',
      },
    ];
    for (const c of cases) assert.equal(problemOf(await verifyWith(c.lines, oid, content)), c.want, c.name);
  },
);

test('A signature made for another namespace is refused even with the key allowed.', { skip }, async () => {
  const dir = tempDir('ns');
  const payloadFile = join(dir, 'payload');
  const unsigned = makeCommit({
    tree: emptyTreeOid,
    parents: [],
    author: { name: 'A', email: 'a@example.com', time: 1780000000, tzOffsetMinutes: 0 },
    message: 'x\n',
  });
  writeFileSync(payloadFile, unsigned.content);
  execFileSync('ssh-keygen', ['-q', '-Y', 'sign', '-n', 'file', '-f', alice.privateFile, payloadFile]);
  const commit = addSignature(unsigned.content, readFileSync(`${payloadFile}.sig`, 'utf8'));
  const verdict = await verifyWith([allowedLine('alice@example.com', alice)], commit.oid, commit.content);
  assert.equal(problemOf(verdict), 'WrongNamespace');
  assert.match(describeVerdict(verdict), /namespace "file", not "git"/);
});

test(
  'Unsigned, huge, repeated and malformed signature blocks are refused, saying which.',
  { skip },
  async () => {
    const unsigned = makeCommit({
      tree: emptyTreeOid,
      parents: [],
      author: { name: 'A', email: 'a@example.com', time: 1780000000, tzOffsetMinutes: 0 },
      message: 'x\n',
    });
    const signer = await loadSigningKey(alice.privateFile);
    const good = await signer.sign(unsigned.content);
    const huge = `-----BEGIN SSH SIGNATURE-----\n${'QUFB\n'.repeat(100_000)}-----END SSH SIGNATURE-----\n`;
    const twice = addSignature(addSignature(unsigned.content, good).content, good);
    const cases: { name: string; content: Uint8Array; want: string; says: RegExp }[] = [
      { name: 'unsigned', content: unsigned.content, want: 'Unsigned', says: /unsigned/ },
      {
        name: 'huge',
        content: addSignature(unsigned.content, huge).content,
        want: 'Malformed',
        says: /over the 16384-byte limit/,
      },
      { name: 'two headers', content: twice.content, want: 'Malformed', says: /2 signature headers/ },
      {
        name: 'not base64',
        content: addSignature(
          unsigned.content,
          '-----BEGIN SSH SIGNATURE-----\n!!!\n-----END SSH SIGNATURE-----\n',
        ).content,
        want: 'Malformed',
        says: /not base64/,
      },
      {
        name: 'truncated',
        content: addSignature(unsigned.content, good.replace(/\n[^\n]*\n-----END/, '\n-----END')).content,
        want: 'Malformed',
        says: /truncated|preamble|past the end/,
      },
      {
        name: 'x509',
        content: addSignature(
          unsigned.content,
          '-----BEGIN SIGNED MESSAGE-----\nAAAA\n-----END SIGNED MESSAGE-----\n',
        ).content,
        want: 'UnsupportedFormat',
        says: /neither SSH nor OpenPGP/,
      },
      {
        name: 'an OpenPGP signature with no OpenPGP key trusted',
        content: addSignature(
          unsigned.content,
          '-----BEGIN PGP SIGNATURE-----\n\nAAAA\n-----END PGP SIGNATURE-----\n',
        ).content,
        want: 'UnknownKey',
        says: /no openpgp key is trusted/,
      },
    ];
    for (const c of cases) {
      const verdict = await verifyWith([allowedLine('alice@example.com', alice)], 'c0ffee', c.content);
      assert.equal(problemOf(verdict), c.want, c.name);
      assert.match(describeVerdict(verdict), c.says, c.name);
    }
  },
);

test(
  'Signing keys and allowed signers files that cannot be used are refused by file, never echoing the key.',
  { skip },
  async () => {
    const encrypted = makeSshKey({ passphrase: 'secret phrase' });
    const rsa = makeSshKey({ type: 'rsa' });
    const dir = tempDir('badkeys');
    const truncated = join(dir, 'truncated');
    const lines = readFileSync(alice.privateFile, 'utf8').split('\n');
    writeFileSync(truncated, [...lines.slice(0, 3), ...lines.slice(-2)].join('\n'));
    const cases: { file: string; code: string; says: RegExp }[] = [
      { file: encrypted.privateFile, code: 'EncryptedKey', says: /is encrypted \(aes256-ctr\)/ },
      {
        file: rsa.privateFile,
        code: 'UnsupportedKey',
        says: /ssh-rsa key; gitfleet signs with ed25519 keys only/,
      },
      { file: alice.publicFile, code: 'InvalidKey', says: /neither an OpenSSH private key/ },
      { file: truncated, code: 'InvalidKey', says: /malformed OpenSSH private key/ },
      { file: join(dir, 'missing'), code: 'InvalidKey', says: /cannot read the key file: ENOENT/ },
    ];
    for (const c of cases) {
      await assert.rejects(loadSigningKey(c.file), (error: unknown) => {
        assert.ok(error instanceof SigningError);
        assert.equal(error.code, c.code, c.file);
        assert.ok(error.message.startsWith(`${c.file}: `), error.message);
        assert.match(error.message, c.says);
        assert.doesNotMatch(error.message, /BEGIN OPENSSH|AAAA/);
        return true;
      });
    }
    const badLines: { lines: string[]; says: RegExp }[] = [
      {
        lines: [allowedLine('ca@example.com', alice, 'cert-authority')],
        says: /:1: cert-authority: certificates are not supported/,
      },
      {
        lines: ['# a comment', '', allowedLine('a@example.com', alice, 'valid-before="2026"')],
        says: /:3: valid-before="2026": not YYYYMMDD/,
      },
      { lines: ['alice@example.com'], says: /:1: expected <principals>/ },
      { lines: ['alice@example.com ssh-ed25519 !!!'], says: /:1: ssh-ed25519: the key is not base64/ },
      { lines: [allowedLine('a@example.com', alice, 'colour="blue"')], says: /:1: unknown option colour/ },
      { lines: ['# nothing but comments'], says: /no key/ },
    ];
    for (const c of badLines) {
      await assert.rejects(loadTrustedKeys(writeAllowedSigners(c.lines)), (error: unknown) => {
        assert.ok(error instanceof SigningError, String(error));
        assert.match(error.message, c.says);
        return true;
      });
    }
  },
);

test(
  'A key pair we generate is one ssh-keygen reads, and signatures made with it verify with ssh-keygen.',
  { skip },
  async () => {
    const dir = tempDir('gen');
    const pair = generateSshKey('agent-member1@gitfleet.invalid');
    const file = join(dir, 'id');
    writeFileSync(file, pair.privateKey, { mode: 0o600 });
    // OpenSSH 9.x prints the comment after the key (older versions do not): compare type and key.
    const derived = execFileSync('ssh-keygen', ['-y', '-f', file]).toString().trim();
    assert.equal(derived.split(' ').slice(0, 2).join(' '), pair.publicLine.split(' ').slice(0, 2).join(' '));
    const signer = await loadSigningKey(file);
    const message = Buffer.from('status member1: applied 1a2b3c4\n');
    writeFileSync(join(dir, 'msg.sig'), await signer.sign(message));
    const allowed = writeAllowedSigners([`member1 ${pair.publicLine}`]);
    execFileSync(
      'ssh-keygen',
      ['-Y', 'verify', '-f', allowed, '-I', 'member1', '-n', 'git', '-s', join(dir, 'msg.sig')],
      { input: message, stdio: ['pipe', 'ignore', 'pipe'] },
    );
  },
);
