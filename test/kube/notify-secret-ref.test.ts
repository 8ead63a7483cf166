// A receiver's secretRef read from a real API server (adapters/notify/kube-secret-key.ts), as a
// hub in a Pod reads it: the webhook URL comes from a key of a Secret and the delivery goes
// there; a Secret or key that is not there is a failed delivery naming the policy, the receiver,
// the Secret and the key, never a value, and a Secret created later is used at the next try.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { httpReceiver } from '../../src/adapters/notify/http-receiver.js';
import { kubeSecretKey } from '../../src/adapters/notify/kube-secret-key.js';
import { KubeHttp } from '../../src/adapters/kube/kube-http.js';
import { fleetEvent } from '../../src/core/notify/fleet-event.js';
import { kubectl } from './agent-fixture.js';
import { inNamespace, testKubeConfig } from './test-clusters.js';
import { webhookReceivers } from '../support/webhook-receiver.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

const key = 'secret-ref-hmac-key';
const receivers = webhookReceivers(key);
after(async () => {
  await receivers.closeAll();
  removeTempDirs();
});

const event = fleetEvent('DriftReverted', {
  id: 'c0ffee:0',
  time: '2026-12-05T10:00:00.000Z',
  sourceCommit: 'a'.repeat(40),
  cluster: 'member1',
  message: 'Deployment/shop/web @member1: changed by hand, put back (fields: spec.replicas)',
});

test('a secretRef is read from the Secret at each delivery: missing, it fails naming it; created, it is used', async () => {
  const s = await receivers.start();
  const dir = tempDir('notify-secret-ref');
  writeFileSync(join(dir, 'hook-key'), key);
  const http = new KubeHttp(testKubeConfig(), { maxSockets: 1 });
  await inNamespace(testKubeConfig(), 'notify-secret', async (ns) => {
    const receiver = httpReceiver({
      policy: 'ops',
      spec: {
        name: 'hook',
        type: 'webhook',
        url: { type: 'secret', name: 'hooks', key: 'pager-url' },
        hmacKeyFile: 'hook-key',
      },
      secrets: { dir, secretKey: kubeSecretKey(http, ns) },
      timeoutMs: 5000,
    });
    const signal = new AbortController().signal;
    assert.deepEqual(await receiver.deliver(event, signal), {
      type: 'failed',
      reason: 'NotificationPolicy/ops: receiver hook: Secret hooks key pager-url: not found',
    });
    kubectl(['create', 'secret', 'generic', 'hooks', '-n', ns, '--from-literal=other=x']);
    assert.deepEqual(await receiver.deliver(event, signal), {
      type: 'failed',
      reason: 'NotificationPolicy/ops: receiver hook: Secret hooks key pager-url: not found',
    });
    assert.equal(s.received.length, 0, 'nothing sent');

    kubectl(['delete', 'secret', 'hooks', '-n', ns]);
    kubectl([
      'create',
      'secret',
      'generic',
      'hooks',
      '-n',
      ns,
      `--from-literal=pager-url=${s.url}/hooks/s3cr3t`,
    ]);
    assert.deepEqual(await receiver.deliver(event, signal), { type: 'delivered', status: 200 });
    assert.equal(s.received.length, 1);
    assert.equal(s.received[0]!.path, '/hooks/s3cr3t');
    assert.equal(s.received[0]!.signed, true);
  });
});
