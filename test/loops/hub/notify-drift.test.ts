// Drift through the notifier (docs/notifications.md#drift): status commits of member1 whose
// bodies tell drift corrections, the way the agent writes them (core/apply-plan/status-commit-message.ts),
// read by a notifier worker on a real repository and delivered to a real local HTTP receiver
// that checks the HMAC. 10,000 corrections within a minute are a bounded number of deliveries
// whose counts add up to 10,000; a notifier started again sends nothing again; a fight that
// backs off is one DriftPaused however many commits list it.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DriftNote } from '../../../src/core/apply-plan/drift-report-lines.js';
import { removeTempDirs } from '../../support/temp-dirs.js';
import { webhookReceivers } from '../../support/webhook-receiver.js';
import { eventually } from '../../support/eventually.js';
import {
  bindingsCommit,
  hmacKey,
  member1StatusCommit,
  notifyRepo,
  secretsFor,
  testWorker,
  upToDate,
} from './notify-fixture.js';

const receivers = webhookReceivers(hmacKey);
after(async () => {
  await receivers.closeAll();
  removeTempDirs();
});

const statusCommit = member1StatusCommit;

const corrected = (from: number, count: number): DriftNote[] =>
  Array.from({ length: count }, (_, i) => ({
    object: `ConfigMap/shop/cm-${from + i}`,
    count: 1,
    fields: ['data.token'],
    recreated: false,
  }));

test('10,000 drift corrections within a minute reach a real receiver as 4 signed deliveries whose counts add up to 10,000, once', async () => {
  const s = await receivers.start();
  const repo = notifyRepo(['{events: [DriftReverted], namespaces: [shop], receivers: [hook]}']);
  bindingsCommit(repo, []);
  statusCommit(repo, {});
  const secrets = secretsFor(s.url);
  const first = testWorker(repo.dir, secrets);
  first.worker.passed(upToDate(repo.source));
  await first.worker.idle();
  // The flood: four status commits, 2,500 objects put back in each.
  for (let c = 0; c < 4; c++) statusCommit(repo, { drift: corrected(c * 2_500, 2_500) });
  first.worker.passed(upToDate(repo.source));
  await first.worker.idle();
  await eventually(() => first.worker.backlog() === 0, 'the flood delivered');
  await first.worker.stop();

  assert.equal(s.received.length, 4, 'three events as they are and one counting the rest');
  assert.ok(
    s.received.every((r) => r.signed),
    'each signed with the receiver key',
  );
  const bodies = s.received.map((r) => JSON.parse(r.body) as Record<string, unknown>);
  assert.ok(bodies.every((b) => b['event'] === 'DriftReverted' && b['cluster'] === 'member1'));
  assert.equal(
    bodies.reduce((sum, b) => sum + ((b['coalesced'] as number | undefined) ?? 1), 0),
    10_000,
  );
  assert.deepEqual(
    bodies.slice(0, 3).map((b) => b['object']),
    ['ConfigMap/shop/cm-0', 'ConfigMap/shop/cm-1', 'ConfigMap/shop/cm-10'],
  );
  assert.equal(
    bodies[0]!['message'],
    'ConfigMap/shop/cm-0 @member1: changed by hand, put back (fields: data.token)',
  );
  assert.match(
    String(bodies[3]!['id']),
    /^[0-9a-f]{40}:50:coalesced$/,
    'the summary sits at the last line folded',
  );

  const again = testWorker(repo.dir, secrets);
  again.worker.passed(upToDate(repo.source));
  await again.worker.idle();
  assert.equal(again.worker.backlog(), 0);
  await again.worker.stop();
  assert.equal(s.received.length, 4, 'a notifier started again sends none again');
});

test('A fight that backs off is one DriftPaused, however many status commits list it while it lasts', async () => {
  const s = await receivers.start();
  const repo = notifyRepo(['{events: [DriftReverted, DriftPaused], receivers: [hook]}']);
  bindingsCommit(repo, []);
  statusCommit(repo, {});
  const { worker } = testWorker(repo.dir, secretsFor(s.url));
  worker.passed(upToDate(repo.source));
  await worker.idle();
  const fought = { object: 'Deployment/shop/web', count: 5, fields: ['spec.replicas'], recreated: false };
  statusCommit(repo, { drift: [fought] });
  statusCommit(repo, { driftPaused: ['Deployment/shop/web'] });
  statusCommit(repo, { driftPaused: ['Deployment/shop/web'], drift: corrected(0, 1) });
  worker.passed(upToDate(repo.source));
  await worker.idle();
  await eventually(() => worker.backlog() === 0, 'delivered');
  await worker.stop();
  const got = s.received.map((r) => JSON.parse(r.body) as Record<string, unknown>);
  assert.deepEqual(
    got.map((b) => [b['event'], b['object'], b['coalesced']]),
    [
      ['DriftReverted', 'Deployment/shop/web', 5],
      ['DriftPaused', 'Deployment/shop/web', undefined],
      ['DriftReverted', 'ConfigMap/shop/cm-0', undefined],
    ],
  );
});
