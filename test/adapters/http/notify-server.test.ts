// The hub's doorbell over real HTTP (adapters/http/notify-server.ts), with the holds on a fake
// clock: a wait is answered at once when the branch is elsewhere, held until the hub says it
// moved or the hold runs out, refused alike for a wrong token and for a cluster that does not
// exist, sent back to polling by a replica that does not lead, bounded, and guarded by the
// Host header as the dashboard is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { startNotifyServer, type NotifyServerOptions } from '../../../src/adapters/http/notify-server.js';
import { parseNotifyTokens, tokenDigestForm } from '../../../src/adapters/http/notify-tokens.js';
import { fakeClock } from '../../loops/runtime/fake-clock.js';
import { eventually } from '../../support/eventually.js';

const a = 'a'.repeat(40);
const b = 'b'.repeat(40);
const tokens = parseNotifyTokens(
  JSON.stringify({ m1: 'secret-one', m2: tokenDigestForm('secret-two') }),
  'tokens.json',
);

async function started(extra: Partial<NotifyServerOptions> = {}) {
  const clock = fakeClock();
  const heads = new Map<string, string | null>([['m1', a]]);
  const beacons: string[] = [];
  let serving = true;
  const server = await startNotifyServer({
    port: 0,
    tokens,
    head: (c) => (heads.has(c) ? heads.get(c) : null),
    serving: () => serving,
    onBeacon: (c) => beacons.push(c),
    holdMs: 55_000,
    setTimer: (cb, ms) => clock.setTimer(cb, ms),
    ...extra,
  });
  return { server, clock, heads, beacons, stopServing: () => (serving = false) };
}

/** One request; resolves with the status, the headers and the body. */
function ask(
  url: string,
  opts: { method?: string; token?: string; host?: string } = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method: opts.method ?? 'GET',
        headers: {
          ...(opts.token !== undefined ? { Authorization: `Bearer ${opts.token}` } : {}),
          ...(opts.host !== undefined ? { Host: opts.host } : {}),
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

test('a wait is answered at once with the head when the agent has another commit, and the wait is a beacon', async (t) => {
  const { server, beacons } = await started();
  t.after(() => server.close());
  const answer = await ask(`${server.url}/v1/clusters/m1/wait?after=${b}`, { token: 'secret-one' });
  assert.equal(answer.status, 200);
  assert.deepEqual(JSON.parse(answer.body), { head: a });
  assert.deepEqual(beacons, ['m1']);
  const gone = await ask(`${server.url}/v1/clusters/m2/wait?after=${b}`, { token: 'secret-two' });
  assert.deepEqual(
    JSON.parse(gone.body),
    { head: null },
    'a cluster without a branch: null, the token by its digest',
  );
});

test('a wait on the head the hub has is held until the hub says the branch moved', async (t) => {
  const { server, heads } = await started();
  t.after(() => server.close());
  const held = ask(`${server.url}/v1/clusters/m1/wait?after=${a}`, { token: 'secret-one' });
  await eventually(() => server.waiting() === 1, 'the wait is held');
  server.moved('m1', a);
  assert.equal(server.waiting(), 1, 'a move to the head the agent has answers nothing');
  heads.set('m1', b);
  server.moved('m1', b);
  const answer = await held;
  assert.equal(answer.status, 200);
  assert.deepEqual(JSON.parse(answer.body), { head: b });
  assert.equal(server.waiting(), 0);
});

test('a held wait is answered 204 when its hold runs out, by the hub clock', async (t) => {
  const { server, clock } = await started();
  t.after(() => server.close());
  const held = ask(`${server.url}/v1/clusters/m1/wait?after=${a}`, { token: 'secret-one' });
  await eventually(() => server.waiting() === 1, 'the wait is held');
  clock.advance(54_999);
  assert.equal(server.waiting(), 1);
  clock.advance(1);
  assert.equal((await held).status, 204);
});

test('until the hub knows the heads, a wait is held rather than answered wrong', async (t) => {
  const { server } = await started({ head: () => undefined });
  t.after(() => server.close());
  const held = ask(`${server.url}/v1/clusters/m1/wait?after=`, { token: 'secret-one' });
  await eventually(() => server.waiting() === 1, 'the wait is held');
  server.moved('m1', a);
  assert.deepEqual(JSON.parse((await held).body), { head: a });
});

test('a wrong token and an unknown cluster get the same 401, which names neither the token nor the cluster', async (t) => {
  const { server, beacons } = await started();
  t.after(() => server.close());
  const wrong = await ask(`${server.url}/v1/clusters/m1/wait?after=`, { token: 'secret-two' });
  const unknown = await ask(`${server.url}/v1/clusters/nosuch/wait?after=`, { token: 'secret-one' });
  const none = await ask(`${server.url}/v1/clusters/m1/beacon`, { method: 'POST' });
  // A cluster's token beacons for that cluster only: m2's token is no beacon of m1.
  const crossed = await ask(`${server.url}/v1/clusters/m1/beacon`, { method: 'POST', token: 'secret-two' });
  const digest = await ask(`${server.url}/v1/clusters/m2/beacon`, {
    method: 'POST',
    token: tokenDigestForm('secret-two'),
  });
  for (const answer of [wrong, unknown, none, digest, crossed]) {
    assert.equal(answer.status, 401);
    assert.equal(answer.body, wrong.body);
    assert.doesNotMatch(answer.body, /secret|m1|m2|nosuch/);
  }
  assert.deepEqual(beacons, [], 'a refused request is no beacon');
});

test('a beacon is a POST answered 204', async (t) => {
  const { server, beacons } = await started();
  t.after(() => server.close());
  assert.equal(
    (await ask(`${server.url}/v1/clusters/m2/beacon`, { method: 'POST', token: 'secret-two' })).status,
    204,
  );
  assert.equal((await ask(`${server.url}/v1/clusters/m2/beacon`, { token: 'secret-two' })).status, 405);
  assert.equal((await ask(`${server.url}/v1/clusters/m2/other`, { token: 'secret-two' })).status, 404);
  assert.deepEqual(beacons, ['m2']);
});

test('a replica that does not lead answers 503 with Retry-After, and standing down answers the held waits so', async (t) => {
  const { server, stopServing, beacons } = await started();
  t.after(() => server.close());
  const held = ask(`${server.url}/v1/clusters/m1/wait?after=${a}`, { token: 'secret-one' });
  await eventually(() => server.waiting() === 1, 'the wait is held');
  stopServing();
  server.standDown();
  const answer = await held;
  assert.equal(answer.status, 503);
  assert.equal(answer.headers['retry-after'], '5');
  const next = await ask(`${server.url}/v1/clusters/m1/wait?after=${a}`, { token: 'secret-one' });
  assert.equal(next.status, 503);
  assert.equal(next.headers['retry-after'], '5');
  assert.deepEqual(beacons, ['m1'], 'only the wait made while leading is a beacon');
});

test('waits are bounded per cluster (429) and in all (503)', async (t) => {
  const { server } = await started({ maxWaitersPerCluster: 2, maxWaiters: 3 });
  t.after(() => server.close());
  const url = (c: string) => `${server.url}/v1/clusters/${c}/wait?after=${a}`;
  const heldOnes = [ask(url('m1'), { token: 'secret-one' }), ask(url('m1'), { token: 'secret-one' })];
  await eventually(() => server.waiting() === 2, 'two held');
  const third = await ask(url('m1'), { token: 'secret-one' });
  assert.equal(third.status, 429);
  heldOnes.push(ask(`${server.url}/v1/clusters/m2/wait?after=`, { token: 'secret-two' }));
  await eventually(() => server.waiting() === 3, 'three held');
  const fourth = await ask(`${server.url}/v1/clusters/m2/wait?after=`, { token: 'secret-two' });
  assert.equal(fourth.status, 503);
  assert.equal(fourth.headers['retry-after'], '5');
  server.standDown();
  await Promise.all(heldOnes);
});

test('a Host header naming another address is refused (421), as the dashboard refuses it', async (t) => {
  const { server } = await started();
  t.after(() => server.close());
  const answer = await ask(`${server.url}/v1/clusters/m1/wait?after=${b}`, {
    token: 'secret-one',
    host: 'evil.example:80',
  });
  assert.equal(answer.status, 421);
});
