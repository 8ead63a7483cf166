// The harness stops one member's kube-apiserver and starts it again on the same port
// (test/clusters/harness/restart-api-server.ts): while it is down the API does not answer;
// afterwards it answers at the same address with the same credentials, and what was stored
// before is still there, because etcd kept running. Its own cluster (no controllers), so it
// does not disturb the group's clusters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { withTestClusters } from '../clusters/harness/with-test-clusters.js';

test(
  'a member API server stopped and started again keeps its address, credentials and data',
  { timeout: 600_000 },
  async () => {
    await withTestClusters({ count: 1, controllers: false }, async (env, clusters) => {
      const kubectl = (...args: string[]) =>
        execFileSync(
          join(env['GITFLEET_K8S_BIN']!, 'kubectl'),
          [
            '--kubeconfig',
            env['GITFLEET_TEST_KUBECONFIG']!,
            '--context',
            'member1',
            '--request-timeout=5s',
            ...args,
          ],
          { stdio: 'pipe' },
        ).toString('utf8');
      kubectl('create', 'configmap', 'survivor', '--namespace=default', '--from-literal=a=1');

      await clusters.stopApiServer('member1');
      assert.throws(() => kubectl('get', 'configmap', 'survivor', '--namespace=default'), 'down: no answer');
      await assert.rejects(clusters.stopApiServer('member1'), /member1: kube-apiserver is not running/);

      await clusters.startApiServer('member1');
      const back = JSON.parse(
        kubectl('get', 'configmap', 'survivor', '--namespace=default', '-o', 'json'),
      ) as {
        data: Record<string, string>;
      };
      assert.deepEqual(back.data, { a: '1' }, 'the data survived in etcd');
      await assert.rejects(clusters.startApiServer('member1'), /already running/);
    });
  },
);
