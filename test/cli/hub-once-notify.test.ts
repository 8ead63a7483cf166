// `gitfleet hub --once` delivers the notifications its pass produced before it exits
// (docs/notifications.md#hub---once): a NotificationPolicy routing RenderFailed to a real local
// webhook receiver that checks the HMAC; the first run only records where the new receiver starts,
// a run over a source that does not load posts one signed RenderFailed and exits 1, and a run
// after it posts nothing again (what was sent is on the notifications branch).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from './run-cli.js';
import { commitChange, exampleFleetRepo, git, removeFleetRepos } from '../loops/hub/hub-fixture.js';
import { hmacKey, policyText, secretsFor } from '../loops/hub/notify-fixture.js';
import { webhookReceivers } from '../support/webhook-receiver.js';
import { removeTempDirs } from '../support/temp-dirs.js';

const receivers = webhookReceivers(hmacKey);
after(async () => {
  await receivers.closeAll();
  removeFleetRepos();
  removeTempDirs();
});

test('hub --once sends what its pass produced, signed, once', async () => {
  const receiver = await receivers.start();
  const secrets = secretsFor(receiver.url);
  const repo = exampleFleetRepo({ bare: false });
  commitChange(repo, 'tell ops when the fleet does not load', (work) =>
    writeFileSync(
      join(work, 'policies/notify.yaml'),
      policyText(['{events: [RenderFailed], receivers: [hook]}']),
    ),
  );
  const once = () => runCli(['hub', '--repo', repo.path, '--once', '--notifications-secrets-dir', secrets]);
  const first = await once();
  assert.equal(first.code, 0, first.stderr);
  assert.equal(receiver.received.length, 0, 'a new receiver is not sent the past');
  assert.match(
    git(repo, ['show', 'refs/heads/gitfleet/notifications:cursor.yaml']),
    /ops\/hook:/,
    'where it starts is recorded',
  );

  const broken = commitChange(repo, 'a typo', (work) =>
    writeFileSync(join(work, 'broken.yaml'), 'kind: ConfigMap\n  bad: indentation\n'),
  );
  const second = await once();
  assert.equal(second.code, 1, 'the source does not load');
  assert.equal(receiver.received.length, 1, 'delivered before the run exits');
  const got = receiver.received[0]!;
  assert.equal(got.signed, true);
  const body = JSON.parse(got.body) as Record<string, string>;
  assert.equal(body['event'], 'RenderFailed');
  assert.equal(body['id'], `${broken}:RenderFailed`);
  assert.match(body['message']!, /broken\.yaml/);

  const third = await once();
  assert.equal(third.code, 1);
  assert.equal(receiver.received.length, 1, 'not sent again');
  assert.match(
    git(repo, ['show', 'refs/heads/gitfleet/notifications:cursor.yaml']),
    new RegExp(`source: ${broken}:RenderFailed`),
  );
});
