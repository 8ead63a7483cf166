// `gitfleet cluster join` against a real fleet repository: the registration is one commit on a
// review branch (the source branch, the work tree and the index untouched), it loads, its key
// is the public half of the private key written beside the overlay (a commit signed with that
// key verifies against the registered key, with our verifier and with git verify-commit), the
// private key is in no object of the repository, and kustomize builds the overlay it writes.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { runCli } from './run-cli.js';
import { author, fleetClone, registeredKey } from './cluster-fixture.js';
import { repoRoot } from '../loops/hub/hub-fixture.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';
import { commitSignedByGit } from '../support/signing-keys.js';
import { signerOfText } from '../../src/adapters/signing/load-signing-key.js';
import { trustedKeysOf } from '../../src/adapters/signing/load-trusted-keys.js';
import { signCommit } from '../../src/adapters/signing/commit-signer.js';
import { makeCommit } from '../../src/adapters/git/make-commit.js';
import { emptyTreeOid } from '../../src/adapters/git/git-object.js';
import { readAgeIdentities } from '../../src/adapters/secrets/age-keyring.js';

after(removeTempDirs);

const kubectl = (() => {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return false;
  } catch {
    return 'kubectl is not installed (its kustomize builds the overlay)';
  }
})();

async function joined(extra: string[] = []) {
  const clone = await fleetClone();
  const main = clone.git('rev-parse', 'main');
  const out = join(tempDir('overlay'), 'member2');
  const deploy = join(repoRoot, 'deploy');
  const run = await runCli([
    'cluster',
    'join',
    'member2',
    '--repo',
    clone.dir,
    '--hub-keys',
    clone.hubKeys,
    '--labels',
    'env=prod,region=eu',
    '-o',
    out,
    '--deploy',
    deploy,
    ...author,
    ...extra,
  ]);
  return { clone, main, out, run };
}

test('cluster join commits the registration on a review branch, leaving main, the work tree and the index as they were.', async () => {
  const { clone, main, run } = await joined();
  assert.equal(run.code, 0, run.stderr);
  assert.equal(clone.git('rev-parse', 'main'), main);
  assert.equal(clone.git('status', '--porcelain'), '');
  assert.equal(clone.git('rev-parse', 'cluster-join/member2^'), main);
  assert.equal(
    clone.git('diff', '--name-status', 'main', 'cluster-join/member2'),
    'A\tclusters/member2.yaml',
  );
  assert.match(
    clone.git('log', '-1', '--format=%an <%ae>%n%B', 'cluster-join/member2'),
    /^Pat Operator <pat@example.com>\nRegister cluster member2[\s\S]*Gitfleet-Cluster-Join: member2\nGitfleet-Cluster-Key: SHA256:/,
  );
  clone.git('fsck', '--strict');
  const validate = await runCli(['validate', clone.dir, '--ref', 'cluster-join/member2', '--output', 'json']);
  assert.equal(validate.code, 0, validate.stdout);
  const doc = yaml.load(clone.git('show', 'cluster-join/member2:clusters/member2.yaml')) as {
    metadata: { labels: Record<string, string> };
  };
  assert.deepEqual(doc.metadata.labels, { env: 'prod', region: 'eu' });
  assert.match(run.stdout, /registration committed on branch cluster-join\/member2/);
  assert.match(run.stdout, /git -C .* push origin cluster-join\/member2/);
});

test('The key written beside the overlay signs commits that verify against the registered public key, with our verifier and with git verify-commit.', async () => {
  const { clone, out, run } = await joined();
  assert.equal(run.code, 0, run.stderr);
  const keyFile = join(out, 'signing-key');
  assert.equal(statSync(keyFile).mode & 0o777, 0o600);
  assert.match(run.stdout, /PRIVATE key, mode 0600/);
  const allowed = `member2 ${registeredKey(clone, 'cluster-join/member2', 'clusters/member2.yaml')}`;
  const trusted = await trustedKeysOf([{ text: allowed, source: 'registration' }]);
  const signer = await signerOfText(readFileSync(keyFile, 'utf8'), keyFile);
  const who = { name: 'agent', email: 'agent@member2', time: 1_700_000_000, tzOffsetMinutes: 0 };
  const ours = await signCommit(
    makeCommit({ tree: emptyTreeOid, parents: [], author: who, message: 'status\n' }),
    signer,
  );
  const verdict = await trusted.verifier.verify({ oid: ours.oid, content: ours.content }, new Date());
  assert.equal(verdict.ok, true, JSON.stringify(verdict));
  // git signs with the same key file; git and we both accept it against the registration.
  const work = tempDir('agentwork');
  execFileSync('git', ['init', '-q', work]);
  const byGit = commitSignedByGit({
    dir: work,
    config: ['gpg.format=ssh', `user.signingkey=${keyFile}`],
    message: 'status',
  });
  const signers = join(tempDir('signers'), 'allowed_signers');
  writeFileSync(signers, `${allowed}\n`);
  const verified = execFileSync(
    'git',
    ['-c', `gpg.ssh.allowedSignersFile=${signers}`, 'verify-commit', byGit],
    { cwd: work, stdio: 'pipe', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } },
  );
  assert.ok(verified);
  const content = execFileSync('git', ['cat-file', 'commit', byGit], { cwd: work });
  assert.equal((await trusted.verifier.verify({ oid: byGit, content }, new Date())).ok, true);
});

test('The private key is in no object of the fleet repository.', async () => {
  const { clone, out, run } = await joined();
  assert.equal(run.code, 0, run.stderr);
  const key = readFileSync(join(out, 'signing-key'), 'utf8');
  const body = key.split('\n')[1]!;
  const objects = clone.git('cat-file', '--batch-all-objects', '--batch');
  assert.ok(!objects.includes('PRIVATE KEY'));
  assert.ok(!objects.includes(body));
  assert.ok(!run.stdout.includes(body));
});

test('Without -o the key goes to the key file (0600) and the overlay is printed, never the key.', async () => {
  const clone = await fleetClone();
  const config = tempDir('xdg');
  const previous = process.env['XDG_CONFIG_HOME'];
  process.env['XDG_CONFIG_HOME'] = config;
  try {
    const run = await runCli([
      'cluster',
      'join',
      'member2',
      '--repo',
      clone.dir,
      '--hub-keys',
      clone.hubKeys,
      ...author,
    ]);
    assert.equal(run.code, 0, run.stderr);
    const keyFile = join(config, 'gitfleet', 'clusters', 'member2', 'signing-key');
    assert.equal(statSync(keyFile).mode & 0o777, 0o600);
    assert.match(run.stdout, new RegExp(`PRIVATE key went to ${keyFile}`));
    assert.match(run.stdout, /secretGenerator:\n {2}- name: gitfleet-agent-signing-key/);
    assert.match(run.stdout, /repo=https:\/\/git.example.org\/platform\/fleet.git/);
    assert.ok(!run.stdout.includes(readFileSync(keyFile, 'utf8').split('\n')[1]!));
  } finally {
    if (previous === undefined) delete process.env['XDG_CONFIG_HOME'];
    else process.env['XDG_CONFIG_HOME'] = previous;
  }
});

test(
  'kustomize builds the overlay: the agent runs with the key from the Secret and the hub keys from the ConfigMap.',
  { skip: kubectl },
  async () => {
    const { clone, out, run } = await joined();
    assert.equal(run.code, 0, run.stderr);
    writeFileSync(join(out, 'token'), 'a-git-token');
    const objects = yaml.loadAll(execFileSync('kubectl', ['kustomize', out]).toString()) as {
      kind: string;
      metadata: { name: string };
      data?: Record<string, string>;
      spec?: {
        template: {
          spec: {
            containers: { args: string[] }[];
            volumes: { secret?: { secretName: string }; configMap?: { name: string } }[];
          };
        };
      };
    }[];
    const named = (kind: string, prefix: string) =>
      objects.find((o) => o.kind === kind && o.metadata.name.startsWith(prefix))!;
    const secret = named('Secret', 'gitfleet-agent-signing-key');
    assert.equal(
      Buffer.from(secret.data!['key']!, 'base64').toString(),
      readFileSync(join(out, 'signing-key'), 'utf8'),
    );
    assert.equal(
      Buffer.from(named('Secret', 'gitfleet-agent-git').data!['token']!, 'base64').toString(),
      'a-git-token',
    );
    assert.match(named('ConfigMap', 'gitfleet-agent-config').data!['cluster']!, /^member2$/);
    assert.equal(
      named('ConfigMap', 'gitfleet-agent-trusted-keys').data!['trusted-keys'],
      readFileSync(join(out, 'trusted-keys'), 'utf8'),
    );
    const pod = named('Deployment', 'gitfleet-agent').spec!.template.spec;
    assert.ok(
      pod.containers[0]!.args.includes('--signing-key') && pod.containers[0]!.args.includes('--trusted-keys'),
    );
    // The age identity (docs/secrets.md): a Secret the Pod mounts as --age-identity, whose
    // recipient is the one the registration names.
    const age = named('Secret', 'gitfleet-agent-age-identity');
    const identity = Buffer.from(age.data!['identity']!, 'base64').toString();
    assert.equal(identity, readFileSync(join(out, 'age-identity'), 'utf8'));
    assert.equal(statSync(join(out, 'age-identity')).mode & 0o777, 0o600);
    assert.ok(pod.containers[0]!.args.includes('--age-identity'));
    assert.ok(pod.volumes.some((v) => v.secret?.secretName === age.metadata.name));
    const identities = await readAgeIdentities(identity, 'age-identity');
    assert.match(run.stdout, /age-identity {2}the agent's age identity/);
    const registration = execFileSync('git', [
      '-C',
      clone.dir,
      'show',
      'cluster-join/member2:clusters/member2.yaml',
    ]).toString();
    assert.match(registration, new RegExp(`gitfleet.io/age-recipient: ${identities[0]!.recipient}`));
    // The generated names (with their hash) are the ones the Pod mounts.
    assert.ok(pod.volumes.some((v) => v.secret?.secretName === secret.metadata.name));
    assert.ok(
      pod.volumes.some(
        (v) => v.configMap?.name === named('ConfigMap', 'gitfleet-agent-trusted-keys').metadata.name,
      ),
    );
  },
);
