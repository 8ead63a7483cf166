// SOPS files through the CLI a reviewer runs: `validate` refuses a placement onto a cluster
// whose age key is not a recipient and warns loudly of a plaintext Secret; `diff` shows an
// encrypted value changed with `sops set` as `<encrypted value changed>` (and one not changed as
// `<encrypted>`) under each cluster it reaches, never a ciphertext or a value; `secrets
// recipients` prints the recipients a file placed on some clusters needs.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { cleanup, git, initRepo, writeFiles } from '../adapters/source/git-fixture.js';
import { runCli } from './run-cli.js';
import { anAgeKey, sopsBin, sopsEncrypt } from '../support/sops-tools.js';

after(cleanup);
const tools = sopsBin();
const skip = 'skip' in tools ? tools.skip : false;
const bin = 'dir' in tools ? tools.dir : '';

const cluster = (name: string, recipient: string) =>
  `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${name}\n  annotations:\n    gitfleet.io/age-recipient: ${recipient}\n`;
const policy = (clusters: string) => `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: all}
spec:
  resourceSelectors: [{apiVersion: v1, kind: Secret}]
  placement: {clusterAffinity: {clusterNames: [${clusters}]}}
`;
const secret = `apiVersion: v1
kind: Secret
metadata:
  name: db-credentials
  namespace: shop
stringData:
  username: shop-user-name
  password: old-s3cr3t-password
`;

/** Three age keys, of member1 to member3, and the file registering the three clusters with them. */
async function threeClusters() {
  const keys = [await anAgeKey(), await anAgeKey(), await anAgeKey()] as const;
  return { keys, file: keys.map((k, i) => cluster(`member${i + 1}`, k.recipient)).join('---\n') };
}

test(
  'validate refuses a cluster that is not a recipient and warns of a plaintext Secret',
  { skip },
  async () => {
    const [ours, other] = [await anAgeKey(), await anAgeKey()];
    const repo = initRepo();
    writeFiles(repo, {
      'clusters.yaml': `${cluster('member1', ours.recipient)}---\n${cluster('member3', other.recipient)}`,
      'policy.yaml': policy('member1, member3'),
      'db.yaml': sopsEncrypt(bin, secret, {
        recipients: [ours.recipient],
        args: ['--encrypted-regex', '^(data|stringData)$'],
      }),
      'plain.yaml':
        'apiVersion: v1\nkind: Secret\nmetadata: {name: oops, namespace: shop}\nstringData: {token: plain-t0ken}\n',
    });
    const run = await runCli(['validate', repo]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const output = run.stdout + run.stderr;
    assert.match(
      output,
      /shop\/db-credentials is placed on member3, but member3's age key is not a recipient: run sops updatekeys/,
    );
    assert.match(output, /warning: plain\.yaml.*Secret\/shop\/oops: PLAINTEXT SECRET committed to Git/);
    assert.ok(!output.includes('plain-t0ken'));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'secrets');
    const diff = await runCli(['diff', repo, 'HEAD', 'HEAD', '--format', 'markdown']);
    assert.match(diff.stderr, /warning: plain\.yaml.*PLAINTEXT SECRET committed to Git/);
    assert.ok(!(diff.stdout + diff.stderr).includes('plain-t0ken'));
  },
);

test(
  'diff shows an encrypted value changed with sops set as <encrypted value changed> on each cluster it reaches, never a value',
  { skip },
  async () => {
    const {
      keys: [key, second],
      file,
    } = await threeClusters();
    const repo = initRepo();
    writeFiles(repo, {
      'clusters.yaml': file,
      'policy.yaml': policy('member1, member2'),
      'db.yaml': sopsEncrypt(bin, secret, {
        recipients: [key.recipient, second.recipient],
        args: ['--encrypted-regex', '^(data|stringData)$'],
      }),
    });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'base');
    const base = git(repo, 'rev-parse', 'HEAD');
    execFileSync(
      join(bin, 'sops'),
      ['set', join(repo, 'db.yaml'), '["stringData"]["password"]', '"new-s3cr3t-password"'],
      {
        env: { PATH: process.env['PATH'] ?? '', HOME: repo, SOPS_AGE_KEY: key.identity },
      },
    );
    git(repo, 'commit', '-qam', 'rotate the password');
    const head = git(repo, 'rev-parse', 'HEAD');
    for (const format of ['text', 'markdown']) {
      const run = await runCli(['diff', repo, base, head, '--format', format]);
      assert.equal(run.code, 6, run.stderr);
      const output = run.stdout + run.stderr;
      assert.match(output, /^\+ +password: "?<encrypted value changed>"?$/m);
      assert.match(output, /^ +username: "?<encrypted>"?$/m);
      // The clusters it reaches: each placed one shows the change in its own section, the others none.
      const reached = [...output.matchAll(/^(?:# cluster |<details><summary>)(member\d)\b/gm)].map(
        (m) => m[1],
      );
      assert.deepEqual(reached, ['member1', 'member2'], format);
      assert.equal(output.match(/<encrypted value changed>/g)?.length, 2, format);
      for (const value of ['old-s3cr3t-password', 'new-s3cr3t-password', 'shop-user-name', 'ENC[AES256_GCM'])
        assert.ok(!output.includes(value), `${format} prints ${value}`);
    }
  },
);

test(
  'secrets recipients prints what sops --age takes for the clusters named, and a file made with it passes validate',
  { skip },
  async () => {
    const {
      keys: [one, , three],
      file,
    } = await threeClusters();
    const repo = initRepo();
    writeFiles(repo, {
      'clusters.yaml': file,
      'policy.yaml': policy('member1, member3'),
    });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'clusters');
    const text = await runCli(['secrets', 'recipients', 'member3', 'member1', '--repo', repo]);
    assert.equal(text.code, 0, text.stderr);
    assert.equal(text.stdout.trim(), `${three.recipient},${one.recipient}`);
    const json = await runCli([
      'secrets',
      'recipients',
      'member1',
      'member3',
      '--repo',
      repo,
      '--output',
      'json',
    ]);
    assert.deepEqual(JSON.parse(json.stdout), {
      clusters: { member1: one.recipient, member3: three.recipient },
      recipients: `${one.recipient},${three.recipient}`,
    });
    writeFiles(repo, {
      'db.yaml': sopsEncrypt(bin, secret, {
        recipients: text.stdout.trim().split(','),
        args: ['--encrypted-regex', '^(data|stringData)$'],
      }),
    });
    const valid = await runCli(['validate', repo]);
    assert.equal(valid.code, 0, valid.stdout + valid.stderr);
    assert.doesNotMatch(valid.stdout + valid.stderr, /AgeRecipientMissing|not a recipient/);
  },
);
