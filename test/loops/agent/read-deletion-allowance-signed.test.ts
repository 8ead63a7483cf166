// With trusted keys, the deletion allowance on a signed head also needs the bindings commit it
// rests on to be signed by a trusted key: an allowance traced through a bindings commit pushed by
// hand (the hub's name, no signature) is refused, saying which commit and why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyTreeOid } from '../../../src/adapters/git/git-object.js';
import { makeCommit } from '../../../src/adapters/git/make-commit.js';
import { writeObjects } from '../../../src/adapters/git/write-objects.js';
import { signCommit, type CommitSigner } from '../../../src/adapters/signing/commit-signer.js';
import { trustedKeysOf } from '../../../src/adapters/signing/load-trusted-keys.js';
import { defaultHubIdentity } from '../../../src/core/apply-plan/hub-identity.js';
import { readDeletionAllowance } from '../../../src/loops/agent/read-deletion-allowance.js';
import { describeUnsigned } from '../../../src/loops/agent/verify-branch-head.js';
import { fakeClock } from '../runtime/fake-clock.js';
import { madeKey } from '../../support/signing-keys.js';

test('A signed head allows deletions only when the bindings commit recording its source is signed too.', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'gitfleet-allowance-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  execFileSync('git', ['init', '-q', '--bare', dir]);
  execFileSync('git', ['--git-dir', dir, 'hash-object', '-t', 'tree', '-w', '--stdin'], { input: '' });
  const hub = await madeKey('hub');
  const { verifier } = await trustedKeysOf([
    { text: hub.allowed('hub@gitfleet.invalid'), source: 'trusted' },
  ]);
  const commit = async (message: string, ref: string, signer?: CommitSigner): Promise<string> => {
    const author = { ...defaultHubIdentity, time: 1_780_000_000, tzOffsetMinutes: 0 };
    const object = await signCommit(makeCommit({ tree: emptyTreeOid, parents: [], author, message }), signer);
    await writeObjects({ gitdir: dir, objects: [object], fsync: false });
    execFileSync('git', ['--git-dir', dir, 'update-ref', ref, object.oid]);
    return object.oid;
  };
  const source = await commit('drop shop\n\nGitfleet-Allow-Deletions: member1\n', 'refs/heads/main');
  const headMessage = `render aaaaaaa: drop shop\n\nGitfleet-Source-Commit: ${source}\nGitfleet-Allow-Deletions: member1\n`;
  const head = await commit(headMessage, 'refs/heads/gitfleet/clusters/member1', hub.signer);
  const read = () =>
    readDeletionAllowance({
      gitdir: dir,
      branchPrefix: 'gitfleet/',
      cluster: 'member1',
      commit: head,
      message: headMessage,
      hub: defaultHubIdentity,
      trusted: new Set(),
      verify: describeUnsigned(verifier, dir, fakeClock()),
    });
  const bindingsMessage = `render aaaaaaa: drop shop\n\nGitfleet-Source-Commit: ${source}\n`;
  const forged = await commit(bindingsMessage, 'refs/heads/gitfleet/bindings');
  const refused = await read();
  assert.equal(refused.type, 'untrusted');
  assert.equal(
    refused.type === 'untrusted' ? refused.reason : '',
    `the bindings commit it rests on is not signed by a trusted key: commit ${forged.slice(0, 12)}: unsigned`,
  );
  await commit(bindingsMessage, 'refs/heads/gitfleet/bindings', hub.signer);
  assert.deepEqual(await read(), { type: 'trusted' });
});
