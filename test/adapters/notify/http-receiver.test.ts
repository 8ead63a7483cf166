// The webhook, Slack and Teams receivers (adapters/notify/http-receiver.ts) against real local
// HTTP servers: a signed POST of the contract's JSON, a receiver that never answers (the deadline
// ends it), one that redirects to another host (refused, the other host gets nothing), one that
// answers 500 (failed, to be retried), and secrets that are missing: every outcome names the file,
// never the URL or the key.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { httpReceiver } from '../../../src/adapters/notify/http-receiver.js';
import { fleetEvent } from '../../../src/core/notify/fleet-event.js';
import type { NotificationReceiverSpec } from '../../../src/core/model/notification-policy.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';
import { webhookReceivers } from '../../support/webhook-receiver.js';

after(async () => {
  await receivers.closeAll();
  removeTempDirs();
});

const secretPath = '/hooks/T000/B000/s3cr3t-token';
const key = 'hmac-key-0123456789';
const receivers = webhookReceivers(key);
const event = fleetEvent('RolloutHalted', {
  id: 'c0ffee:1',
  time: '2026-12-05T10:00:00.000Z',
  sourceCommit: 'a'.repeat(40),
  cluster: 'gcp-eu-prod',
  message: 'shop/web: step 1/2: gcp-eu-prod: shop/Deployment.apps/web Degraded; halted',
});

async function receiverAt(
  type: 'webhook' | 'slack' | 'teams',
  url: string,
  opts: { hmac?: boolean; timeoutMs?: number } = {},
) {
  const dir = tempDir('notify-secrets');
  writeFileSync(join(dir, 'url'), `${url}\n`);
  writeFileSync(join(dir, 'key'), key);
  const spec: NotificationReceiverSpec & { type: typeof type } = {
    name: 'r',
    type,
    url: { type: 'file', file: 'url' },
    ...(opts.hmac ? { hmacKeyFile: 'key' } : {}),
  };
  return httpReceiver({ policy: 'ops', spec, secrets: { dir }, timeoutMs: opts.timeoutMs ?? 5000 });
}

test('A webhook delivery is one POST of the contract JSON, signed with the HMAC of its body.', async () => {
  const s = await receivers.start();
  const out = await (
    await receiverAt('webhook', s.url + secretPath, { hmac: true })
  ).deliver(event, new AbortController().signal);
  assert.deepEqual(out, { type: 'delivered', status: 200 });
  assert.equal(s.received.length, 1);
  const got = s.received[0]!;
  assert.equal(got.path, secretPath);
  assert.equal(got.signed, true, 'the receiver verified the signature');
  assert.equal(got.headers['content-type'], 'application/json');
  assert.equal(got.headers['x-gitfleet-id'], 'c0ffee:1');
  assert.deepEqual(JSON.parse(got.body), {
    event: 'RolloutHalted',
    severity: 'error',
    time: '2026-12-05T10:00:00.000Z',
    sourceCommit: 'a'.repeat(40),
    cluster: 'gcp-eu-prod',
    message: event.message,
    id: 'c0ffee:1',
  });
});

test('A receiver that never answers fails at the deadline, to be retried.', async () => {
  const s = await receivers.start();
  s.answer('hang');
  const out = await (
    await receiverAt('webhook', s.url + secretPath, { timeoutMs: 300 })
  ).deliver(event, new AbortController().signal);
  assert.deepEqual(out, { type: 'failed', reason: 'no answer within 300 ms' });
  assert.equal(s.received.length, 1);
});

test('A redirect to another host is refused for good, and the other host gets nothing.', async () => {
  const elsewhere = await receivers.start();
  const s = await receivers.start();
  s.answer({ redirect: `${elsewhere.url}/steal` });
  const out = await (
    await receiverAt('webhook', s.url + secretPath, { hmac: true })
  ).deliver(event, new AbortController().signal);
  assert.equal(out.type, 'failed');
  assert.equal(out.type === 'failed' && out.terminal, true);
  assert.match(out.type === 'failed' ? out.reason : '', /^answered 307, a redirect: refused/);
  assert.equal(elsewhere.received.length, 0);
});

test('A 500 is a failure to retry; a 404 is given up; neither outcome quotes the URL.', async () => {
  const s = await receivers.start();
  const receiver = await receiverAt('slack', s.url + secretPath);
  s.answer({ status: 500 });
  assert.deepEqual(await receiver.deliver(event, new AbortController().signal), {
    type: 'failed',
    reason: 'answered 500',
  });
  s.answer({ status: 404 });
  assert.deepEqual(await receiver.deliver(event, new AbortController().signal), {
    type: 'failed',
    reason: 'answered 404',
    terminal: true,
  });
  assert.ok('blocks' in JSON.parse(s.received[0]!.body), 'a Slack body');
});

test('A receiver that is not listening fails with the error code only, never the URL.', async () => {
  const s = await receivers.start();
  const url = s.url + secretPath;
  await s.close();
  const out = await (await receiverAt('teams', url)).deliver(event, new AbortController().signal);
  assert.equal(out.type, 'failed');
  const reason = out.type === 'failed' ? out.reason : '';
  assert.match(reason, /^the request failed: [A-Z_]+/);
  assert.doesNotMatch(reason, /s3cr3t|hooks/);
});

test('A missing secret file fails naming the policy, the receiver and the file, and sends nothing.', async () => {
  const s = await receivers.start();
  const dir = tempDir('notify-secrets');
  writeFileSync(join(dir, 'url'), s.url + secretPath);
  const receiver = httpReceiver({
    policy: 'ops',
    spec: { name: 'r', type: 'webhook', url: { type: 'file', file: 'url' }, hmacKeyFile: 'missing-key' },
    secrets: { dir },
  });
  const out = await receiver.deliver(event, new AbortController().signal);
  assert.deepEqual(out, {
    type: 'failed',
    reason: 'NotificationPolicy/ops: receiver r: file missing-key: not found in --notifications-secrets-dir',
  });
  assert.equal(s.received.length, 0);
  const none = httpReceiver({
    policy: 'ops',
    spec: { name: 'r', type: 'webhook', url: { type: 'file', file: 'url' } },
    secrets: {},
  });
  assert.deepEqual(await none.deliver(event, new AbortController().signal), {
    type: 'failed',
    reason: 'NotificationPolicy/ops: receiver r: file url: the hub has no --notifications-secrets-dir',
  });
});
