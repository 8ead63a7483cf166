// The notifier's faults (docs/notifications.md#delivery), on a real repository whose bindings
// branch carries hand-made commits with taint trailers (the notifier reads commits, not passes),
// and real local HTTP receivers: one that answers 500 for ever (back-off, a bounded backlog whose
// oldest events are dropped and counted, order kept once it heals), one that never answers (the
// notifier still reads and routes: nothing waits on a delivery), and a policy that matches
// nothing (nothing sent, the position still moves).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { fleetEvent } from '../../../src/core/notify/fleet-event.js';
import type { HubPassResult } from '../../../src/loops/hub/hub-pass-result.js';
import { runGit } from '../../support/run-git.js';
import { removeTempDirs } from '../../support/temp-dirs.js';
import { webhookReceivers } from '../../support/webhook-receiver.js';
import { eventually } from '../../support/eventually.js';
import { bindingsCommit, hmacKey, notifyRepo, secretsFor, testWorker, upToDate } from './notify-fixture.js';

const receivers = webhookReceivers(hmacKey);
after(async () => {
  await receivers.closeAll();
  removeTempDirs();
});

const taint = (n: number) => `Gitfleet-Taint: member1 +example.com/t${n}:NoSchedule: because ${n}`;

test('A receiver answering 500 for ever backs off, keeps at most its backlog (oldest dropped, counted), and gets the rest in order once it heals', async () => {
  const s = await receivers.start();
  s.answer({ status: 500 });
  const repo = notifyRepo(['{events: [ClusterTainted], receivers: [hook]}']);
  bindingsCommit(repo, []);
  const { worker, clock, reports, lines } = testWorker(repo.dir, secretsFor(s.url), { maxBacklog: 3 });
  worker.passed(upToDate(repo.source));
  await worker.idle();
  for (let n = 1; n <= 10; n++) bindingsCommit(repo, [taint(n)]);
  worker.passed(upToDate(repo.source));
  await worker.idle();
  await eventually(() => reports.some((r) => r.outcome === 'failed'), 'a failed attempt');
  assert.equal(worker.backlog(), 3, 'the backlog is bounded');
  const dropped = reports.filter((r) => r.outcome === 'dropped').reduce((n, r) => n + r.count, 0);
  assert.equal(dropped, 7);
  assert.ok(
    lines.some((l) =>
      /^warn notifications: ops\/hook: answered 500; trying again in \d+ s \(3 waiting\)$/.test(l),
    ),
    lines.join('\n'),
  );
  assert.ok(
    lines.some((l) => l === 'warn notifications: ops/hook: backlog full (3): 7 oldest event(s) dropped'),
    lines.join('\n'),
  );
  const failures = () => reports.filter((r) => r.outcome === 'failed').length;
  for (let i = 0; i < 5; i++) {
    const before = failures();
    clock.advance(Math.max(...clock.pending()));
    await eventually(() => failures() > before, `attempt ${i + 2} failed`);
  }
  assert.equal(s.received.length, 6, 'the same event tried again at each back-off');
  const waits = clock.pending();
  assert.ok(
    waits.length === 1 && waits[0]! > 0 && waits[0]! <= 300_000,
    `one back-off wait pending: ${waits.join(', ')}`,
  );
  s.answer({ status: 200 });
  clock.advance(waits[0]!);
  await eventually(() => worker.backlog() === 0, 'the backlog delivered');
  const bodies = s.received.map((r) => JSON.parse(r.body) as { message: string });
  const delivered = bodies
    .slice(-3)
    .map((b) => b.message.replace(/^member1 tainted example\.com\/(t\d+).*$/, '$1'));
  assert.deepEqual(delivered, ['t8', 't9', 't10'], 'the newest kept, in order');
  assert.ok(s.received.every((r) => r.signed));
  await worker.stop();
  const cursor = runGit(['show', 'refs/heads/gitfleet/notifications:cursor.yaml'], { cwd: repo.dir });
  assert.match(cursor, /dropped: 7/);
});

test('A receiver that never answers holds nothing else: the notifier reads and routes the next events meanwhile', async () => {
  const s = await receivers.start();
  s.answer('hang');
  const repo = notifyRepo(['{events: ["*"], receivers: [hook]}']);
  bindingsCommit(repo, []);
  const { worker } = testWorker(repo.dir, secretsFor(s.url), { timeoutMs: 60_000 });
  worker.passed(upToDate(repo.source));
  await worker.idle();
  bindingsCommit(repo, [taint(1)]);
  worker.passed(upToDate(repo.source));
  await worker.idle();
  await eventually(() => s.received.length === 1, 'the first delivery on its way');
  bindingsCommit(repo, [taint(2)]);
  worker.passed(upToDate(repo.source));
  await worker.idle();
  assert.equal(worker.backlog(), 2, 'the second event was read and routed while the first hangs');
  await s.close();
  await worker.stop();
});

test('A policy that matches nothing sends nothing, and the position still moves past what it read', async () => {
  const s = await receivers.start();
  const repo = notifyRepo([
    '{events: [ClusterTainted], clusters: {selector: {matchLabels: {env: nowhere}}}, receivers: [hook]}',
  ]);
  bindingsCommit(repo, []);
  const { worker } = testWorker(repo.dir, secretsFor(s.url));
  worker.passed(upToDate(repo.source));
  await worker.idle();
  const last = bindingsCommit(repo, [taint(1), taint(2)]);
  worker.passed(upToDate(repo.source));
  await worker.idle();
  assert.equal(worker.backlog(), 0);
  await worker.stop();
  assert.equal(s.received.length, 0);
  const cursor = runGit(['show', 'refs/heads/gitfleet/notifications:cursor.yaml'], { cwd: repo.dir });
  assert.match(cursor, new RegExp(`bindings: "${last}:\\*"`));
});

test('A source that does not load is one RenderFailed event, sent once however many passes fail on it', async () => {
  const s = await receivers.start();
  const repo = notifyRepo(['{events: [RenderFailed], receivers: [hook]}']);
  bindingsCommit(repo, []);
  const { worker, reports } = testWorker(repo.dir, secretsFor(s.url));
  worker.passed(upToDate(repo.source));
  await worker.idle();
  const failed = {
    ...upToDate('f'.repeat(40)),
    type: 'loadFailed',
    errors: [{ code: 'YamlSyntax', file: 'apps/web.yaml', line: 3, message: 'bad indentation' }],
  } as HubPassResult;
  for (let i = 0; i < 3; i++) {
    worker.passed(failed);
    await worker.idle();
  }
  await eventually(() => worker.backlog() === 0 && reports.length > 0, 'delivered');
  await worker.stop();
  assert.equal(s.received.length, 1);
  const body = JSON.parse(s.received[0]!.body) as Record<string, string>;
  const want = fleetEvent('RenderFailed', {
    id: `${'f'.repeat(40)}:RenderFailed`,
    time: '',
    sourceCommit: 'f'.repeat(40),
    message: '',
  });
  assert.equal(body['id'], want.id);
  assert.match(
    body['message']!,
    /the fleet does not load, nothing was rendered: apps\/web\.yaml:3: bad indentation$/,
  );
});

test('hub --once drains at most its timeout: a receiver that answers 500 leaves its event for the next run, recorded as not sent', async () => {
  const s = await receivers.start();
  s.answer({ status: 500 });
  const repo = notifyRepo(['{events: [ClusterTainted], receivers: [hook]}']);
  bindingsCommit(repo, []);
  const first = testWorker(repo.dir, secretsFor(s.url));
  first.worker.passed(upToDate(repo.source));
  assert.equal(await first.worker.drain(15_000), 0, 'nothing to send: the receiver starts at the heads');
  bindingsCommit(repo, [taint(1)]);
  const second = testWorker(repo.dir, secretsFor(s.url));
  second.worker.passed(upToDate(repo.source));
  const drained = second.worker.drain(15_000);
  await eventually(() => s.received.length >= 1, 'the first attempt');
  // The lane backs off (1 s, 2 s, 4 s, …) on the clock; the drain ends at 15 s however it goes.
  for (let i = 0; i < 20; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    second.clock.advance(1000);
  }
  assert.equal(await drained, 1, 'one event left undelivered');
  s.answer({ status: 200 });
  const third = testWorker(repo.dir, secretsFor(s.url));
  third.worker.passed(upToDate(repo.source));
  assert.equal(await third.worker.drain(15_000), 0);
  const bodies = s.received.map((r) => (JSON.parse(r.body) as { event: string; id: string }).event);
  assert.deepEqual([...new Set(bodies)], ['ClusterTainted'], 'the same event, tried again by the next run');
  const ids = new Set(s.received.map((r) => (JSON.parse(r.body) as { id: string }).id));
  assert.equal(ids.size, 1);
});
