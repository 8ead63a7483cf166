// Fault: the served repository's HEAD names a branch that does not exist, as `git init --bare`
// leaves it before anyone pushes the branch it names (HEAD -> master while main was pushed).
// The hub follows its source branch by name, so HEAD must not matter: `hub --once` renders and
// pushes, over protocol v2 and from a server that speaks only v0 (issue 27 point 4: there
// isomorphic-git's fetch looked for HEAD). And when the source branch really is missing, the
// message says what the server listed.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { remoteHubRepo } from '../../src/adapters/remote/remote-hub-repo.js';
import { isRemoteError } from '../../src/adapters/remote/remote-error.js';
import { agentMirrorRefs } from '../../src/loops/agent/agent-repo.js';
import { git, gitSync, makeServedRepo, removeTempDirs, tempDir } from '../git-server/git-cli.js';
import { startGitServer, type GitServer } from '../git-server/start-git-server.js';
import { repoRoot, runCliProcess } from './fault-fixture.js';

after(removeTempDirs);

/** Serves a bare repository whose HEAD is refs/heads/master and pushes the example fleet to `branches`. */
async function servedWithDanglingHead(
  branches: readonly string[],
  opts: { v0Only?: boolean } = {},
): Promise<{ server: GitServer; url: string; served: string }> {
  const root = tempDir('served');
  const served = makeServedRepo(root, 'fleet.git');
  gitSync(served, ['symbolic-ref', 'HEAD', 'refs/heads/master']);
  const server = await startGitServer({ root, ...opts });
  const url = server.url('fleet.git');
  if (branches.length > 0) {
    const work = tempDir('work');
    cpSync(join(repoRoot, 'examples/fleet-repo'), work, { recursive: true });
    await git(work, ['-c', 'init.defaultBranch=main', 'init', '-q']);
    await git(work, ['add', '-A']);
    await git(work, ['commit', '-qm', 'the example fleet']);
    await git(work, ['push', '-q', url, ...branches.map((b) => `HEAD:refs/heads/${b}`)]);
  }
  return { server, url, served };
}

for (const v0Only of [false, true]) {
  const over = v0Only ? ' (a server that speaks only protocol v0)' : '';
  test(
    `hub --once renders a fleet whose served HEAD names a branch nobody pushed (HEAD -> master, main pushed)${over}.`,
    { timeout: 120_000 },
    async () => {
      const { server, url, served } = await servedWithDanglingHead(['main'], { v0Only });
      try {
        const run = await runCliProcess(['hub', '--repo', url, '--once', '--cache-dir', tempDir('cache')]);
        assert.equal(run.code, 0, run.stderr);
        const pushed = gitSync(served, ['for-each-ref', '--format=%(refname)', 'refs/heads/gitfleet/']);
        assert.match(pushed, /^refs\/heads\/gitfleet\/bindings$/m);
        assert.match(pushed, /^refs\/heads\/gitfleet\/clusters\/aws-eu-prod$/m);
        // A second pass, with the mirror made, changes nothing and still works.
        const again = await runCliProcess(['hub', '--repo', url, '--once', '--cache-dir', tempDir('cache')]);
        assert.equal(again.code, 0, again.stderr);
      } finally {
        await server.close();
      }
    },
  );

  test(
    `An agent mirror fetches its branches from a server whose HEAD names a missing branch${over}.`,
    { timeout: 60_000 },
    async () => {
      const { server, url, served } = await servedWithDanglingHead(['main', 'gitfleet/clusters/m1'], {
        v0Only,
      });
      try {
        const agent = remoteHubRepo({
          url,
          cacheDir: tempDir('cache'),
          mirrorKey: 'agent m1',
          sourceRef: 'gitfleet/clusters/m1',
          branchPrefix: 'gitfleet/',
          onlyRefs: agentMirrorRefs('gitfleet/', 'm1'),
        });
        await agent.refresh();
        const ours = await git(agent.gitdir, ['rev-parse', 'refs/heads/gitfleet/clusters/m1']);
        assert.match(ours, /^[0-9a-f]{40}$/);
        // A later commit comes over a fetch that offers what the mirror has (ACK lines in v0).
        const next = gitSync(served, [
          'commit-tree',
          '-p',
          ours.trim(),
          '-m',
          'next',
          `${ours.trim()}^{tree}`,
        ]);
        gitSync(served, ['update-ref', 'refs/heads/gitfleet/clusters/m1', next.trim()]);
        await agent.refresh();
        const after = await git(agent.gitdir, ['rev-parse', 'refs/heads/gitfleet/clusters/m1']);
        assert.equal(after.trim(), next.trim());
      } finally {
        await server.close();
      }
    },
  );
}

test(
  'hub --once on a repository without the source branch names the branches the server lists.',
  { timeout: 60_000 },
  async () => {
    const { server, url } = await servedWithDanglingHead(['master', 'dev']);
    try {
      const run = await runCliProcess(['hub', '--repo', url, '--once', '--cache-dir', tempDir('cache')]);
      assert.equal(run.code, 1, run.stderr);
      assert.match(
        run.stderr,
        /refs\/heads\/main: not on http:\/\/127\.0\.0\.1:\d+\/fleet\.git \(the server lists refs\/heads\/dev, refs\/heads\/master\); push the fleet repository's source branch first/,
      );
    } finally {
      await server.close();
    }
  },
);

test('A refresh of an empty repository says the server lists no branch.', { timeout: 30_000 }, async () => {
  const { server, url } = await servedWithDanglingHead([]);
  try {
    const hub = remoteHubRepo({
      url,
      cacheDir: tempDir('cache'),
      sourceRef: 'main',
      branchPrefix: 'gitfleet/',
    });
    await assert.rejects(hub.refresh(), (error: unknown) => {
      assert.ok(isRemoteError(error, 'MissingRef'), String(error));
      assert.match(error.message, /^refs\/heads\/main: not on \S+ \(the server lists no branch\); push/);
      return true;
    });
  } finally {
    await server.close();
  }
});

test(
  'An agent mirror whose cluster branch is missing says which branches it asked for and which the server has.',
  { timeout: 60_000 },
  async () => {
    const { server, url } = await servedWithDanglingHead(['main', 'gitfleet/bindings']);
    try {
      const agent = remoteHubRepo({
        url,
        cacheDir: tempDir('cache'),
        mirrorKey: 'agent m1',
        sourceRef: 'gitfleet/clusters/m1',
        branchPrefix: 'gitfleet/',
        onlyRefs: agentMirrorRefs('gitfleet/', 'm1'),
      });
      await assert.rejects(agent.refresh(), (error: unknown) => {
        assert.ok(isRemoteError(error, 'MissingRef'), String(error));
        assert.match(
          error.message,
          /^refs\/heads\/gitfleet\/clusters\/m1: not on \S+ \(of refs\/heads\/gitfleet\/clusters\/m1, .*, the server lists refs\/heads\/gitfleet\/bindings\)/,
        );
        return true;
      });
    } finally {
      await server.close();
    }
  },
);
