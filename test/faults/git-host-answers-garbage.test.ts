// Fault: the Git host answers, but not with Git: a maintenance page served with status 200, a
// 500, a 503 with a retry hint. A fetch that yields garbage must never be read as "the fleet is
// empty" (the mistake behind whole fleets deleted by other tools): the hub fails the pass with a
// message naming the remote, writes and pushes nothing, and works again once the host is back.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { git, gitSync, makeServedRepo, removeTempDirs, tempDir } from '../git-server/git-cli.js';
import { startGitServer } from '../git-server/start-git-server.js';
import { repoRoot, runCliProcess } from './fault-fixture.js';

after(removeTempDirs);

type Mode = 'git' | 'maintenance-page' | 'server-error' | 'unavailable';

/** A proxy in front of the git server whose answers can be switched from Git to garbage. */
async function switchingProxy(target: URL): Promise<{ server: Server; url: string; mode: { now: Mode } }> {
  const mode = { now: 'git' as Mode };
  const server = createServer((req, res) => {
    if (mode.now === 'maintenance-page') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body><h1>We are down for maintenance</h1></body></html>');
      return;
    }
    if (mode.now === 'server-error' || mode.now === 'unavailable') {
      res.writeHead(mode.now === 'server-error' ? 500 : 503, { 'retry-after': '120' });
      res.end('internal error');
      return;
    }
    const forward = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}${target.pathname}`, mode };
}

test('a Git host answering garbage fails the pass, pushes nothing, and the hub recovers when it answers again', async () => {
  const root = tempDir('served');
  const served = makeServedRepo(root, 'fleet.git');
  const gitServer = await startGitServer({ root });
  const work = tempDir('work');
  cpSync(join(repoRoot, 'examples/fleet-repo'), work, { recursive: true });
  await git(work, ['-c', 'init.defaultBranch=main', 'init', '-q']);
  await git(work, ['add', '-A']);
  await git(work, ['commit', '-qm', 'initial fleet']);
  await git(work, ['push', '-q', gitServer.url('fleet.git'), 'main']);
  const proxy = await switchingProxy(new URL(gitServer.url('fleet.git')));
  const cacheDir = tempDir('cache');
  const hub = (): ReturnType<typeof runCliProcess> =>
    runCliProcess(['hub', '--repo', proxy.url, '--once', '--cache-dir', cacheDir]);
  const servedRefs = (): string => gitSync(served, ['for-each-ref', '--format=%(refname) %(objectname)']);
  try {
    const first = await hub();
    assert.equal(first.code, 0, first.stderr);
    const rendered = servedRefs();
    assert.match(rendered, /refs\/heads\/gitfleet\/bindings/);

    // A new source commit is there to render, but the host stops speaking Git.
    await git(work, ['commit', '-q', '--allow-empty', '-m', 'a change during the outage']);
    await git(work, ['push', '-q', gitServer.url('fleet.git'), 'main']);
    const withNewSource = servedRefs();
    for (const garbage of ['maintenance-page', 'server-error', 'unavailable'] as const) {
      proxy.mode.now = garbage;
      const run = await hub();
      assert.equal(run.code, 1, `${garbage}: the pass fails: ${run.stdout}${run.stderr}`);
      assert.match(run.stderr, /127\.0\.0\.1/, `${garbage}: the message names the remote`);
      assert.equal(servedRefs(), withNewSource, `${garbage}: nothing was pushed`);
    }

    proxy.mode.now = 'git';
    const back = await hub();
    assert.equal(back.code, 0, back.stderr);
    assert.match(back.stdout, /a change during the outage/);
    assert.notEqual(servedRefs(), withNewSource, 'the pending commit is rendered once the host is back');
  } finally {
    await new Promise((resolve) => proxy.server.close(resolve));
    await gitServer.close();
  }
});
