// `hub --commit-status-token-file` through the command line, with `--once` on the example fleet
// and a local server speaking GitHub's commit-status API: the status posted after a pass, none
// again from a hub that restarts to the same state (it reads the forge back), an apply failure
// read from the agent's status commit, a missing token file that stops no pass, and the flags'
// usage errors.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from './run-cli.js';
import {
  commitChange,
  commitStatusBranch,
  exampleFleetRepo,
  git,
  removeFleetRepos,
  type FleetRepo,
} from '../loops/hub/hub-fixture.js';
import { statusBranchFiles } from '../../src/core/status/status-branch.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';
import { startForgeStatusServer, type ForgeStatusServer } from '../support/forge-status-server.js';

const token = 'cli-status-token-93e1';

after(() => {
  removeFleetRepos();
  removeTempDirs();
});

function tokenFile(): string {
  const file = join(tempDir('hub-status-token'), 'token');
  writeFileSync(file, `${token}\n`);
  return file;
}

const hubOnce = (repo: FleetRepo, forge: ForgeStatusServer, file: string) =>
  runCli([
    ...['hub', '--repo', repo.path, '--once', '--commit-status-token-file', file],
    ...['--commit-status-forge', 'github', '--commit-status-api-url', forge.apiUrl],
    ...['--commit-status-repo', 'acme/fleet'],
  ]);

function clustersOf(repo: FleetRepo): string[] {
  return git(repo, ['for-each-ref', '--format=%(refname:lstrip=4)', 'refs/heads/gitfleet/clusters/'])
    .split('\n')
    .filter(Boolean);
}

test('a pass posts the pending status once; a hub restarted to the same state posts nothing', async () => {
  const repo = exampleFleetRepo({ bare: false });
  const forge = await startForgeStatusServer({ kind: 'github', token, repository: 'acme/fleet' });
  try {
    const file = tokenFile();
    const run = await hubOnce(repo, forge, file);
    assert.equal(run.code, 0, run.stderr);
    const head = git(repo, ['rev-parse', 'main']).trim();
    const n = clustersOf(repo).length;
    assert.deepEqual(
      forge.posted(head).map((s) => `${s.state} ${s.context}: ${s.description}`),
      [`pending gitfleet/deploy: healthy on 0/${n} clusters, ${n} progressing`],
    );
    assert.match(run.stderr, /commit status gitfleet\/deploy pending: healthy on 0\/\d+ clusters/);
    assert.doesNotMatch(run.stdout + run.stderr, new RegExp(token));
    const again = await hubOnce(repo, forge, file);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(forge.posted(head).length, 1, 'the forge already shows it: nothing posted');
    assert.deepEqual(
      forge.requests.map((r) => r.method),
      ['GET', 'POST', 'GET'],
    );
  } finally {
    await forge.close();
  }
});

test("an agent's apply failure on the commit rendered for it is a failure; on an older one it is not", async () => {
  const repo = exampleFleetRepo({ bare: false });
  const forge = await startForgeStatusServer({ kind: 'github', token, repository: 'acme/fleet' });
  try {
    const file = tokenFile();
    assert.equal((await hubOnce(repo, forge, file)).code, 0);
    const [cluster] = clustersOf(repo);
    const rendered = git(repo, ['rev-parse', `refs/heads/gitfleet/clusters/${cluster}`]).trim();
    const report = statusBranchFiles({
      cluster: cluster!,
      appliedCommit: null,
      objects: [],
      conditions: [
        { type: 'Applied', status: 'False', reason: 'ApplyFailed', message: '2 of 9 objects not applied' },
      ],
    });
    const message = (on: string) => `status of ${cluster}: apply failed\n\nGitfleet-Applied-Commit: ${on}\n`;
    await commitStatusBranch(repo, cluster!, report, message('1'.repeat(40)));
    assert.equal((await hubOnce(repo, forge, file)).code, 0);
    const head = git(repo, ['rev-parse', 'main']).trim();
    assert.equal(forge.posted(head).at(-1)?.state, 'pending', 'a failure of another commit');
    git(repo, ['update-ref', '-d', `refs/heads/gitfleet/status/${cluster}`]);
    await commitStatusBranch(repo, cluster!, report, message(rendered));
    assert.equal((await hubOnce(repo, forge, file)).code, 0);
    assert.deepEqual(forge.posted(head).at(-1), {
      state: 'failure',
      context: 'gitfleet/deploy',
      description: `apply failed on ${cluster}: 2 of 9 objects not applied`,
    });
  } finally {
    await forge.close();
  }
});

test('a hub started after a newer commit supersedes the one before that it left pending', async () => {
  const repo = exampleFleetRepo({ bare: false });
  const forge = await startForgeStatusServer({ kind: 'github', token, repository: 'acme/fleet' });
  try {
    const file = tokenFile();
    assert.equal((await hubOnce(repo, forge, file)).code, 0);
    const first = git(repo, ['rev-parse', 'main']).trim();
    const second = commitChange(repo, 'a note', (work) =>
      writeFileSync(join(work, 'apps', 'note.yaml'), '# nothing\n'),
    );
    const run = await hubOnce(repo, forge, file);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(forge.posted(first).at(-1)?.state, 'error', run.stderr);
    assert.match(
      forge.posted(first).at(-1)!.description,
      new RegExp(`^superseded by ${second.slice(0, 7)} before it was final`),
    );
    assert.equal(forge.posted(second).at(-1)?.state, 'pending');
    assert.equal((await hubOnce(repo, forge, file)).code, 0);
    assert.equal(forge.posted(first).length, 2, 'superseded once');
  } finally {
    await forge.close();
  }
});

test('a missing token file is said once and stops no pass', async () => {
  const repo = exampleFleetRepo({ bare: false });
  const forge = await startForgeStatusServer({ kind: 'github', token, repository: 'acme/fleet' });
  try {
    const missing = join(tempDir('hub-status-none'), 'token');
    const run = await hubOnce(repo, forge, missing);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(git(repo, ['rev-parse', 'refs/heads/gitfleet/bindings']).trim(), 'the pass wrote its branches');
    assert.equal(run.stderr.match(/cannot read the token file \(ENOENT\)/g)?.length, 1, run.stderr);
    assert.equal(forge.requests.length, 0);
  } finally {
    await forge.close();
  }
});

test('the commit-status flags say what is missing as usage errors', async () => {
  const repo = exampleFleetRepo({ bare: false });
  const alone = await runCli(['hub', '--repo', repo.path, '--once', '--commit-status-forge', 'github']);
  assert.equal(alone.code, 2, alone.stderr);
  assert.match(alone.stderr, /--commit-status-forge needs --commit-status-token-file/);
  const noRepo = await runCli([
    ...['hub', '--repo', repo.path, '--once', '--commit-status-token-file', tokenFile()],
    ...['--commit-status-forge', 'gitea', '--commit-status-api-url', 'http://127.0.0.1:9/api/v1'],
  ]);
  assert.equal(noRepo.code, 2, noRepo.stderr);
  assert.match(noRepo.stderr, /which repository \(--commit-status-repo owner\/name\)/);
});
