// Fault: the git server answers, one byte at a time, slowly enough to stay under the silence
// limit and never finishing (a stuck server or proxy trickling keep-alive bytes). The silence
// limit cannot end such a request; each operation's overall deadline does: a fetch, a push,
// an ls-refs fail as Unreachable naming the remote and the operation, and `hub --once` exits 1.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { remoteHubRepo } from '../../src/adapters/remote/remote-hub-repo.js';
import { isRemoteError } from '../../src/adapters/remote/remote-error.js';
import { remoteTimeoutsFromEnv } from '../../src/cli/commands/remote-timeouts-from-env.js';
import { removeTempDirs, tempDir } from '../git-server/git-cli.js';
import { runCliProcess } from './fault-fixture.js';

after(removeTempDirs);

/** An HTTP server on 127.0.0.1 that answers every request 200 and then sends one byte every `everyMs`, never ending. */
async function startDrippingServer(everyMs: number) {
  const open = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    req.resume();
    const service = /service=(git-[a-z-]+)/.exec(req.url ?? '')?.[1] ?? 'git-upload-pack';
    const kind = req.method === 'GET' ? `${service}-advertisement` : `${service}-result`;
    res.writeHead(200, { 'Content-Type': `application/x-${kind}` });
    open.add(res);
    const timer = setInterval(() => res.write('0'), everyMs);
    timers.add(timer);
    res.on('close', () => {
      clearInterval(timer);
      open.delete(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/fleet.git`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearInterval(t);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

test(
  'A fetch, a push and an ls-refs against a server that drips bytes fail at their deadline, naming the remote and the operation.',
  { timeout: 30_000 },
  async () => {
    const server = await startDrippingServer(50);
    try {
      const hub = remoteHubRepo({
        url: server.url,
        cacheDir: tempDir('cache'),
        sourceRef: 'main',
        branchPrefix: 'gitfleet/',
        timeouts: {
          connectMs: 5000,
          idleMs: 300,
          fetchDeadlineMs: 700,
          pushDeadlineMs: 600,
          lsRefsDeadlineMs: 500,
        },
      });
      const atDeadline = (operation: string, ms: number) => (error: unknown) => {
        assert.ok(isRemoteError(error, 'Unreachable'), String(error));
        assert.equal(error.terminal, false);
        assert.match(
          error.message,
          new RegExp(
            `^http://127\\.0\\.0\\.1:\\d+/fleet\\.git: ${operation} failed: ETIMEDOUT: not done within ${ms} ms, the deadline of one ${operation}`,
          ),
        );
        return true;
      };
      // The message names which deadline ended it (not the 5 s connect timeout, not something later).
      await assert.rejects(hub.refresh(), atDeadline('fetch', 700));
      const oid = '1'.repeat(40);
      await assert.rejects(
        hub.publish([{ ref: 'refs/heads/gitfleet/clusters/a', oldOid: null, newOid: oid }]),
        atDeadline('push', 600),
      );
      await assert.rejects(hub.probeSource(), atDeadline('ls-refs', 500));
    } finally {
      await server.close();
    }
  },
);

test(
  'hub --once against a dripping server exits 1 at $GITFLEET_GIT_FETCH_DEADLINE, naming the remote and the fetch.',
  { timeout: 30_000 },
  async () => {
    const server = await startDrippingServer(50);
    try {
      const run = await runCliProcess(
        ['hub', '--repo', server.url, '--once', '--cache-dir', tempDir('cache')],
        {
          GITFLEET_GIT_IDLE_TIMEOUT: '300ms',
          GITFLEET_GIT_FETCH_DEADLINE: '1s',
        },
      );
      assert.equal(run.code, 1, run.stderr);
      assert.match(
        run.stderr,
        /http:\/\/127\.0\.0\.1:\d+\/fleet\.git: fetch failed: ETIMEDOUT: not done within 1 s, the deadline of one fetch \(\$GITFLEET_GIT_FETCH_DEADLINE\)/,
      );
    } finally {
      await server.close();
    }
  },
);

test('The deadlines have documented defaults and are read from the environment.', () => {
  assert.deepEqual(remoteTimeoutsFromEnv({}), {
    connectMs: 10_000,
    idleMs: 30_000,
    fetchDeadlineMs: 300_000,
    pushDeadlineMs: 300_000,
    lsRefsDeadlineMs: 60_000,
  });
  const set = remoteTimeoutsFromEnv({
    GITFLEET_GIT_FETCH_DEADLINE: '10m',
    GITFLEET_GIT_PUSH_DEADLINE: '90s',
    GITFLEET_GIT_LS_REFS_DEADLINE: '5s',
  });
  assert.deepEqual([set.fetchDeadlineMs, set.pushDeadlineMs, set.lsRefsDeadlineMs], [600_000, 90_000, 5000]);
  assert.throws(
    () => remoteTimeoutsFromEnv({ GITFLEET_GIT_PUSH_DEADLINE: 'soon' }),
    /\$GITFLEET_GIT_PUSH_DEADLINE/,
  );
});
