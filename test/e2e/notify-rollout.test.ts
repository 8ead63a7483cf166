// End to end, the way a user runs it (issue 34, done when): `gitfleet hub
// --notifications-secrets-dir …` and one `gitfleet agent` per test cluster as long-running
// processes, three test clusters of its own, the rollout fleet of rollout.test.ts (shop/web,
// member1 first, onFailure Halt) with a NotificationPolicy routing RolloutHalted to a local webhook
// receiver that checks the HMAC. A change whose Pods can never run (a nodeSelector no node has)
// halts at step 1, and the receiver gets exactly one signed RolloutHalted naming the reason.
//
// The waits follow the outcome, not the clock: the first rollout Complete (the receiver's position
// starts at the heads, so nothing of it is sent), then the message, then the notifications branch
// recording the bindings head that halted (so every pass after the halt was read and sent nothing).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withTestClusters } from '../clusters/harness/with-test-clusters.js';
import { git, removeTempDirs, tempDir } from '../git-server/git-cli.js';
import { eventually } from '../kube/test-clusters.js';
import { startFleet, type RunningFleet } from '../support/running-fleet.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { clusterNames, fleetRepo, minutes } from './failover-fleet.js';
import {
  bindingsRef,
  noSuchNode,
  rolloutFleet,
  rolloutRecord,
  sameCommit,
  sourceHead,
} from './rollout-fleet.js';

const key = 'e2e-notify-key-8d2f';
const policy = `apiVersion: gitfleet.io/v1alpha1
kind: NotificationPolicy
metadata: {name: ops}
spec:
  receivers:
    - {name: hook, type: webhook, urlFile: hook-url, hmacKeyFile: hook-key}
  routes:
    - {events: [RolloutHalted], receivers: [hook]}
`;

const halted = (r: WebhookReceiver) =>
  r.received.filter((m) => (JSON.parse(m.body) as { event?: string }).event === 'RolloutHalted');

test(
  'a halted rollout posts one signed message with the reason to the webhook receiver',
  { timeout: minutes(15) },
  async () => {
    const receiver = await startWebhookReceiver(key);
    const secrets = tempDir('notify-e2e-secrets');
    mkdirSync(secrets, { recursive: true });
    writeFileSync(join(secrets, 'hook-url'), `${receiver.url}/hooks/ops\n`);
    writeFileSync(join(secrets, 'hook-key'), key);
    let fleet: RunningFleet | undefined;
    try {
      await withTestClusters({ count: 3 }, async (env) => {
        const { repo, commit } = await fleetRepo('notify-rollout-repo');
        const halt = { soakSeconds: 3, onFailure: 'Halt' } as const;
        await commit(
          { ...rolloutFleet({ image: '1.0' }, halt), 'notify.yaml': policy },
          'web 1.0, ops told of halts',
        );
        fleet = startFleet(repo, clusterNames, env['GITFLEET_TEST_KUBECONFIG']!, {
          hub: ['--notifications-secrets-dir', secrets],
        });
        const phase = (want: string, revision: string) =>
          eventually(
            `the rollout record says ${want}`,
            async () => {
              if (!fleet!.running('hub')) return 'hub exited';
              const s = await rolloutRecord(repo);
              return s?.phase === want && sameCommit(revision, s.revision) ? s : undefined;
            },
            minutes(6),
          );
        try {
          assert.notEqual(await phase('Complete', await sourceHead(repo)), 'hub exited');
          await commit(rolloutFleet({ image: '2.0', nodeSelector: noSuchNode }, halt), 'web 2.0 on no node');
          const bad = await sourceHead(repo);
          const record = await phase('Halted', bad);
          assert.ok(typeof record === 'object' && record !== undefined);
          await eventually(
            'the halt reaches the receiver',
            async () => (halted(receiver).length > 0 ? true : undefined),
            minutes(2),
          );
          const head = (await git(repo, ['rev-parse', bindingsRef])).trim();
          // The notifier recorded that it read up to the bindings head that halted: later passes sent nothing more.
          await eventually(
            'the notifications branch records the halt as sent',
            async () => {
              const cursor = await git(repo, ['show', 'refs/heads/gitfleet/notifications:cursor.yaml']).catch(
                () => '',
              );
              const at = /bindings: "([0-9a-f]{40}):/.exec(cursor)?.[1];
              if (at === undefined) return undefined;
              const after = await git(repo, ['merge-base', '--is-ancestor', head, at]).then(
                () => true,
                () => false,
              );
              return after ? true : undefined;
            },
            minutes(2),
          );
          const messages = halted(receiver);
          assert.equal(messages.length, 1, messages.map((m) => m.body).join('\n'));
          const got = messages[0]!;
          assert.equal(got.signed, true, 'signed with the receiver key');
          assert.equal(got.path, '/hooks/ops');
          const body = JSON.parse(got.body) as Record<string, string>;
          assert.equal(body['severity'], 'error');
          assert.equal(body['sourceCommit'], bad);
          assert.equal(body['cluster'], 'member1');
          assert.match(body['message']!, /^shop\/web: .*member1.*web/);
          assert.equal(body['message'], `shop/web: ${record.message}`, "the reason is the record's");
        } catch (error) {
          // What the hub and agents said (the last 100 lines of each), and the record.
          console.log(
            fleet
              .output()
              .split(/\n(?=--- )/)
              .map((part) => part.split('\n').slice(-100).join('\n'))
              .join('\n'),
          );
          console.log(
            await git(repo, ['show', `${bindingsRef}:.gitfleet/rollouts/shop/web.yaml`]).catch(String),
          );
          throw error;
        } finally {
          await fleet.stop();
        }
      });
    } finally {
      await receiver.close();
      removeTempDirs();
    }
    assert.equal(halted(receiver).length, 1, 'nothing more when the hub stopped');
  },
);
