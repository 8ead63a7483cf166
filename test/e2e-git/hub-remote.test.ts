// The hub against a remote repository, end to end over real smart HTTP: a user pushes the
// example fleet with the git command line, the hub pass renders it through a fetched mirror
// and pushes the branches back, and git itself clones and checks what arrived.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { remoteHubRepo } from '../../src/adapters/remote/remote-hub-repo.js';
import { RemoteError } from '../../src/adapters/remote/remote-error.js';
import { runHubPass } from '../../src/loops/hub/hub-pass.js';
import { silentLogger } from '../../src/loops/runtime/logger.js';
import { git, makeServedRepo, removeTempDirs, tempDir } from '../git-server/git-cli.js';
import { startGitServer, type GitServer } from '../git-server/start-git-server.js';

after(removeTempDirs);

const exampleFleet = new URL('../../../examples/fleet-repo', import.meta.url).pathname;
const clusters = ['aws-eu-prod', 'aws-us-prod', 'gcp-eu-prod', 'gcp-eu-staging', 'onprem-gpu'];
const token = 'e2e-token-0123456789';
const slow = { timeout: 300_000 };

interface Setup {
  server: GitServer;
  served: string;
  url: string;
  work: string;
}

/** Serves an empty repository (token required) and pushes the example fleet to main with git. */
async function pushExampleFleet(): Promise<Setup> {
  const root = tempDir('served');
  const served = makeServedRepo(root, 'fleet.git');
  const server = await startGitServer({ root, token });
  const url = server.url('fleet.git');
  const work = tempDir('fleet');
  cpSync(exampleFleet, work, { recursive: true });
  await git(work, ['-c', 'init.defaultBranch=main', 'init', '-q']);
  await git(work, ['add', '.']);
  await git(work, ['commit', '-q', '-m', 'the example fleet']);
  await git(work, [...auth(), 'push', '-q', url, 'main']);
  return { server, served, url, work };
}

function auth(): string[] {
  return ['-c', `http.extraHeader=Authorization: Bearer ${token}`];
}

/** One hub pass against the remote through a mirror in `cacheDir`. */
function pass(setup: Setup, cacheDir: string, time: number) {
  const repo = remoteHubRepo({
    url: setup.url,
    cacheDir,
    token,
    sourceRef: 'main',
    branchPrefix: 'gitfleet/',
  });
  return runHubPass({
    repo,
    sourceRef: 'main',
    identity: { name: 'gitfleet', email: 'hub@gitfleet.invalid' },
    now: () => new Date(time * 1000),
    log: silentLogger(),
  });
}

/** Clones the served repository with git and returns the clone's directory. */
async function cloneServed(setup: Setup): Promise<string> {
  const clone = tempDir('clone');
  await git(clone, [...auth(), 'clone', '-q', '--no-checkout', setup.url, '.']);
  return clone;
}

test(
  'The hub renders a fleet pushed to a remote, pushes every cluster branch and the bindings, and git sees sound branches.',
  slow,
  async () => {
    const setup = await pushExampleFleet();
    try {
      const cacheDir = tempDir('cache');
      const first = await pass(setup, cacheDir, 1_700_000_000);
      assert.equal(first.type, 'rendered');

      const clone = await cloneServed(setup);
      const branches = (await git(clone, ['branch', '-r', '--format=%(refname:short)'])).split('\n').sort();
      for (const c of clusters)
        assert.ok(branches.includes(`origin/gitfleet/clusters/${c}`), `${c}: ${branches.join(' ')}`);
      assert.ok(branches.includes('origin/gitfleet/bindings'));
      const files = await git(clone, [
        'ls-tree',
        '-r',
        '--name-only',
        'origin/gitfleet/clusters/aws-eu-prod',
      ]);
      assert.match(files, /^shop\/Deployment\.apps\/web\.yaml$/m);
      await git(clone, ['fsck', '--strict', '--no-dangling']);
      await git(setup.served, ['fsck', '--strict', '--no-dangling']);

      // A second pass over the same source commit writes and pushes nothing.
      const before = await git(setup.served, ['for-each-ref', '--format=%(refname) %(objectname)']);
      const again = await pass(setup, cacheDir, 1_700_000_100);
      assert.equal(again.type, 'upToDate');
      assert.equal(await git(setup.served, ['for-each-ref', '--format=%(refname) %(objectname)']), before);
    } finally {
      await setup.server.close();
    }
  },
);

test(
  'A change pushed to the source branch updates the cluster branch on the remote with a commit on top of the last one.',
  slow,
  async () => {
    const setup = await pushExampleFleet();
    try {
      const cacheDir = tempDir('cache');
      await pass(setup, cacheDir, 1_700_000_000);
      const branch = 'refs/heads/gitfleet/clusters/aws-eu-prod';
      const firstRender = await git(setup.served, ['rev-parse', branch]);

      const web = join(setup.work, 'apps/shop/web.yaml');
      writeFileSync(web, readFileSync(web, 'utf8').replace('shop/web:1.8.0', 'shop/web:1.9.0'));
      await git(setup.work, ['commit', '-q', '-am', 'web 1.9.0']);
      await git(setup.work, [...auth(), 'push', '-q', setup.url, 'main']);
      const source = await git(setup.work, ['rev-parse', 'HEAD']);

      const second = await pass(setup, cacheDir, 1_700_000_200);
      assert.equal(second.type, 'rendered');
      const clone = await cloneServed(setup);
      const render = await git(clone, ['rev-parse', `origin/gitfleet/clusters/aws-eu-prod`]);
      assert.notEqual(render, firstRender);
      assert.equal(await git(clone, ['rev-parse', `${render}^`]), firstRender);
      assert.match(
        await git(clone, ['show', `${render}:shop/Deployment.apps/web.yaml`]),
        /shop\/web:1\.9\.0/,
      );
      assert.match(
        await git(clone, ['log', '-1', '--format=%B', render]),
        new RegExp(`Gitfleet-Source-Commit: ${source}`),
      );
      await git(clone, ['fsck', '--strict', '--no-dangling']);
    } finally {
      await setup.server.close();
    }
  },
);

test(
  'When another writer moves a cluster branch on the remote during a pass, the push is rejected without overwriting it, and the hub builds on their commit.',
  slow,
  async () => {
    const setup = await pushExampleFleet();
    try {
      const cacheDir = tempDir('cache');
      await pass(setup, cacheDir, 1_700_000_000);
      const branch = 'refs/heads/gitfleet/clusters/aws-eu-prod';
      const web = join(setup.work, 'apps/shop/web.yaml');
      writeFileSync(web, readFileSync(web, 'utf8').replace('shop/web:1.8.0', 'shop/web:2.0.0'));
      await git(setup.work, ['commit', '-q', '-am', 'web 2.0.0']);
      await git(setup.work, [...auth(), 'push', '-q', setup.url, 'main']);

      // Between the pass's fetch and its push, someone else commits on the hub's branch.
      let theirs = '';
      const otherWriter = async (): Promise<void> => {
        if (theirs !== '') return;
        const other = await cloneServed(setup);
        await git(other, ['checkout', '-q', '-f', '-b', 'x', branch.replace('refs/heads/', 'origin/')]);
        assert.match(readFileSync(join(other, 'shop/Deployment.apps/web.yaml'), 'utf8'), /shop\/web:1\.8\.0/);
        writeFileSync(join(other, 'shop/Deployment.apps/web.yaml'), 'hand edited\n');
        await git(other, ['add', '.']);
        await git(other, ['commit', '-q', '-m', 'a hand edit']);
        await git(other, [...auth(), 'push', '-q', 'origin', `x:${branch}`]);
        theirs = await git(other, ['rev-parse', 'HEAD']);
      };
      const repo = remoteHubRepo({
        url: setup.url,
        cacheDir,
        token,
        sourceRef: 'main',
        branchPrefix: 'gitfleet/',
      });
      const racing = runHubPass({
        repo,
        sourceRef: 'main',
        identity: { name: 'gitfleet', email: 'hub@gitfleet.invalid' },
        now: () => new Date(1_700_000_300 * 1000),
        log: silentLogger(),
        hooks: { afterObjectsWritten: otherWriter },
      });
      // Either the pass gives up with PushRejected (the loop runs it again), or it re-reads and
      // retries by itself; in both cases their commit must survive.
      const outcome = await racing.catch((e: unknown) => e);
      assert.notEqual(theirs, '', `the other writer pushed during the pass: ${String(outcome)}`);
      if (outcome instanceof RemoteError) {
        assert.equal(outcome.code, 'PushRejected');
        assert.equal(
          await git(setup.served, ['rev-parse', branch]),
          theirs,
          'a rejected push overwrites nothing',
        );
        const retried = await pass(setup, cacheDir, 1_700_000_400);
        assert.equal(retried.type, 'rendered');
      } else {
        assert.ok(!(outcome instanceof Error), String(outcome));
      }
      const head = await git(setup.served, ['rev-parse', branch]);
      await git(setup.served, ['merge-base', '--is-ancestor', theirs, head]);
      assert.match(
        await git(setup.served, ['show', `${head}:shop/Deployment.apps/web.yaml`]),
        /shop\/web:2\.0\.0/,
      );
      await git(setup.served, ['fsck', '--strict', '--no-dangling']);
    } finally {
      await setup.server.close();
    }
  },
);

test(
  'gitfleet hub --repo <url> --once renders through a mirror, with the token from a file, never printed',
  slow,
  async () => {
    const { runCli } = await import('../cli/run-cli.js');
    const setup = await pushExampleFleet();
    try {
      const tokenFile = join(tempDir('token'), 'token');
      writeFileSync(tokenFile, `${token}\n`);
      const run = await runCli([
        'hub',
        '--repo',
        setup.url,
        '--once',
        '--token-file',
        tokenFile,
        '--cache-dir',
        tempDir('mirrors'),
      ]);
      assert.equal(run.code, 0, run.stderr);
      assert.ok(!`${run.stdout}${run.stderr}`.includes(token), 'the token never appears in output');
      const heads = await git(setup.served, ['for-each-ref', '--format=%(refname)', 'refs/heads/gitfleet/']);
      for (const cluster of clusters)
        assert.match(heads, new RegExp(`refs/heads/gitfleet/clusters/${cluster}$`, 'm'));
      await git(setup.served, ['fsck', '--strict']);
    } finally {
      await setup.server.close();
    }
  },
);
