// `gitfleet agent --once --age-identity FILE` on a real cluster, with files the real `sops` made
// and the hub's render passed through: the decrypted Secret is applied; a file addressed to
// another key and a tampered file are not (the live Secret keeps its last applied state, the
// output names the object and the reason); a Secret changed by hand is put back. Then everything
// the agent wrote is scanned for the plaintext, plain and base64: every object of the Git
// repository (cluster branch, status branch, their commits), every line it printed, the live
// Secret's metadata (annotations, managed fields) and the inventory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { runCli, type CliRun } from '../cli/run-cli.js';
import { KUBE_YAML_SCHEMA } from '../../src/core/load/kube-yaml-schema.js';
import { emitYaml } from '../../src/core/format/emit-yaml.js';
import { commitClusterBranch, kubectl, makeBareRepo, testAgent } from './agent-fixture.js';
import { inNamespace, testKubeConfig, uniqueName } from './test-clusters.js';
import { anAgeKey, sopsBin, sopsEncrypt } from '../support/sops-tools.js';
import { renderedForRecipient as rendered, secretText } from '../support/sops-render.js';
import { inventoryText } from '../support/inventory-text.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

const tools = sopsBin();
const skip = 'skip' in tools ? tools.skip : false;
const bin = 'dir' in tools ? tools.dir : '';
const PASSWORD = 'kube-s3cr3t-horse-battery-staple';
const OTHER = 'other-s3cr3t-value-never-applied';

test(
  'the agent decrypts with its own key, applies, reverts drift, refuses what does not decrypt, and writes no plaintext anywhere',
  { skip },
  async (t) => {
    const repo = makeBareRepo();
    const cluster = uniqueName('t');
    const cleanup = testAgent({ name: cluster });
    t.after(async () => {
      await cleanup.dispose();
      repo.dispose();
      removeTempDirs();
    });
    const [ours, theirs] = [await anAgeKey(), await anAgeKey()];
    const keyFile = join(tempDir('age'), 'identity');
    writeFileSync(keyFile, `# the agent's test key\n${ours.identity}\n`, { mode: 0o600 });
    const kubeconfig = process.env['GITFLEET_TEST_KUBECONFIG']!;
    const outputs: CliRun[] = [];
    const agent = async (identity: readonly string[] = ['--age-identity', keyFile]) => {
      const run = await runCli([
        'agent',
        '--repo',
        repo.dir,
        '--cluster',
        cluster,
        '--kubeconfig',
        kubeconfig,
        '--context',
        'member1',
        '--once',
        ...identity,
        '--log-level',
        'debug',
      ]);
      outputs.push(run);
      return run;
    };
    const livePassword = () =>
      Buffer.from(
        kubectl(['get', 'secret', 'db-credentials', '-n', ns, '-o', 'jsonpath={.data.password}']),
        'base64',
      ).toString();
    let ns = '';
    await inNamespace(testKubeConfig('member1'), 'agent-secrets', async (namespace) => {
      ns = namespace;
      const args = ['--encrypted-regex', '^(data|stringData)$'];
      const good = rendered(
        sopsEncrypt(bin, secretText(ns, 'db-credentials', PASSWORD), { recipients: [ours.recipient], args }),
        ns,
        ours.recipient,
      );
      const foreign = rendered(
        sopsEncrypt(bin, secretText(ns, 'other-db', OTHER), { recipients: [theirs.recipient], args }),
        ns,
        theirs.recipient,
      );
      const files = { [`${ns}/Secret/db-credentials.yaml`]: good, [`${ns}/Secret/other-db.yaml`]: foreign };
      await commitClusterBranch(repo.dir, cluster, [], 'render: secrets\n', files);

      const first = await agent();
      assert.equal(first.code, 1, 'other-db is not applied, so the head is not fully applied');
      assert.equal(livePassword(), PASSWORD);
      assert.match(
        first.stdout + first.stderr,
        /Secret\/.*other-db: not decrypted, not applied .*not encrypted to this agent's age key/,
      );
      assert.throws(() => kubectl(['get', 'secret', 'other-db', '-n', ns]));

      // Drift: changed by hand, put back by the next pass.
      kubectl([
        'patch',
        'secret',
        'db-credentials',
        '-n',
        ns,
        '-p',
        JSON.stringify({ data: { password: Buffer.from('by-hand').toString('base64') } }),
      ]);
      await agent();
      assert.equal(livePassword(), PASSWORD);

      // Tampered: the password's ciphertext moved under username (its path no longer matches).
      const doc = yaml.load(good, { schema: KUBE_YAML_SCHEMA }) as Record<string, Record<string, string>>;
      doc['stringData']!['username'] = doc['stringData']!['password']!;
      const tampered = emitYaml(doc, { keepOrder: true });
      await commitClusterBranch(repo.dir, cluster, [], 'render: tampered\n', {
        ...files,
        [`${ns}/Secret/db-credentials.yaml`]: tampered,
      });
      const third = await agent();
      assert.equal(third.code, 1);
      assert.match(
        third.stdout + third.stderr,
        /db-credentials: not decrypted, not applied .*stringData\.username: does not decrypt/,
      );
      assert.equal(livePassword(), PASSWORD, 'the Secret keeps its last applied state');

      // An agent without its key: nothing decrypted, so nothing applied and nothing deleted.
      await commitClusterBranch(repo.dir, cluster, [], 'render: secrets again\n', files);
      const keyless = await agent([]);
      assert.equal(keyless.code, 1);
      assert.match(
        keyless.stdout + keyless.stderr,
        /Secret\/.*db-credentials: not decrypted, not applied .*this agent has no age identity \(gitfleet agent --age-identity FILE/,
      );
      assert.equal(livePassword(), PASSWORD, 'the Secret keeps its last applied state');

      // A key rotation: both identities in the file (two lines), files for either key decrypt.
      writeFileSync(keyFile, `# old\n${ours.identity}\n# new\n${theirs.identity}\n`, { mode: 0o600 });
      const rotating = await agent();
      assert.equal(rotating.code, 0, rotating.stdout + rotating.stderr);
      assert.equal(livePassword(), PASSWORD);
      const otherLive = kubectl(['get', 'secret', 'other-db', '-n', ns, '-o', 'jsonpath={.data.password}']);
      assert.equal(Buffer.from(otherLive, 'base64').toString(), OTHER);

      // Nothing the agent wrote holds the plaintext.
      const secrets = [PASSWORD, OTHER].flatMap((p) => [p, Buffer.from(p).toString('base64')]);
      const gitObjects = execFileSync('git', ['-C', repo.dir, 'cat-file', '--batch-all-objects', '--batch'], {
        maxBuffer: 1 << 28,
      }).toString('latin1');
      const live = JSON.parse(kubectl(['get', 'secret', 'db-credentials', '-n', ns, '-o', 'json'])) as {
        metadata: unknown;
      };
      const otherMeta = JSON.parse(kubectl(['get', 'secret', 'other-db', '-n', ns, '-o', 'json'])) as {
        metadata: unknown;
      };
      const inventories = kubectl(['get', 'configmaps', '-A', '-l', 'gitfleet.io/inventory', '-o', 'json']);
      const printed = outputs.map((o) => o.stdout + o.stderr).join('\n');
      for (const [where, text] of [
        ['the Git repository', gitObjects],
        ['the agent output and logs', printed],
        ["the live Secret's metadata", JSON.stringify(live.metadata)],
        ["the other live Secret's metadata", JSON.stringify(otherMeta.metadata)],
        ['the inventory', inventories],
        ['the inventory, unpacked', inventoryText(inventories)],
      ] as const) {
        for (const s of secrets) assert.ok(!text.includes(s), `${where} holds a plaintext value`);
      }
      assert.match(
        gitObjects,
        /Gitfleet-Applied-Commit|appliedCommit/,
        'the status branch was written and scanned',
      );
      // The scan can see a value where one is: the live Secret's data holds it, the inventory exists.
      assert.ok(kubectl(['get', 'secret', 'db-credentials', '-n', ns, '-o', 'json']).includes(secrets[1]!));
      assert.ok((JSON.parse(inventories) as { items: unknown[] }).items.length > 0);
      // What the agent records of a decrypted Secret is a digest: the encrypted file's blob id.
      const blob = execFileSync('git', [
        '-C',
        repo.dir,
        'rev-parse',
        `gitfleet/clusters/${cluster}:${ns}/Secret/db-credentials.yaml`,
      ])
        .toString()
        .trim();
      assert.match(
        inventoryText(inventories),
        new RegExp(`"kind":"Secret","namespace":"${ns}","name":"db-credentials","digest":"${blob}"`),
      );
    });
  },
);
