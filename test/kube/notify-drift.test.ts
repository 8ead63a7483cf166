// Drift told end to end on a real API server (docs/notifications.md#drift): an agent applies a
// Deployment, someone scales it by hand, the agent's next pass puts it back, its status commit
// names the correction and the field (no value), and a notifier worker reading that repository
// delivers one DriftReverted to a local webhook receiver that checks the HMAC.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { localAgentRepo } from '../../src/loops/agent/agent-repo.js';
import { aDeployment, commitClusterBranch, kubectl, refOf, testAgent } from './agent-fixture.js';
import { inNamespace, testKubeConfig } from './test-clusters.js';
import {
  bindingsCommit,
  hmacKey,
  notifyRepo,
  secretsFor,
  testWorker,
  upToDate,
} from '../loops/hub/notify-fixture.js';
import { webhookReceivers } from '../support/webhook-receiver.js';
import { eventually } from '../support/eventually.js';
import { removeTempDirs } from '../support/temp-dirs.js';
import { runGit } from '../support/run-git.js';

const receivers = webhookReceivers(hmacKey);
after(async () => {
  await receivers.closeAll();
  removeTempDirs();
});

test('a Deployment scaled by hand is put back, its status commit names the field, and one signed DriftReverted reaches the webhook', async (t) => {
  const receiver = await receivers.start();
  const repo = notifyRepo(['{events: [DriftReverted], receivers: [hook]}']);
  bindingsCommit(repo, []);
  const agent = testAgent({ repo: localAgentRepo(join(repo.dir, '.git')), name: 'member1' });
  t.after(() => agent.dispose());
  await inNamespace(testKubeConfig(), 'notify-drift', async (ns) => {
    const web = aDeployment(ns, 'web', 1);
    await commitClusterBranch(agent.gitdir, agent.cluster, [web]);
    assert.equal((await agent.pass()).fullyApplied, true);
    const worker = testWorker(repo.dir, secretsFor(receiver.url));
    t.after(() => worker.worker.stop());
    worker.worker.passed(upToDate(repo.source));
    await worker.worker.idle(); // a new receiver starts at the heads

    kubectl(['scale', 'deployment', 'web', '-n', ns, '--replicas=3']);
    const result = await agent.pass();
    assert.equal(result.objects.find((o) => o.ref.name === 'web')?.action, 'driftCorrected');
    const live = await agent.client.get(refOf(web));
    assert.equal((live?.['spec'] as { replicas?: number }).replicas, 1, 'put back');

    const head = (await agent.statusHead())!;
    const message = runGit(['log', '-1', '--format=%B', head], { cwd: repo.dir });
    const lines = message.split('\n').filter((l) => l.startsWith('drift'));
    assert.deepEqual(lines, [`drift reverted: Deployment/${ns}/web (fields: spec.replicas)`], message);

    worker.worker.passed(upToDate(repo.source));
    await worker.worker.idle();
    await eventually(() => worker.worker.backlog() === 0 && receiver.received.length > 0, 'delivered');
    await worker.worker.stop();
    assert.equal(receiver.received.length, 1, 'one event');
    const got = receiver.received[0]!;
    assert.equal(got.signed, true, 'the HMAC checks out');
    const body = JSON.parse(got.body) as Record<string, unknown>;
    assert.deepEqual(
      [body['event'], body['cluster'], body['object'], body['id'], body['sourceCommit']],
      ['DriftReverted', 'member1', `Deployment/${ns}/web`, `${head}:0`, repo.source],
    );
    assert.equal(
      body['message'],
      `Deployment/${ns}/web @member1: changed by hand, put back (fields: spec.replicas)`,
    );
  });
});
