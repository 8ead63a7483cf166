import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, createServer } from 'node:net';
import { request, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMetricsServer, MetricsServerError } from '../../../src/adapters/http/metrics-server.js';
import { Readiness } from '../../../src/loops/runtime/readiness.js';
import { prometheusMetrics } from '../../../src/adapters/metrics/prometheus-metrics.js';

/** Returns the status, content type and body of `method url`. */
async function get(url: string, method = 'GET', agent?: Agent) {
  return new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
    const req = request(url, { method, ...(agent ? { agent } : {}) }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

test('/readyz says why not until the first pass is done, then 200; /healthz is 200 until the loop stops', async () => {
  const readiness = new Readiness();
  const prom = prometheusMetrics({ kind: 'hub' });
  const server = await startMetricsServer({ port: 0, readiness, scrape: () => prom.scrape() });
  try {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.deepEqual(await get(`${server.url}/readyz`).then((r) => [r.status, r.body]), [
      503,
      'the first pass has not finished\n',
    ]);
    assert.equal((await get(`${server.url}/healthz`)).status, 200);
    readiness.firstPassDone();
    assert.deepEqual(await get(`${server.url}/readyz`).then((r) => [r.status, r.body]), [200, 'ok\n']);
    readiness.setLeading(false);
    assert.deepEqual(await get(`${server.url}/readyz`).then((r) => [r.status, r.body]), [
      503,
      'standing by: another replica holds the lease\n',
    ]);
    readiness.setLeading(true);
    readiness.setStopped();
    assert.equal((await get(`${server.url}/readyz`)).status, 503);
    assert.deepEqual(await get(`${server.url}/healthz`).then((r) => [r.status, r.body]), [503, 'stopped\n']);
  } finally {
    await server.close();
  }
});

test('/metrics answers in the Prometheus text format; other paths 404, other methods 405', async () => {
  const prom = prometheusMetrics({ kind: 'hub' });
  const server = await startMetricsServer({
    port: 0,
    readiness: new Readiness(),
    scrape: () => prom.scrape(),
  });
  try {
    const metrics = await get(`${server.url}/metrics`);
    assert.equal(metrics.status, 200);
    assert.match(metrics.type, /^text\/plain; version=0\.0\.4/);
    assert.match(metrics.body, /^# TYPE gitfleet_hub_passes_total counter$/m);
    assert.match(metrics.body, /^gitfleet_process_resident_memory_bytes \d+/m);
    assert.equal((await get(`${server.url}/metrics`, 'HEAD')).body, '');
    assert.equal((await get(`${server.url}/`)).status, 404);
    assert.equal((await get(`${server.url}/metrics`, 'POST')).status, 405);
  } finally {
    await server.close();
  }
});

test('a port in use is a terminal error naming the address', async () => {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const { port } = holder.address() as AddressInfo;
  try {
    await assert.rejects(
      startMetricsServer({
        port,
        readiness: new Readiness(),
        scrape: async () => ({ contentType: 'text/plain', body: '' }),
        describe: `--metrics-addr :${port}`,
      }),
      (error: unknown) => {
        assert.ok(error instanceof MetricsServerError);
        assert.equal(error.code, 'AddressInUse');
        assert.equal(error.terminal, true);
        assert.equal(error.message, `--metrics-addr :${port}: the address is in use; pick another port`);
        return true;
      },
    );
  } finally {
    holder.close();
  }
});

test('close() ends open keep-alive connections, so a scraper cannot hold a stopping process', async () => {
  const server = await startMetricsServer({
    port: 0,
    readiness: new Readiness(),
    scrape: async () => ({ contentType: 'text/plain', body: 'x\n' }),
  });
  const agent = new Agent({ keepAlive: true });
  try {
    assert.equal((await get(`${server.url}/metrics`, 'GET', agent)).status, 200);
    await server.close();
    await assert.rejects(get(`${server.url}/metrics`), /ECONNREFUSED/);
  } finally {
    agent.destroy();
  }
});

/** Sends one raw request line and returns the status line of the answer. */
function rawStatus(url: string, target: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () =>
      socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
    );
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString()));
    socket.on('end', () => resolve(text.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
  });
}

test('a request target no URL parses is that request 500, never an unhandled rejection; the server keeps answering (issue 27 point 1)', async (t) => {
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown): void => void rejections.push(reason);
  process.on('unhandledRejection', onRejection);
  t.after(() => process.off('unhandledRejection', onRejection));
  const readiness = new Readiness();
  const prom = prometheusMetrics({ kind: 'hub' });
  const server = await startMetricsServer({ port: 0, readiness, scrape: () => prom.scrape() });
  try {
    assert.match(await rawStatus(server.url, '//['), /^HTTP\/1\.1 500 /);
    assert.equal((await get(`${server.url}/healthz`)).status, 200);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(rejections, []);
  } finally {
    await server.close();
  }
});
