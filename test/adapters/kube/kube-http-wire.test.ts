// KubeHttp on the wire, against local TLS servers: HTTP/2 when the server offers it (one
// connection for many requests), HTTP/1.1 when it does not, a dropped connection replaced, a
// request that gets no answer timed out on its own, a 429 waited out, and an idle connection
// that does not keep the process alive.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { KubeApiError } from '../../../src/adapters/kube/kube-error.js';
import { KubeHttp } from '../../../src/adapters/kube/kube-http.js';
import { mapConcurrent } from '../../../src/adapters/map-concurrent.js';
import { hasOpenssl, startTestServer, testToken, type Seen } from './tls-server-fixture.js';

const skip = hasOpenssl ? false : 'the openssl command line is not installed';

const echo = (s: Seen) => ({ status: 200, body: JSON.stringify({ path: s.path, body: s.body }) });

for (const protocol of ['h2', 'http/1.1'] as const) {
  test(
    `a server speaking only ${protocol} gets every request, query, credentials and body over ${protocol}`,
    { skip },
    async (t) => {
      const server = await startTestServer(protocol, echo);
      const http = new KubeHttp(server.kubeconfig);
      t.after(async () => {
        http.close();
        await server.close();
      });
      const answers = await mapConcurrent(
        Array.from({ length: 40 }, (_, i) => i),
        16,
        (i) =>
          http.request({
            method: 'PATCH',
            path: `/api/v1/namespaces/ns/configmaps/cm-${i}`,
            query: { fieldManager: 'gitfleet', force: i % 2 ? 'true' : undefined },
            body: JSON.stringify({ index: i }),
            contentType: 'application/apply-patch+yaml',
          }),
      );
      for (const [i, a] of answers.entries()) {
        assert.equal(a.status, 200);
        assert.deepEqual(JSON.parse(a.body), {
          path: `/api/v1/namespaces/ns/configmaps/cm-${i}?fieldManager=gitfleet${i % 2 ? '&force=true' : ''}`,
          body: JSON.stringify({ index: i }),
        });
      }
      assert.equal(http.protocol(), protocol);
      assert.ok(server.seen.every((s) => s.authorization === `Bearer ${testToken}`));
      assert.ok(server.seen.every((s) => s.contentType === 'application/apply-patch+yaml'));
      assert.deepEqual(http.requestCounts(), { total: 40, mutating: 40, dryRun: 0 });
      if (protocol === 'h2') assert.equal(server.connections(), 1, 'one connection for every request');
    },
  );
}

test(
  'a connection the server drops fails the requests on it, and the next request opens a new one',
  { skip },
  async (t) => {
    const server = await startTestServer('h2', (s) => (s.path.startsWith('/drop') ? 'drop' : echo(s)));
    const http = new KubeHttp(server.kubeconfig);
    t.after(async () => {
      http.close();
      await server.close();
    });
    assert.equal((await http.request({ method: 'GET', path: '/before' })).status, 200);
    await assert.rejects(http.request({ method: 'GET', path: '/drop' }), (error: unknown) => {
      assert.ok(error instanceof KubeApiError);
      assert.equal(error.refusal.code, 0);
      assert.match(error.message, /^GET \/drop: no answer: /);
      return true;
    });
    assert.equal((await http.request({ method: 'GET', path: '/after' })).status, 200);
    assert.equal(server.connections(), 2);
  },
);

test(
  'a request the server never answers times out alone; the connection, still answering, is kept',
  { skip },
  async (t) => {
    const server = await startTestServer('h2', (s) => (s.path === '/hang' ? 'hang' : echo(s)));
    const http = new KubeHttp(server.kubeconfig);
    t.after(async () => {
      http.close();
      await server.close();
    });
    await assert.rejects(
      http.request({ method: 'GET', path: '/hang', timeoutMs: 300 }),
      /no answer: timed out after 300 ms/,
    );
    assert.equal((await http.request({ method: 'GET', path: '/next' })).status, 200);
    assert.equal(server.connections(), 1);
  },
);

test('a 429 over HTTP/2 is sent again after the Retry-After the server names', { skip }, async (t) => {
  let refused = 0;
  const server = await startTestServer('h2', (s) =>
    refused++ === 0 ? { status: 429, headers: { 'retry-after': '1' }, body: '{}' } : echo(s),
  );
  const http = new KubeHttp(server.kubeconfig);
  t.after(async () => {
    http.close();
    await server.close();
  });
  const answer = await http.request({ method: 'GET', path: '/throttled' });
  assert.equal(answer.status, 200);
  assert.equal(server.seen.length, 2);
});

test('an idle HTTP/2 connection does not keep the process alive', { skip }, async (t) => {
  const server = await startTestServer('h2', echo);
  t.after(() => server.close());
  const kubeHttp = new URL('../../../src/adapters/kube/kube-http.js', import.meta.url).href;
  const script = `
    import { KubeConfig } from '@kubernetes/client-node';
    import { KubeHttp } from ${JSON.stringify(kubeHttp)};
    const kc = new KubeConfig();
    kc.loadFromString(process.env.KUBECONFIG_TEXT);
    const http = new KubeHttp(kc);
    const a = await http.request({ method: 'GET', path: '/one' });
    console.log(a.status, http.protocol());`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: new URL('../../../', import.meta.url).pathname,
    env: { ...process.env, KUBECONFIG_TEXT: server.kubeconfig.exportConfig() },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  // Not a timing assertion: a child the connection kept alive would never exit by itself. The
  // guard starts once the child has printed its answer (a loaded machine may take long to get
  // there), and then allows far more than an idle connection's lifetime.
  let guard: NodeJS.Timeout | undefined;
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString('utf8');
    guard ??= setTimeout(() => child.kill('SIGKILL'), 30_000);
  });
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  clearTimeout(guard);
  assert.equal(signal, null, 'the child exited by itself, nothing left to keep it alive');
  assert.equal(code, 0);
  assert.equal(out.trim(), '200 h2');
});

test(
  'a watch line its reader cannot take (garbage from a proxy) fails that watch, never the process (issue 27 point 1)',
  { skip },
  async (t) => {
    const server = await startTestServer('http/1.1', () => ({
      status: 200,
      body: '{"type":"ADDED","object":{}}\n<html>maintenance</html>\n',
    }));
    const http = new KubeHttp(server.kubeconfig);
    t.after(async () => {
      http.close();
      await server.close();
    });
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown): void => void uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    t.after(() => process.off('uncaughtException', onUncaught));
    const lines: string[] = [];
    await assert.rejects(
      http.stream(
        { method: 'GET', path: '/api/v1/configmaps', query: { watch: '1' } },
        (line) => lines.push(JSON.stringify(JSON.parse(line))),
        new AbortController().signal,
      ),
      /GET \/api\/v1\/configmaps.*(Unexpected token|not valid JSON)/,
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(uncaught, []);
    assert.deepEqual(lines, ['{"type":"ADDED","object":{}}']);
  },
);
