// The agent and its status repository (loops/agent/status-target.ts): the cluster branch's
// `.gitfleet/status-repository` (or --status-repo) sends its status branch to another
// repository; one that is missing or refuses writes is said once and the pass still applies.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { parseStatusBranch } from '../../../src/core/status/status-branch.js';
import { localAgentRepo, statusBranchRef } from '../../../src/loops/agent/agent-repo.js';
import { heartbeatRepo, type StatusRepos } from '../../../src/loops/agent/status-target.js';
import { readStatusFiles } from '../../../src/loops/agent/write-status-branch.js';
import { remoteHubRepo } from '../../../src/adapters/remote/remote-hub-repo.js';
import { makeServedRepo, tempDir } from '../../git-server/git-cli.js';
import { startGitServer } from '../../git-server/start-git-server.js';
import { commitClusterBranch, makeBareRepo, prefix } from '../../support/cluster-branch.js';
import { aConfigMap, aNamespace } from '../../support/kube-objects.js';
import { removeTempDirs } from '../../support/temp-dirs.js';
import { fakeAgent } from './fake-agent.js';

after(removeTempDirs);

const objects = [aNamespace('shop'), aConfigMap('shop', 'web', { a: '1' })];
const statusRef = statusBranchRef(prefix, 'm1');

function localRepos(override?: string): StatusRepos {
  return {
    ...(override ? { override } : {}),
    open: (url) => Promise.resolve(localAgentRepo(url)),
  };
}

async function reportIn(gitdir: string) {
  return parseStatusBranch(await readStatusFiles(gitdir, statusRef));
}

function hasRef(gitdir: string, ref: string): boolean {
  try {
    execFileSync('git', ['--git-dir', gitdir, 'rev-parse', '--verify', '-q', ref], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

/** Status repositories opened over smart HTTP as the agent opens them (its status ref only), mirrored in a fresh cache. */
function remoteStatusRepos(): StatusRepos {
  const cacheDir = tempDir('cache');
  return {
    open: (url) =>
      Promise.resolve(
        remoteHubRepo({
          url,
          cacheDir,
          mirrorKey: 'agent status m1',
          sourceRef: 'main',
          sourceOptional: true,
          branchPrefix: prefix,
          onlyRefs: [statusRef],
        }),
      ),
  };
}

test('the branch names a status repository: the status branch is written there, none in the fleet repository', async () => {
  const status = makeBareRepo();
  const agent = fakeAgent();
  const commit = await commitClusterBranch(agent.gitdir, 'm1', objects, undefined, {
    '.gitfleet/status-repository': `${status.dir}\n`,
  });
  const result = await agent.pass({ statusRepos: localRepos() });
  assert.equal(result.fullyApplied, true);
  assert.equal(result.status.type, 'written');
  assert.equal((await reportIn(status.dir))?.appliedCommit, commit);
  assert.equal(hasRef(agent.gitdir, statusRef), false, 'the fleet repository holds no status branch');
  assert.equal(agent.memory.statusTarget?.url, status.dir);
  assert.equal(
    heartbeatRepo(agent.memory, agent.options.repo).gitdir,
    status.dir,
    'the heartbeat goes there too',
  );
  status.dispose();
});

test('--status-repo wins over the branch file; without either the fleet repository is used, as before', async () => {
  const named = makeBareRepo();
  const flag = makeBareRepo();
  const agent = fakeAgent();
  await commitClusterBranch(agent.gitdir, 'm1', objects, undefined, {
    '.gitfleet/status-repository': named.dir,
  });
  await agent.pass({ statusRepos: localRepos(flag.dir) });
  assert.ok(await reportIn(flag.dir));
  assert.equal(hasRef(named.dir, statusRef), false);
  const plain = fakeAgent();
  await commitClusterBranch(plain.gitdir, 'm1', objects);
  await plain.pass({ statusRepos: localRepos() });
  assert.ok(await reportIn(plain.gitdir));
  named.dispose();
  flag.dispose();
});

test('a status repository that does not exist: the pass applies all the same, says which once, writes no status', async () => {
  const agent = fakeAgent();
  const missing = join(tempDir('nowhere'), 'status.git');
  await commitClusterBranch(agent.gitdir, 'm1', objects, undefined, {
    '.gitfleet/status-repository': missing,
  });
  const warned: string[] = [];
  const first = await agent.pass({ statusRepos: localRepos(), warn: (m) => warned.push(m) });
  assert.equal(first.objects.filter((o) => o.applied).length, 2, 'every object applied');
  assert.ok(agent.fake.peek({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'web' }));
  assert.equal(first.status.type, 'skipped');
  assert.match(
    first.status.problem ?? '',
    new RegExp(`status repository ${missing} cannot be read: .*not a git repository`),
  );
  await agent.pass({ statusRepos: localRepos(), warn: (m) => warned.push(m) });
  assert.deepEqual(
    warned.filter((m) => m.includes('status repository')).length,
    1,
    'said once, not per pass',
  );
  assert.equal(hasRef(agent.gitdir, statusRef), false, 'nor written to the fleet repository instead');
  assert.throws(
    () => heartbeatRepo(agent.memory, agent.options.repo),
    /status repository .* cannot be read/,
    'no heartbeat goes to the fleet repository instead',
  );
  // Created: the next pass writes there and says so once.
  execFileSync('git', ['init', '-q', '--bare', missing]);
  const told: string[] = [];
  const back = await agent.pass({
    statusRepos: localRepos(),
    warn: (m) => warned.push(m),
    info: (m) => told.push(m),
  });
  assert.equal(back.status.type, 'written');
  assert.ok(await reportIn(missing));
  assert.deepEqual(told, [`status repository ${missing} answers again`]);
  assert.equal(warned.filter((m) => m.includes('status repository')).length, 1);
});

test('a remote status repository that refuses writes (403) and one that does not exist (404): said with the URL and status, applying goes on', async () => {
  const root = tempDir('served');
  const refusing = makeServedRepo(root, 'refusing.git');
  execFileSync('git', ['--git-dir', refusing, 'config', 'http.receivepack', 'false']);
  const server = await startGitServer({ root });
  after(() => server.close());
  const remote = remoteStatusRepos();
  for (const [name, want] of [
    ['refusing.git', /status repository http:\/\/127\.0\.0\.1:\d+\/refusing\.git refuses the write: .*403/],
    ['absent.git', /status repository http:\/\/127\.0\.0\.1:\d+\/absent\.git cannot be read: .*404/],
  ] as const) {
    const agent = fakeAgent();
    await commitClusterBranch(agent.gitdir, 'm1', objects, undefined, {
      '.gitfleet/status-repository': server.url(name),
    });
    const warned: string[] = [];
    const result = await agent.pass({ statusRepos: remote, warn: (m) => warned.push(m) });
    assert.equal(result.objects.filter((o) => o.applied).length, 2, `${name}: applied`);
    assert.equal(result.status.type, 'skipped', name);
    assert.match(result.status.problem ?? '', want);
    await agent.pass({ statusRepos: remote, warn: (m) => warned.push(m) });
    assert.equal(warned.filter((m) => m.includes('status repository')).length, 1, `${name}: said once`);
  }
});

test('the status repository is read after the apply: its round trip is not part of push → applied', async () => {
  const status = makeBareRepo();
  const agent = fakeAgent();
  await commitClusterBranch(agent.gitdir, 'm1', objects, undefined, {
    '.gitfleet/status-repository': `${status.dir}\n`,
  });
  const web = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'web' };
  const appliedWhenRead: boolean[] = [];
  const repos: StatusRepos = {
    open: (url) => {
      const repo = localAgentRepo(url);
      const refresh = () => {
        appliedWhenRead.push(agent.fake.peek(web) !== undefined);
        return repo.refresh();
      };
      return Promise.resolve(Object.assign(Object.create(repo) as typeof repo, { refresh }));
    },
  };
  const result = await agent.pass({ statusRepos: repos });
  assert.equal(result.status.type, 'written');
  assert.deepEqual(appliedWhenRead, [true], 'read once, with the ConfigMap already in the cluster');
  status.dispose();
});

test('a remote status repository is read once, not at every pass: the status and heartbeat there are this agent’s own; a lost race reads it again', async () => {
  const root = tempDir('served');
  const served = makeServedRepo(root, 'status.git');
  const server = await startGitServer({ root });
  after(() => server.close());
  const remote = remoteStatusRepos();
  const agent = fakeAgent();
  const branch = (a: string) =>
    commitClusterBranch(
      agent.gitdir,
      'm1',
      [aNamespace('shop'), aConfigMap('shop', 'web', { a })],
      undefined,
      {
        '.gitfleet/status-repository': server.url('status.git'),
      },
    );
  // A read: any upload-pack request, the advertisement or a POST (ls-refs, fetch).
  const reads = () =>
    server.requests.filter((r) => r.path.endsWith('/git-upload-pack') || r.query.includes('git-upload-pack'))
      .length;
  await branch('1');
  assert.equal((await agent.pass({ statusRepos: remote })).status.type, 'written');
  const first = reads();
  assert.ok(first > 0, 'the first pass reads it');
  await branch('2');
  assert.equal((await agent.pass({ statusRepos: remote })).status.type, 'written');
  assert.equal(reads(), first, 'the second pass writes its status without reading the repository again');
  assert.equal((await reportIn(served))?.objects.length, 2);
  // Another writer moves the status branch: the write loses its race, and the next pass reads.
  const git = (...args: string[]) =>
    execFileSync('git', ['--git-dir', served, ...args], { encoding: 'utf8' }).trim();
  const other = git(
    ...['-c', 'user.name=other', '-c', 'user.email=other@example.com'],
    ...['commit-tree', `${statusRef}^{tree}`, '-p', statusRef, '-m', 'another writer'],
  );
  git('update-ref', statusRef, other);
  await branch('3');
  await assert.rejects(agent.pass({ statusRepos: remote }), /wrote .* first/);
  assert.equal((await agent.pass({ statusRepos: remote })).status.type, 'written');
  assert.ok(reads() > first, 'read again after the lost race');
});
