// One request of the smart-HTTP client over a keep-alive connection (issue 27 point 17: Node's
// MaxListenersExceededWarning broke JSON-only stderr). Node's agent keeps the socket alive and
// hands it to the next request; a request's idle timeout and abort listener must leave with it,
// or they pile up on the reused socket (and the signal) until Node warns. A real HTTP server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { openHttpRequest } from '../../../src/adapters/remote/open-http-request.js';

async function keepAliveServer(): Promise<{ server: Server; url: string; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer((_req, res) => res.end('ok'));
  server.keepAliveTimeout = 60_000;
  server.on('connection', (s) => sockets.add(s));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, sockets };
}

test('sequential requests over one kept-alive socket leave no listener behind on the socket or the signal', async (t) => {
  const { server, url, sockets } = await keepAliveServer();
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  const warnings: string[] = [];
  const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
  process.on('warning', onWarning);
  t.after(() => process.off('warning', onWarning));
  const stopping = new AbortController();
  let socket: Socket | undefined;
  const timeoutListeners: number[] = [];
  for (let i = 0; i < 15; i++) {
    const open = openHttpRequest({
      url,
      method: 'GET',
      headers: {},
      timeouts: { connectMs: 10_000, idleMs: 30_000 },
      signal: stopping.signal,
    });
    open.request.end();
    const res = await open.response;
    socket = res.socket;
    res.resume();
    await new Promise((resolve) => res.on('end', resolve));
    await new Promise((resolve) => setImmediate(resolve));
    timeoutListeners.push(socket.listenerCount('timeout'));
  }
  assert.equal(sockets.size, 1, 'every request went over the one kept-alive connection');
  assert.ok(
    timeoutListeners.every((n) => n <= 1),
    `'timeout' listeners on the socket after each request: ${timeoutListeners.join(' ')}`,
  );
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(warnings, []);
});
