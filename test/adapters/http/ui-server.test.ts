// The dashboard's web server on a real socket: read-only, confined to its folder, loopback Host
// names only, JSON documents by name, and server-sent events to every open page.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startUiServer, type UiServer } from '../../../src/adapters/http/ui-server.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';

let server: UiServer;
let port: number;

before(async () => {
  const dir = tempDir('ui-server');
  const root = join(dir, 'ui');
  mkdirSync(root);
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>dashboard</title>');
  writeFileSync(join(root, 'app.js'), 'export {};');
  writeFileSync(join(dir, 'outside.js'), 'the folder next to ui/ must not be served');
  server = await startUiServer({
    port: 0,
    staticRoot: root,
    api: {
      overview: () => Promise.resolve({ repo: 'r' }),
      template: (params) => Promise.resolve(params.get('key') === 'known' ? { key: 'known' } : undefined),
      broken: () => Promise.reject(new Error('reading failed')),
    },
  });
  port = Number(new URL(server.url).port);
});

after(async () => {
  await server.close();
  removeTempDirs();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends a raw request (the path as given, not normalised as fetch would). */
function send(path: string, opts: { method?: string; host?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: opts.method ?? 'GET',
        headers: { host: opts.host ?? `127.0.0.1:${port}` },
        timeout: 10_000,
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

test('it listens on 127.0.0.1 unless told otherwise, and serves the page with a strict Content-Security-Policy', async () => {
  assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  const page = await send('/');
  assert.equal(page.status, 200);
  assert.match(page.body, /<title>dashboard/);
  assert.match(String(page.headers['content-security-policy']), /script-src 'self'/);
  assert.equal((await send('/ui/app.js')).headers['content-type'], 'text/javascript; charset=utf-8');
});

test('nothing outside its folder is served, however the path is spelled', async () => {
  for (const path of [
    '/ui/../outside.js',
    '/ui/%2e%2e/outside.js',
    '/ui/..%2foutside.js',
    '/ui/%2e%2e%2fui%2f..%2f..%2foutside.js',
    '/ui/%E0%A4%A',
    '/ui/%00index.html',
  ])
    assert.equal((await send(path)).status, 404, path);
});

test('it is read-only: every method but GET and HEAD is refused', async () => {
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
    const answer = await send('/api/overview', { method });
    assert.equal(answer.status, 405, method);
    assert.equal(answer.headers.allow, 'GET, HEAD');
  }
});

test('a Host header that names another site is refused (DNS rebinding)', async () => {
  assert.equal((await send('/api/overview', { host: 'evil.example' })).status, 421);
  assert.equal((await send('/api/overview', { host: `evil.example:${port}` })).status, 421);
  assert.equal((await send('/api/overview', { host: `localhost:${port}` })).status, 200);
});

test('API documents by name: 404 for an unknown name or document, 500 with the message for a failed read', async () => {
  assert.deepEqual(JSON.parse((await send('/api/overview')).body), { repo: 'r' });
  assert.equal((await send('/api/template?key=known')).status, 200);
  assert.equal((await send('/api/template?key=other')).status, 404);
  assert.equal((await send('/api/nothing')).status, 404);
  assert.equal((await send('/api/constructor')).status, 404, 'not a property of every object');
  const broken = await send('/api/broken');
  assert.equal(broken.status, 500);
  assert.match(broken.body, /reading failed/);
});

test('an event broadcast reaches every open event stream', async () => {
  const streams = await Promise.all([openStream(), openStream()]);
  server.broadcast('changed', { generation: 3 });
  for (const stream of streams)
    assert.match(await stream.event, /event: changed\ndata: \{"generation":3\}\n\n/);
});

/** Opens /api/events; resolves once the server has sent its first line (the stream is registered). */
function openStream(): Promise<{ event: Promise<string> }> {
  return new Promise((opened, reject) => {
    let text = '';
    let gotEvent: (text: string) => void = () => undefined;
    const event = new Promise<string>((resolve) => (gotEvent = resolve));
    const req = request({ host: '127.0.0.1', port, path: '/api/events', timeout: 10_000 }, (res) => {
      assert.equal(res.headers['content-type'], 'text/event-stream');
      res.on('data', (c: Buffer) => {
        text += c.toString();
        if (text.startsWith('retry:')) opened({ event });
        if (text.includes('event: changed')) {
          gotEvent(text);
          req.destroy();
        }
      });
    });
    req.on('error', (e) => (text.includes('event: changed') ? undefined : reject(e)));
    req.end();
  });
}

/** Starts a second server bound to `host` and returns the status of GET /api/overview with each Host header. */
async function statusesOn(host: string, headers: (port: number) => string[]): Promise<number[]> {
  const root = tempDir('ui-bind');
  writeFileSync(join(root, 'index.html'), '<!doctype html>');
  const other = await startUiServer({ host, port: 0, staticRoot: root, api: { overview: async () => ({}) } });
  try {
    const bound = Number(new URL(other.url).port);
    const address = host === '0.0.0.0' ? '127.0.0.1' : host;
    const statuses: number[] = [];
    for (const header of headers(bound)) {
      statuses.push(
        await new Promise<number>((resolve, reject) => {
          const req = request(
            { host: address, port: bound, path: '/api/overview', headers: { host: header }, timeout: 10_000 },
            (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            },
          );
          req.on('error', reject);
          req.end();
        }),
      );
    }
    return statuses;
  } finally {
    await other.close();
  }
}

test('the Host check holds for every loopback bind, such as 127.0.0.2 (issue 27 point 13)', async () => {
  assert.deepEqual(
    await statusesOn('127.0.0.2', (p) => [
      'evil.example',
      `evil.example:${p}`,
      `127.0.0.2:${p}`,
      `localhost:${p}`,
    ]),
    [421, 421, 200, 200],
  );
});

test('bound to one other address, the Host must name that address; a wildcard bind takes any Host', async () => {
  const address = Object.values((await import('node:os')).networkInterfaces())
    .flat()
    .find((a) => a?.family === 'IPv4' && !a.internal)?.address;
  if (address !== undefined) {
    assert.deepEqual(await statusesOn(address, (p) => [`evil.example:${p}`, `${address}:${p}`]), [421, 200]);
  }
  assert.deepEqual(await statusesOn('0.0.0.0', (p) => [`evil.example:${p}`, `127.0.0.1:${p}`]), [200, 200]);
});
