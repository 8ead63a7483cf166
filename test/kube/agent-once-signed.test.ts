// `gitfleet agent --once --trusted-keys` on a real API server: a head the hub's key signed is
// applied (exit 0); an unsigned head pushed on top, which would delete an object, is refused
// (exit 1, naming the commit and why), the object stays in the cluster, and the status branch
// says Verified=False; `--signing-key` signs the agent's status commit, which git verifies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../cli/run-cli.js';
import { parseStatusBranch } from '../../src/core/status/status-branch.js';
import { readStatusFiles } from '../../src/loops/agent/write-status-branch.js';
import { aConfigMap, commitClusterBranch, kubectl, makeBareRepo, testAgent } from './agent-fixture.js';
import { inNamespace, testKubeConfig, uniqueName } from './test-clusters.js';
import { madeKey } from '../support/signing-keys.js';
import { generateSshKey } from '../../src/adapters/signing/generate-ssh-key.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';
import { after } from 'node:test';

after(removeTempDirs);

test('agent --once --trusted-keys applies a signed head and refuses an unsigned one, deleting nothing; its status is signed', async (t) => {
  const repo = makeBareRepo();
  const cluster = uniqueName('t');
  const cleanup = testAgent({ context: 'member2', name: cluster });
  t.after(async () => {
    await cleanup.dispose();
    repo.dispose();
  });
  const hub = await madeKey('hub');
  const dir = tempDir('agent-keys');
  const trusted = join(dir, 'trusted');
  writeFileSync(trusted, `${hub.allowed('hub@gitfleet.invalid')}\n`);
  const agentKey = generateSshKey(`agent-${cluster}@gitfleet.invalid`);
  writeFileSync(join(dir, 'agent'), agentKey.privateKey, { mode: 0o600 });
  const args = [
    'agent',
    '--repo',
    repo.dir,
    '--cluster',
    cluster,
    '--kubeconfig',
    process.env['GITFLEET_TEST_KUBECONFIG']!,
    '--context',
    'member2',
    '--once',
    '--trusted-keys',
    trusted,
    '--signing-key',
    join(dir, 'agent'),
  ];
  await inNamespace(testKubeConfig('member2'), 'agent-signed', async (ns) => {
    const both = [aConfigMap(ns, 'kept', { a: '1' }), aConfigMap(ns, 'other', { a: '1' })];
    await commitClusterBranch(repo.dir, cluster, both, 'render: signed\n', undefined, undefined, hub.signer);
    const ok = await runCli(args);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stderr, /applying only commits signed by a trusted key: 1 SSH, 0 OpenPGP/);

    const unsigned = await commitClusterBranch(
      repo.dir,
      cluster,
      [aConfigMap(ns, 'kept', { a: '2' })],
      'render: by hand\n',
    );
    const refused = await runCli(args);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      new RegExp(
        `agent ${cluster}: refused ${unsigned.slice(0, 7)}: commit ${unsigned.slice(0, 12)}: unsigned; applied nothing, deleted nothing`,
      ),
    );
    const data = (name: string) =>
      kubectl(['get', 'configmap', name, '-n', ns, '-o', 'jsonpath={.data.a}'], { context: 'member2' });
    assert.equal(data('kept'), '1', 'not changed');
    assert.equal(data('other'), '1', 'not deleted');
    const statusRef = `refs/heads/gitfleet/status/${cluster}`;
    const report = parseStatusBranch(await readStatusFiles(repo.dir, statusRef));
    assert.deepEqual(
      report?.conditions?.map((c) => [c.type, c.status, c.reason]),
      [['Verified', 'False', 'Unsigned']],
    );
    const allowed = join(dir, 'allowed');
    writeFileSync(allowed, `${cluster} ${agentKey.publicLine}\n`);
    execFileSync(
      'git',
      ['--git-dir', repo.dir, '-c', `gpg.ssh.allowedSignersFile=${allowed}`, 'verify-commit', statusRef],
      { stdio: 'pipe' },
    );
  });
});
