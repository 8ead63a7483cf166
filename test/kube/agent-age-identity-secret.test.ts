// `gitfleet agent --once --age-identity-secret NS/NAME` on a real cluster: the agent reads its
// age identity from a Secret of its member cluster and applies a Secret the real `sops` encrypted
// to it. A Secret that is missing, or holds no identity (comments only, or a value that is not
// one), stops the agent with an error naming the Secret, never repeating what it holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../cli/run-cli.js';
import { commitClusterBranch, kubectl, testAgent } from './agent-fixture.js';
import { inNamespace, testKubeConfig } from './test-clusters.js';
import { anAgeKey, sopsBin, sopsEncrypt } from '../support/sops-tools.js';
import { renderedForRecipient, secretText } from '../support/sops-render.js';
import { removeTempDirs } from '../support/temp-dirs.js';

const tools = sopsBin();
const skip = 'skip' in tools ? tools.skip : false;
const bin = 'dir' in tools ? tools.dir : '';
const PASSWORD = 'secret-held-key-s3cr3t-value';

/** Creates Secret ns/name holding `text` under the key `identity`. */
function identitySecret(ns: string, name: string, text: string): void {
  const data = { identity: Buffer.from(text).toString('base64') };
  const manifest = { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: ns }, data };
  kubectl(['apply', '-f', '-'], { input: JSON.stringify(manifest) });
}

test(
  'the agent reads its age identity from a Secret of its cluster; a missing or empty one is a clear error that repeats nothing it holds',
  { skip },
  async (t) => {
    // The fixture's repository and cluster name; the CLI runs the agent, the fixture cleans up after it.
    const { gitdir, cluster, dispose } = testAgent();
    t.after(async () => {
      await dispose();
      removeTempDirs();
    });
    const key = await anAgeKey();
    const agent = (secret: string) =>
      runCli([
        ...['agent', '--repo', gitdir, '--cluster', cluster, '--once', '--log-level', 'debug'],
        ...['--kubeconfig', process.env['GITFLEET_TEST_KUBECONFIG']!, '--context', 'member1'],
        ...['--age-identity-secret', secret],
      ]);
    await inNamespace(testKubeConfig('member1'), 'age-identity-secret', async (ns) => {
      const encrypted = sopsEncrypt(bin, secretText(ns, 'db-credentials', PASSWORD), {
        recipients: [key.recipient],
        args: ['--encrypted-regex', '^(data|stringData)$'],
      });
      await commitClusterBranch(gitdir, cluster, [], 'render: a secret\n', {
        [`${ns}/Secret/db-credentials.yaml`]: renderedForRecipient(encrypted, ns, key.recipient),
      });
      identitySecret(ns, 'agent-age', `# the agent's key\n${key.identity}\n`);

      const applied = await agent(`${ns}/agent-age`);
      const said = applied.stdout + applied.stderr;
      assert.equal(applied.code, 0, said);
      assert.match(said, new RegExp(`decrypting SOPS files for age recipients ${key.recipient}`));
      const live = kubectl(['get', 'secret', 'db-credentials', '-n', ns, '-o', 'jsonpath={.data.password}']);
      assert.equal(Buffer.from(live, 'base64').toString(), PASSWORD);

      const notAKey = 'not-a-key-but-a-s3cr3t-all-the-same';
      const broken = 'AGE-SECRET-KEY-1BROKENBROKENBROKENBROKENBROKENBROKEN';
      identitySecret(ns, 'comments-only', '# nothing here yet\n\n');
      identitySecret(ns, 'not-an-identity', `${notAKey}\n`);
      identitySecret(ns, 'broken-identity', `${broken}\n`);
      for (const [name, reason] of [
        ['missing', 'not found'],
        ['comments-only', 'holds no age identity'],
        ['not-an-identity', 'line 1: not an age identity'],
        ['broken-identity', 'line 1: not a valid age identity'],
      ] as const) {
        const run = await agent(`${ns}/${name}`);
        const output = run.stdout + run.stderr;
        assert.notEqual(run.code, 0, `${name}: ${output}`);
        assert.ok(output.includes(`Secret ${ns}/${name}: ${reason}`), `${name}: ${output}`);
        for (const held of [key.identity, notAKey, broken, PASSWORD])
          assert.ok(!output.includes(held), `${name}: the output repeats what a Secret holds`);
      }
      assert.equal(
        Buffer.from(
          kubectl(['get', 'secret', 'db-credentials', '-n', ns, '-o', 'jsonpath={.data.password}']),
          'base64',
        ).toString(),
        PASSWORD,
        'a failed start changes nothing on the cluster',
      );
    });
  },
);
