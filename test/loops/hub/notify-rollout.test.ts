// The notifier on a real rollout (docs/notifications.md): the bundled example with a
// RolloutStrategy for shop/web and a NotificationPolicy routing RolloutHalted to a webhook, a
// real local HTTP receiver checking the HMAC. A halted rollout posts one message with the reason;
// what was sent is on the notifications branch, so a notifier started later sends what it had not
// (no gap) and one started after that sends nothing again (no duplicate). The same rollout routed
// to a github receiver moves its context on the source commit from pending to failure.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commitChange, git, hubPass, removeFleetRepos, rendered } from './hub-fixture.js';
import { at, canary, fleetWithStrategy, record, report, setImage, strategy, t0 } from './rollout-fixture.js';
import { policyText, secretsFor, testWorker } from './notify-fixture.js';
import { webhookReceivers } from '../../support/webhook-receiver.js';
import { hmacKey } from './notify-fixture.js';
import { eventually } from '../../support/eventually.js';
import { removeTempDirs } from '../../support/temp-dirs.js';
import { startForgeStatusServer } from '../../support/forge-status-server.js';

const receivers = webhookReceivers(hmacKey);
after(async () => {
  await receivers.closeAll();
  removeFleetRepos();
  removeTempDirs();
});

test('A halted rollout posts one signed message with the reason, once, across notifiers that stop and start', async () => {
  const receiver = await receivers.start();
  const secrets = secretsFor(receiver.url);
  const repo = await fleetWithStrategy(strategy({ deadline: 30 }));
  commitChange(repo, 'tell ops when a rollout halts', (work) =>
    writeFileSync(
      join(work, 'policies/notify.yaml'),
      policyText(['{events: [RolloutHalted], receivers: [hook]}']),
    ),
  );
  const first = testWorker(repo.path, secrets);
  first.worker.passed(rendered(await hubPass(repo, { now: at(t0 - 10_000) })));
  await first.worker.idle();
  await first.worker.stop();
  assert.equal(receiver.received.length, 0, 'a new receiver is not sent the past');

  // The rollout halts while no notifier runs.
  commitChange(repo, 'web 2.0.0', (work) => setImage(work, '2.0.0'));
  rendered(await hubPass(repo, { now: at(t0) }));
  await report(repo, canary, 'Progressing', '0 of 3 updated replicas are available');
  rendered(await hubPass(repo, { now: at(t0 + 10_000) }));
  const halted = rendered(await hubPass(repo, { now: at(t0 + 30_000) }));
  assert.equal(record(repo)!.phase, 'Halted');

  const second = testWorker(repo.path, secrets);
  second.worker.passed(halted);
  await second.worker.idle();
  await eventually(() => second.worker.backlog() === 0, 'the halt delivered');
  await second.worker.stop();
  assert.deepEqual(
    second.reports.map((r) => r.outcome),
    ['delivered'],
  );
  assert.equal(receiver.received.length, 1);
  const got = receiver.received[0]!;
  assert.equal(got.signed, true, 'signed with the receiver key');
  assert.equal(got.path, '/hook/secret-path');
  const body = JSON.parse(got.body) as Record<string, string>;
  assert.equal(body['event'], 'RolloutHalted');
  assert.equal(body['severity'], 'error');
  assert.equal(body['cluster'], canary);
  assert.match(
    body['message']!,
    /^shop\/web: .*not Healthy within progressDeadlineSeconds 30: gcp-eu-prod: shop\/Deployment\.apps\/web Progressing/,
  );
  const bindingsHead = git(repo, ['rev-parse', 'refs/heads/gitfleet/bindings']).trim();
  assert.match(
    body['id']!,
    new RegExp(`^${bindingsHead}:\\d+$`),
    'the id names the bindings commit of the halt',
  );

  const third = testWorker(repo.path, secrets);
  third.worker.passed(await hubPass(repo, { now: at(t0 + 31_000) }));
  await third.worker.idle();
  assert.equal(third.worker.backlog(), 0, 'nothing handed to the receiver again');
  await third.worker.stop();
  assert.equal(receiver.received.length, 1, 'sent once');

  const log = git(repo, ['log', '--format=%B', 'refs/heads/gitfleet/notifications']);
  assert.match(log, /Gitfleet-Notifications-Delivered: 1\n/);
  const cursor = git(repo, ['show', 'refs/heads/gitfleet/notifications:cursor.yaml']);
  assert.match(
    cursor,
    new RegExp(`ops/hook:\\n\\s+dropped: 0\\n\\s+streams:\\n\\s+bindings: "${bindingsHead}:\\*"`),
  );
  assert.doesNotMatch(log + cursor, /secret-path|notify-test-key/, 'no secret in Git');
});

test('A rollout routed to a github receiver sets its context on the source commit: pending as it starts, failure when it halts', async () => {
  const forge = await startForgeStatusServer({
    kind: 'github',
    token: 'gh-token-5e1',
    repository: 'fleet-team/fleet',
  });
  try {
    const secrets = secretsFor('http://127.0.0.1:1');
    writeFileSync(join(secrets, 'gh-token'), 'gh-token-5e1\n');
    const repo = await fleetWithStrategy(strategy({ deadline: 30 }));
    commitChange(repo, 'set statuses on the fleet repository', (work) =>
      writeFileSync(
        join(work, 'policies/notify.yaml'),
        [
          'apiVersion: gitfleet.io/v1alpha1',
          'kind: NotificationPolicy',
          'metadata: {name: ops}',
          'spec:',
          '  receivers:',
          `  - {name: deploys, type: github, repository: fleet-team/fleet, url: "${forge.apiUrl}", tokenFile: gh-token}`,
          '  routes:',
          '  - {events: [RolloutStarted, RolloutHalted, RolloutComplete], receivers: [deploys]}',
          '',
        ].join('\n'),
      ),
    );
    const { worker } = testWorker(repo.path, secrets);
    worker.passed(rendered(await hubPass(repo, { now: at(t0 - 10_000) })));
    const source = commitChange(repo, 'web 2.0.0', (work) => setImage(work, '2.0.0'));
    worker.passed(rendered(await hubPass(repo, { now: at(t0) })));
    await report(repo, canary, 'Progressing', '0 of 3 updated replicas are available');
    worker.passed(rendered(await hubPass(repo, { now: at(t0 + 10_000) })));
    worker.passed(rendered(await hubPass(repo, { now: at(t0 + 30_000) })));
    assert.equal(record(repo)!.phase, 'Halted');
    await worker.idle();
    await eventually(() => worker.backlog() === 0, 'the statuses set');
    await worker.stop();
    assert.deepEqual(
      forge.posted(source).map((s) => [s.context, s.state]),
      [
        ['gitfleet/rollout/shop/web', 'pending'],
        ['gitfleet/rollout/shop/web', 'failure'],
      ],
    );
    assert.match(
      forge.posted(source)[1]!.description,
      /^shop\/web: step 1\/2 not Healthy within progressDeadlineSeconds 30/,
    );
  } finally {
    await forge.close();
  }
});
