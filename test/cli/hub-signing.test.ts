// `hub --signing-key`: every commit the hub writes (render, bindings, tombstone) is signed in
// git's own format, so `git verify-commit` with the published keys accepts it, through a key
// rotation too; a key the hub cannot use stops it before it writes anything.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from './run-cli.js';
import {
  commitChange,
  exampleFleetRepo,
  git,
  hubRefs,
  removeFleetRepos,
  type FleetRepo,
} from '../loops/hub/hub-fixture.js';
import { runGit } from '../support/run-git.js';
import {
  allowedLine,
  killGpgAgent,
  makeGpgKey,
  makeSshKey,
  missingTool,
  writeAllowedSigners,
  type TestGpgKey,
} from '../support/signing-keys.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';
import { writeFileSync } from 'node:fs';

const gpgKeys: TestGpgKey[] = [];
after(() => {
  gpgKeys.forEach(killGpgAgent);
  removeFleetRepos();
  removeTempDirs();
});

/** Returns every commit on the hub's branches. */
function hubCommits(repo: FleetRepo): string[] {
  return git(repo, ['rev-list', ...hubRefs(repo).values()])
    .split('\n')
    .filter(Boolean);
}

/** Returns the commits `git verify-commit` refuses with the allowed signers file (or the gpg home). */
function refusedByGit(
  repo: FleetRepo,
  commits: string[],
  opts: { allowed?: string; env?: NodeJS.ProcessEnv },
): string[] {
  const config = opts.allowed ? ['-c', `gpg.ssh.allowedSignersFile=${opts.allowed}`] : [];
  return commits.filter((c) => {
    try {
      runGit([...config, 'verify-commit', c], {
        gitdir: repo.gitdir,
        ...(opts.env ? { env: opts.env } : {}),
      });
      return false;
    } catch {
      return true;
    }
  });
}

test(
  'hub --signing-key with an SSH key: every render, bindings and tombstone commit verifies with git verify-commit.',
  { skip: missingTool('ssh-keygen') },
  async () => {
    const repo = exampleFleetRepo({ bare: true });
    const key = makeSshKey({ comment: 'hub' });
    const run = await runCli(['hub', '--repo', repo.path, '--once', '--signing-key', key.privateFile]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /signing the hub's commits with ssh key SHA256:\S+ \(/);
    assert.doesNotMatch(run.stdout + run.stderr, /OPENSSH PRIVATE KEY/);
    commitChange(repo, 'retire onprem-gpu', (work) => rmSync(join(work, 'clusters/onprem-gpu.yaml')));
    const second = await runCli(['hub', '--repo', repo.path, '--once', '--signing-key', key.privateFile]);
    assert.equal(second.code, 3, second.stdout); // the ml workloads now fit no cluster
    assert.match(
      git(repo, ['log', '-1', '--format=%s', 'gitfleet/clusters/onprem-gpu']),
      /^tombstone: cluster onprem-gpu removed/,
    );
    const commits = hubCommits(repo);
    assert.ok(commits.length >= 8, commits.join(' '));
    assert.deepEqual(
      refusedByGit(repo, commits, {
        allowed: writeAllowedSigners([allowedLine('hub@gitfleet.invalid', key)]),
      }),
      [],
    );
    const other = makeSshKey();
    assert.equal(
      refusedByGit(repo, commits, {
        allowed: writeAllowedSigners([allowedLine('hub@gitfleet.invalid', other)]),
      }).length,
      commits.length,
    );
  },
);

test(
  'A hub key rotated with nothing else new: every head is signed again with the new key, and git verifies them with it alone.',
  { skip: missingTool('ssh-keygen') },
  async () => {
    const repo = exampleFleetRepo({ bare: false });
    const [oldKey, newKey] = [makeSshKey({ comment: 'old' }), makeSshKey({ comment: 'new' })];
    const hub = (key: string, extra: string[] = []) =>
      runCli(['hub', '--repo', repo.path, '--once', '--signing-key', key, ...extra]);
    assert.equal((await hub(oldKey.privateFile)).code, 0);
    const before = new Set(hubCommits(repo));
    // The old key stays trusted for the hub's own records during the rotation (--trusted-keys).
    const oldOnly = writeAllowedSigners([allowedLine('hub@gitfleet.invalid', oldKey)]);
    const rotated = await hub(newKey.privateFile, ['--trusted-keys', oldOnly]);
    assert.equal(rotated.code, 0, rotated.stderr);
    assert.match(rotated.stderr, /trusting the hub's records signed by 1 earlier key\(s\)/);
    assert.doesNotMatch(rotated.stdout + rotated.stderr, /RecordUntrusted|not signed by the hub's keys/);
    const heads = [...hubRefs(repo).values()];
    assert.deepEqual(
      heads.filter((head) => before.has(head)),
      [],
      'every head is a new commit',
    );
    for (const ref of hubRefs(repo).keys()) {
      assert.equal(
        git(repo, ['rev-parse', `${ref}^{tree}`]),
        git(repo, ['rev-parse', `${ref}~1^{tree}`]),
        ref,
      );
    }
    assert.match((await hub(newKey.privateFile)).stdout, /nothing to do/);
    const both = writeAllowedSigners([
      allowedLine('hub@gitfleet.invalid', oldKey),
      allowedLine('hub@gitfleet.invalid', newKey),
    ]);
    assert.deepEqual(refusedByGit(repo, hubCommits(repo), { allowed: both }), []);
    const newOnly = writeAllowedSigners([allowedLine('hub@gitfleet.invalid', newKey)]);
    assert.deepEqual(refusedByGit(repo, heads, { allowed: newOnly }), []);
    assert.deepEqual(new Set(refusedByGit(repo, hubCommits(repo), { allowed: newOnly })), before);
  },
);

test(
  'hub --signing-key with an OpenPGP key gpg exported: git verify-commit with gpg accepts every commit.',
  { skip: missingTool('gpg') },
  async () => {
    const key = makeGpgKey('gitfleet hub <hub@gitfleet.invalid>');
    gpgKeys.push(key);
    const file = join(tempDir('hubkey'), 'hub.asc');
    writeFileSync(file, key.secretArmored);
    const repo = exampleFleetRepo({ bare: true });
    const run = await runCli(['hub', '--repo', repo.path, '--once', '--signing-key', file]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, new RegExp(`signing the hub's commits with openpgp key ${key.fingerprint}`));
    assert.deepEqual(
      refusedByGit(repo, hubCommits(repo), {
        env: { ...key.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
      }),
      [],
    );
  },
);

test(
  'hub --signing-key with a key it cannot use exits 1 naming the file, and writes nothing.',
  { skip: missingTool('ssh-keygen') },
  async () => {
    const repo = exampleFleetRepo({ bare: true });
    const encrypted = makeSshKey({ passphrase: 'a passphrase' });
    const run = await runCli(['hub', '--repo', repo.path, '--once', '--signing-key', encrypted.privateFile]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, new RegExp(`${encrypted.privateFile}: the private key is encrypted`));
    assert.equal(hubRefs(repo).size, 0);
    const publicOnly = await runCli([
      'hub',
      '--repo',
      repo.path,
      '--once',
      '--signing-key',
      encrypted.publicFile,
    ]);
    assert.equal(publicOnly.code, 1);
    assert.match(publicOnly.stderr, /neither an OpenSSH private key nor an armored OpenPGP private key/);
  },
);

test(
  'hub --once with a bindings head no hub key signed: the warning names the commit and why, and a signed record goes over it; --trusted-keys needs --signing-key.',
  { skip: missingTool('ssh-keygen') },
  async () => {
    const repo = exampleFleetRepo({ bare: false });
    const key = makeSshKey({ comment: 'hub' });
    const hub = () => runCli(['hub', '--repo', repo.path, '--once', '--signing-key', key.privateFile]);
    assert.equal((await hub()).code, 0);
    const bindings = 'refs/heads/gitfleet/bindings';
    const signed = git(repo, ['rev-parse', bindings]);
    const message = git(repo, ['log', '-1', '--format=%B', signed]);
    const forged = git(repo, ['commit-tree', `${signed}^{tree}`, '-p', signed, '-m', message]);
    git(repo, ['update-ref', bindings, forged, signed]);
    const run = await hub();
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout + run.stderr,
      new RegExp(
        `warning: Branch/gitfleet/bindings: gitfleet/bindings at ${forged.slice(0, 12)}: not signed by the hub's keys \\(commit ${forged.slice(0, 12)}: unsigned\\): nothing moves on its records; the hub goes on from ${signed.slice(0, 12)}`,
      ),
    );
    assert.equal(git(repo, ['rev-parse', `${bindings}~1`]), forged);
    const allowed = writeAllowedSigners([allowedLine('hub@gitfleet.invalid', key)]);
    assert.deepEqual(refusedByGit(repo, [git(repo, ['rev-parse', bindings])], { allowed }), []);
    assert.match((await hub()).stdout, /nothing to do/);

    const alone = await runCli(['hub', '--repo', repo.path, '--once', '--trusted-keys', allowed]);
    assert.equal(alone.code, 2);
    assert.match(alone.stderr, /--trusted-keys: only with --signing-key/);
    const adoptAlone = await runCli(['hub', '--repo', repo.path, '--once', '--adopt-records', forged]);
    assert.equal(adoptAlone.code, 2);
    assert.match(adoptAlone.stderr, /--adopt-records: only with --signing-key/);
    const short = await runCli([
      'hub',
      '--repo',
      repo.path,
      '--once',
      '--signing-key',
      key.privateFile,
      '--adopt-records',
      forged.slice(0, 12),
    ]);
    assert.equal(short.code, 2);
    assert.match(short.stderr, /--adopt-records: "[0-9a-f]{12}" is not a full commit id/);
  },
);
