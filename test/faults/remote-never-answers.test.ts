// Fault: the git server accepts the connection and never answers. Every request must give up
// after its silence limit (Unreachable, retried later), stopping must abort a request in
// flight, and a running hub must exit promptly on SIGTERM however long the remote stays quiet.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { remoteHubRepo } from '../../src/adapters/remote/remote-hub-repo.js';
import { isRemoteError } from '../../src/adapters/remote/remote-error.js';
import { removeTempDirs, tempDir } from '../git-server/git-cli.js';
import { startSilentServer, type SilentServer } from '../git-server/start-faulty-proxy.js';

after(removeTempDirs);
// A child left running by a failing test is killed, so the test process can end.
const children = new Set<ReturnType<typeof spawn>>();
after(() => {
  for (const child of children) child.kill('SIGKILL');
});

const root = fileURLToPath(new URL('../../../', import.meta.url));
const bin = `${root}bin/gitfleet.js`;

function hubOf(server: SilentServer, extra: { idleMs: number; signal?: AbortSignal }) {
  return remoteHubRepo({
    url: server.url('fleet.git'),
    cacheDir: tempDir('cache'),
    sourceRef: 'main',
    branchPrefix: 'gitfleet/',
    timeouts: { connectMs: 5000, idleMs: extra.idleMs },
    ...(extra.signal ? { signal: extra.signal } : {}),
  });
}

const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8);

/** Resolves once the server has accepted a connection (the request is in flight). */
async function untilAccepted(server: SilentServer): Promise<void> {
  while (server.accepted === 0) await new Promise((resolve) => setTimeout(resolve, 20));
}

test(
  'A refresh and a publish against a server that never answers fail as Unreachable after the silence limit.',
  { timeout: 20_000 },
  async () => {
    const server = await startSilentServer();
    try {
      const hub = hubOf(server, { idleMs: 300 });
      const unreachable = (error: unknown): boolean => {
        assert.ok(isRemoteError(error, 'Unreachable'), String(error));
        assert.equal(error.terminal, false);
        assert.match(
          error.message,
          /^http:\/\/127\.0\.0\.1:\d+\/fleet\.git: (fetch|push) failed: ETIMEDOUT: no answer for 300 ms/,
        );
        return true;
      };
      await assert.rejects(hub.refresh(), unreachable);
      const oid = '1'.repeat(40);
      await assert.rejects(
        hub.publish([{ ref: 'refs/heads/gitfleet/clusters/a', oldOid: null, newOid: oid }]),
        unreachable,
      );
    } finally {
      await server.close();
    }
  },
);

test(
  'Aborting stops a request in flight at once, whatever the silence limit.',
  { timeout: 20_000 },
  async () => {
    const server = await startSilentServer();
    try {
      const stopping = new AbortController();
      const hub = hubOf(server, { idleMs: 600_000, signal: stopping.signal });
      const refresh = hub.refresh();
      await untilAccepted(server);
      stopping.abort();
      await assert.rejects(refresh, /request aborted: gitfleet is stopping/);
    } finally {
      await server.close();
    }
  },
);

/** Runs the CLI as a child process; resolves to its exit code (or signal) and output. */
function startCli(args: string[], env: NodeJS.ProcessEnv) {
  const xdg = tempDir('xdg');
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: root,
    env: { ...process.env, XDG_CACHE_HOME: xdg, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stderr })),
  );
  return { child, exited, mirrors: join(xdg, 'gitfleet', 'mirrors') };
}

test(
  'hub --once against a server that never answers exits 1 after $GITFLEET_GIT_IDLE_TIMEOUT, naming the remote.',
  { timeout: 30_000 },
  async () => {
    const server = await startSilentServer();
    try {
      const run = startCli(['hub', '--repo', server.url('fleet.git'), '--once'], {
        GITFLEET_GIT_IDLE_TIMEOUT: '300ms',
      });
      const { code, stderr } = await run.exited;
      assert.equal(code, 1, stderr);
      assert.match(
        stderr,
        /http:\/\/127\.0\.0\.1:\d+\/fleet\.git: fetch failed: ETIMEDOUT: no answer for 300 ms/,
      );
      // The mirror it made on the way is private: directories 700, files 600.
      const [mirror = ''] = readdirSync(run.mirrors);
      assert.equal(modeOf(run.mirrors), '700');
      assert.equal(modeOf(join(run.mirrors, mirror)), '700');
      assert.equal(modeOf(join(run.mirrors, mirror, 'config')), '600');
    } finally {
      await server.close();
    }
  },
);

test(
  'A running hub whose request hangs stops on SIGTERM without waiting for the silence limit.',
  { timeout: 30_000 },
  async () => {
    const server = await startSilentServer();
    try {
      // Default limits (30 s of silence) and a long interval: only the abort can end the pass early.
      const run = startCli(['hub', '--repo', server.url('fleet.git'), '--interval', '1h'], {});
      await untilAccepted(server);
      run.child.kill('SIGTERM');
      const { code, signal, stderr } = await run.exited;
      assert.equal(signal, null, stderr);
      assert.equal(code, 0, stderr);
      assert.match(stderr, /hub: stopping/);
      assert.match(stderr, /request aborted: gitfleet is stopping \(stopping; not retried\)/);
      assert.match(stderr, /hub: stopped/);
    } finally {
      await server.close();
    }
  },
);

test(
  'A running agent whose request to Git hangs stops on SIGTERM without waiting for the silence limit.',
  { timeout: 30_000 },
  async () => {
    const server = await startSilentServer();
    // The agent reaches Git first; its cluster (an address nothing listens on) is never asked.
    const kubeconfig = join(tempDir('kube'), 'config');
    writeFileSync(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]',
        'users: [{name: u, user: {token: t}}]',
        'contexts: [{name: c, context: {cluster: c, user: u}}]',
        'current-context: c',
      ].join('\n'),
    );
    try {
      const run = startCli(
        [
          'agent',
          '--repo',
          server.url('fleet.git'),
          '--cluster',
          'member1',
          '--kubeconfig',
          kubeconfig,
          '--interval',
          '1h',
          '--no-lease',
        ],
        {},
      );
      await untilAccepted(server);
      run.child.kill('SIGTERM');
      const { code, signal, stderr } = await run.exited;
      assert.equal(signal, null, stderr);
      assert.equal(code, 0, stderr);
      assert.match(stderr, /agent member1: stopped/);
    } finally {
      await server.close();
    }
  },
);
