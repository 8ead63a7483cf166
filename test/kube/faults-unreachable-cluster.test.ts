// Fault: the member cluster stops answering after a good pass (here the TCP proxy the agent
// reaches it through is killed with SIGKILL). The first failing pass reports it NotReady with
// the objects as last seen; the failing passes after it change nothing and must write no
// status commit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { KubeClient } from '../../src/adapters/kube/kube-client.js';
import { kubeClusterApi } from '../../src/loops/agent/kube-cluster-api.js';
import { aConfigMap, commitClusterBranch, testAgent } from './agent-fixture.js';
import { inNamespace, testKubeConfig } from './test-clusters.js';

const proxySource = `
const net = require('net');
const [host, port] = process.argv[1].split(':');
const s = net.createServer((c) => { const u = net.connect(Number(port), host); c.pipe(u); u.pipe(c);
  c.on('error', () => u.destroy()); u.on('error', () => c.destroy()); });
s.listen(0, '127.0.0.1', () => console.log(s.address().port));`;

test('a cluster that stops answering gets one NotReady status commit, then none while it stays down', async (t) => {
  const kc = testKubeConfig();
  const server = new URL(kc.getCurrentCluster()!.server);
  const proxy = spawn(process.execPath, ['-e', proxySource, `${server.hostname}:${server.port}`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(proxy.stdout, 'data')) as [Buffer];
  const proxied = `https://${server.hostname}:${line.toString('utf8').trim()}`;
  const cluster = kc.getCurrentCluster()!;
  kc.clusters = kc.clusters.map((c) => (c.name === cluster.name ? { ...c, server: proxied } : c));
  const client = KubeClient.fromKubeConfig(kc);
  const proxiedCluster = kubeClusterApi(client);
  const agent = testAgent();
  t.after(async () => {
    proxy.kill('SIGKILL');
    client.close();
    await agent.dispose();
  });
  await inNamespace(testKubeConfig(), 'faults-down', async (ns) => {
    await commitClusterBranch(agent.gitdir, agent.cluster, [aConfigMap(ns, 'web', { a: '1' })]);
    assert.equal((await agent.pass({ client: proxiedCluster })).fullyApplied, true);
    proxy.kill('SIGKILL');
    await once(proxy, 'exit');

    const down = await agent.pass({ client: proxiedCluster });
    assert.equal(down.type, 'clusterUnreachable');
    assert.equal(down.status.type, 'written');
    const head = await agent.statusHead();
    for (let i = 0; i < 3; i++) {
      const again = await agent.pass({ client: proxiedCluster });
      assert.equal(again.type, 'clusterUnreachable');
      assert.equal(again.status.type, 'unchanged', `failing pass ${i + 2}`);
    }
    assert.equal(await agent.statusHead(), head);
    const report = await agent.report();
    assert.equal(report?.clusterStatus?.conditions?.[0]?.reason, 'ClusterNotReachable');
    assert.deepEqual(
      report?.objects.map((o) => o.ref.name),
      ['web'],
      'the objects as last seen',
    );
  });
});
