// The github, gitlab and gitea receivers of a NotificationPolicy (adapters/notify/forge-receiver.ts)
// against a local server speaking each forge's commit-status API: an event routed to one sets a
// status on its source commit (the rollout's context moves from pending to failure), the same
// status is not set twice, a refusal is given up, a 500 or a rate limit is retried, a token that
// cannot be read names its file, and the token is in no outcome.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { forgeReceiver } from '../../../src/adapters/notify/forge-receiver.js';
import { rateLimitGates } from '../../../src/adapters/remote/rate-limit-gate.js';
import type { ForgeReceiverSpec } from '../../../src/core/model/notification-policy.js';
import { fleetEvent, type FleetEventType } from '../../../src/core/notify/fleet-event.js';
import { startForgeStatusServer, type ForgeKind } from '../../support/forge-status-server.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';

after(() => removeTempDirs());

const token = 'forge-token-91c2d4';
const repository = 'fleet-team/fleet';
const sha = '5d41402abc4b2a76b9719d911017c592ae0a4e1b';
const never = new AbortController().signal;

const event = (type: FleetEventType, n: number, message: string) =>
  fleetEvent(type, {
    id: `c0ffee${n}:0`,
    time: '2026-12-05T10:00:00.000Z',
    sourceCommit: sha,
    strategy: 'shop/web',
    message,
  });

function receiverFor(kind: ForgeKind, apiUrl: string, opts: { tokenFile?: string; now?: () => number } = {}) {
  const dir = tempDir('forge-secrets');
  writeFileSync(join(dir, 'forge-token'), `${token}\n`);
  const spec: ForgeReceiverSpec = {
    name: 'deploys',
    type: kind,
    repository,
    apiUrl,
    token: { type: 'file', file: opts.tokenFile ?? 'forge-token' },
    context: 'gitfleet',
  };
  return forgeReceiver({
    policy: 'ops',
    spec,
    secrets: { dir },
    rateLimits: rateLimitGates({ now: opts.now ?? (() => Date.now()), random: () => 0 }),
    timeouts: { connectMs: 2000, idleMs: 2000, deadlineMs: 5000 },
    ...(opts.now ? { now: opts.now } : {}),
  });
}

for (const kind of ['github', 'gitea'] as const)
  test(`${kind}: a rollout's events set one context on the source commit, from pending to failure, each status once`, async () => {
    const server = await startForgeStatusServer({ kind, token, repository });
    try {
      const receiver = receiverFor(kind, server.apiUrl);
      assert.equal(receiver.key, 'ops/deploys');
      const started = event('RolloutStarted', 1, 'shop/web: rollout of 5d41402abc4b started (2 steps)');
      assert.equal((await receiver.deliver(started, never)).type, 'delivered');
      assert.equal((await receiver.deliver(started, never)).type, 'delivered', 'the same event again');
      const halted = event(
        'RolloutHalted',
        2,
        'shop/web: step 1/2 not Healthy within progressDeadlineSeconds 30',
      );
      assert.equal((await receiver.deliver(halted, never)).type, 'delivered');
      assert.deepEqual(
        server.posted(sha).map((s) => [s.context, s.state, s.description]),
        [
          ['gitfleet/rollout/shop/web', 'pending', 'shop/web: rollout of 5d41402abc4b started (2 steps)'],
          [
            'gitfleet/rollout/shop/web',
            'failure',
            'shop/web: step 1/2 not Healthy within progressDeadlineSeconds 30',
          ],
        ],
        'the same status is not posted twice',
      );
      const auth = server.requests[0]!.headers.authorization;
      assert.equal(auth, kind === 'github' ? `Bearer ${token}` : `token ${token}`);
    } finally {
      await server.close();
    }
  });

test('gitlab: an apply failure sets the apply context failed on the project', async () => {
  const server = await startForgeStatusServer({ kind: 'gitlab', token, repository });
  try {
    const receiver = receiverFor('gitlab', server.apiUrl);
    const failed = fleetEvent('ApplyFailed', {
      id: 'feed:0',
      time: '2026-12-05T10:00:00.000Z',
      sourceCommit: sha,
      cluster: 'member1',
      message: 'Deployment/shop/web @member1: spec.selector: field is immutable',
    });
    assert.equal((await receiver.deliver(failed, never)).type, 'delivered');
    assert.deepEqual(
      server.posted(sha).map((s) => [s.context, s.state]),
      [['gitfleet/apply', 'failed']],
    );
  } finally {
    await server.close();
  }
});

test('A forge that refuses (a wrong repository) gives the event up; one that answers 500 is tried again; the token is in no reason', async () => {
  const server = await startForgeStatusServer({ kind: 'github', token, repository: 'someone/else' });
  try {
    const receiver = receiverFor('github', server.apiUrl);
    const refused = await receiver.deliver(event('RolloutComplete', 1, 'shop/web: complete'), never);
    assert.equal(refused.type, 'failed');
    assert.equal(refused.type === 'failed' && refused.terminal, true);
    assert.match(
      refused.type === 'failed' ? refused.reason : '',
      /^NotificationPolicy\/ops: receiver deploys: .*404/,
    );
    server.misbehave('fail500');
    const down = await receiver.deliver(event('RolloutComplete', 2, 'shop/web: complete'), never);
    assert.equal(down.type === 'failed' && !down.terminal, true, 'a 500 is retried');
    for (const outcome of [refused, down])
      assert.ok(!JSON.stringify(outcome).includes(token), 'no token in the outcome');
  } finally {
    await server.close();
  }
});

test('A rate limit asks the lane to wait until the gate opens', async () => {
  const server = await startForgeStatusServer({ kind: 'github', token, repository });
  try {
    const now = () => 1_800_000_000_000;
    const receiver = receiverFor('github', server.apiUrl, { now });
    server.misbehave('limit429', 120);
    const limited = await receiver.deliver(event('RolloutStarted', 1, 'shop/web: started'), never);
    assert.equal(limited.type, 'failed');
    assert.equal(limited.type === 'failed' && limited.terminal, undefined);
    assert.equal(limited.type === 'failed' ? limited.retryAfterMs : 0, 120_000);
  } finally {
    await server.close();
  }
});

test('A token file that is not there is a failed delivery naming it, retried; nothing is sent', async () => {
  const server = await startForgeStatusServer({ kind: 'github', token, repository });
  try {
    const receiver = receiverFor('github', server.apiUrl, { tokenFile: 'not-mounted' });
    const outcome = await receiver.deliver(event('RolloutStarted', 1, 'shop/web: started'), never);
    assert.deepEqual(outcome, {
      type: 'failed',
      reason:
        'NotificationPolicy/ops: receiver deploys: file not-mounted: not found in --notifications-secrets-dir',
    });
    assert.equal(server.requests.length, 0);
  } finally {
    await server.close();
  }
});

test('An event of no source commit is given up without a request', async () => {
  const server = await startForgeStatusServer({ kind: 'github', token, repository });
  try {
    const receiver = receiverFor('github', server.apiUrl);
    const orphan = fleetEvent('DriftReverted', {
      id: 'x:0',
      time: '2026-12-05T10:00:00.000Z',
      sourceCommit: '',
      message: 'm',
    });
    const outcome = await receiver.deliver(orphan, never);
    assert.equal(outcome.type === 'failed' && outcome.terminal, true);
    assert.equal(server.requests.length, 0);
  } finally {
    await server.close();
  }
});
