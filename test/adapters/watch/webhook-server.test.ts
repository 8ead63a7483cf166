import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startWebhookServer, type PushInfo } from '../../../src/adapters/watch/start-webhook-server.js';
import { hmacHex, send } from './webhook-client.js';

const secret = 'the-shared-secret';
const body = JSON.stringify({ ref: 'refs/heads/main' });

/** Starts a server on a free port with a small body limit and records what it triggers. */
async function withServer(run: (url: string, pushes: PushInfo[]) => Promise<void>): Promise<void> {
  const pushes: PushInfo[] = [];
  const server = await startWebhookServer({
    port: 0,
    secret,
    maxBodyBytes: 64 * 1024,
    onPush: (p) => pushes.push(p),
  });
  try {
    await run(server.url, pushes);
  } finally {
    await server.close();
  }
}

const requests: {
  name: string;
  given: {
    headers?: Record<string, string>;
    body?: string | Buffer;
    method?: string;
    path?: string;
    chunked?: boolean;
  };
  want: { status: number; pushes: PushInfo[] };
}[] = [
  {
    name: 'A signed GitHub push triggers with its provider and claimed ref.',
    given: {
      headers: { 'X-GitHub-Event': 'push', 'X-Hub-Signature-256': `sha256=${hmacHex(secret, body)}` },
      body,
    },
    want: { status: 202, pushes: [{ provider: 'github', ref: 'refs/heads/main' }] },
  },
  {
    name: 'A signed Gitea push triggers.',
    given: { headers: { 'X-Gitea-Event': 'push', 'X-Gitea-Signature': hmacHex(secret, body) }, body },
    want: { status: 202, pushes: [{ provider: 'gitea', ref: 'refs/heads/main' }] },
  },
  {
    name: 'A GitLab push with the right token triggers.',
    given: { headers: { 'X-Gitlab-Event': 'Push Hook', 'X-Gitlab-Token': secret }, body },
    want: { status: 202, pushes: [{ provider: 'gitlab', ref: 'refs/heads/main' }] },
  },
  {
    name: 'A signed GitHub ping is answered but triggers nothing.',
    given: {
      headers: { 'X-GitHub-Event': 'ping', 'X-Hub-Signature-256': `sha256=${hmacHex(secret, body)}` },
      body,
    },
    want: { status: 204, pushes: [] },
  },
  {
    name: 'A push without a signature is refused with 401.',
    given: { headers: { 'X-GitHub-Event': 'push' }, body },
    want: { status: 401, pushes: [] },
  },
  {
    name: 'A push with a wrong signature is refused with 403.',
    given: {
      headers: { 'X-GitHub-Event': 'push', 'X-Hub-Signature-256': `sha256=${hmacHex('guess', body)}` },
      body,
    },
    want: { status: 403, pushes: [] },
  },
  {
    name: 'A GitLab push with a wrong token is refused with 403.',
    given: { headers: { 'X-Gitlab-Event': 'Push Hook', 'X-Gitlab-Token': 'guess' }, body },
    want: { status: 403, pushes: [] },
  },
  {
    name: 'A signature over another body is refused with 403.',
    given: {
      headers: { 'X-GitHub-Event': 'push', 'X-Hub-Signature-256': `sha256=${hmacHex(secret, body)}` },
      body: body + ' ',
    },
    want: { status: 403, pushes: [] },
  },
  {
    name: 'A body declared larger than the limit is refused with 413 before it is read.',
    given: { headers: { 'X-GitHub-Event': 'push' }, body: Buffer.alloc(2 * 1024 * 1024, 'a') },
    want: { status: 413, pushes: [] },
  },
  {
    name: 'A chunked body that grows past the limit is refused with 413.',
    given: { headers: { 'X-GitHub-Event': 'push' }, body: Buffer.alloc(2 * 1024 * 1024, 'a'), chunked: true },
    want: { status: 413, pushes: [] },
  },
  { name: 'A GET is refused with 405.', given: { method: 'GET' }, want: { status: 405, pushes: [] } },
  {
    name: 'Another path is answered with 404.',
    given: { path: '/hooks/other', body },
    want: { status: 404, pushes: [] },
  },
];

for (const { name, given, want } of requests) {
  test(name, async () => {
    await withServer(async (url, pushes) => {
      const target = given.path === undefined ? url : url.replace('/hooks/push', given.path);
      const answer = await send(target, {
        ...(given.method === undefined ? {} : { method: given.method }),
        headers: { 'Content-Type': 'application/json', ...given.headers },
        ...(given.body === undefined ? {} : { body: given.body }),
        ...(given.chunked ? { chunked: true } : {}),
      });
      assert.equal(answer.status, want.status);
      assert.deepEqual(pushes, want.pushes);
      if (want.status === 405) assert.equal(answer.headers.allow, 'POST');
    });
  });
}

test('The server keeps answering after refusing an oversized body.', async () => {
  await withServer(async (url, pushes) => {
    await send(url, {
      headers: { 'X-GitHub-Event': 'push' },
      body: Buffer.alloc(1024 * 1024),
      chunked: true,
    });
    const ok = await send(url, {
      headers: { 'X-GitHub-Event': 'push', 'X-Hub-Signature-256': `sha256=${hmacHex(secret, body)}` },
      body,
    });
    assert.equal(ok.status, 202);
    assert.equal(pushes.length, 1);
  });
});

test('A server with an empty secret is refused at start.', async () => {
  await assert.rejects(
    startWebhookServer({ port: 0, secret: '', onPush: () => undefined }),
    /secret is empty/,
  );
});

test('a request target no URL parses is a 500, never an unhandled rejection; the server keeps answering (issue 27 point 1)', async (t) => {
  const { connect } = await import('node:net');
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown): void => void rejections.push(reason);
  process.on('unhandledRejection', onRejection);
  t.after(() => process.off('unhandledRejection', onRejection));
  await withServer(async (url) => {
    const status = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(url).port), '127.0.0.1', () =>
        socket.write(
          'POST //[ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
        ),
      );
      let text = '';
      socket.on('data', (c: Buffer) => (text += c.toString()));
      socket.on('end', () => resolve(text.split('\r\n')[0] ?? ''));
      socket.on('error', reject);
    });
    assert.match(status, /^HTTP\/1\.1 500 /);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(rejections, []);
  });
});
