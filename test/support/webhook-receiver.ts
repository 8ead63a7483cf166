// A real HTTP receiver for notification tests: a node http server on 127.0.0.1 that records every
// request (path, headers, body), checks the X-Gitfleet-Signature HMAC of the body when given a
// key, and answers as the test says: a status, a redirect, or never.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request the receiver got. */
export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** Whether the signature header is the HMAC of the body under the key (undefined: no key given). */
  signed?: boolean;
}

/** How the receiver answers: a status, a redirect to a URL, or no answer at all. */
export type Answer = { status: number } | { redirect: string } | 'hang';

export interface WebhookReceiver {
  url: string;
  received: Received[];
  /** Sets how the next requests are answered (default 200). */
  answer(a: Answer): void;
  close(): Promise<void>;
}

/** Starts a receiver; `key` checks signatures. */
export async function startWebhookReceiver(key?: string): Promise<WebhookReceiver> {
  const received: Received[] = [];
  let answer: Answer = { status: 200 };
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({
        path: req.url ?? '',
        headers: req.headers,
        body,
        ...(key !== undefined ? { signed: verify(key, body, req.headers['x-gitfleet-signature']) } : {}),
      });
      if (answer === 'hang') return;
      if ('redirect' in answer) res.writeHead(307, { location: answer.redirect }).end();
      else res.writeHead(answer.status).end('{}');
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer: (a) => (answer = a),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function verify(key: string, body: string, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const want = Buffer.from(createHmac('sha256', key).update(body).digest('hex'));
  const got = Buffer.from(header.slice('sha256='.length));
  return got.length === want.length && timingSafeEqual(got, want);
}

/** Receivers a test file starts (checking signatures under `key`) and closes together at its end. */
export function webhookReceivers(key: string): {
  start(): Promise<WebhookReceiver>;
  closeAll(): Promise<void>;
} {
  const started: WebhookReceiver[] = [];
  return {
    start: async () => {
      const s = await startWebhookReceiver(key);
      started.push(s);
      return s;
    },
    closeAll: async () => void (await Promise.all(started.splice(0).map((s) => s.close()))),
  };
}
