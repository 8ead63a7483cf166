// Fault: the member cluster's API server dies (kill -9) and stays down; every failing pass
// made a new NotReady status commit although nothing changed. Now the first failing pass
// reports it and the passes after, failing the same way, write nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../../src/adapters/kube/kube-client.js';
import { kubeClusterApi } from '../../src/loops/agent/kube-cluster-api.js';
import { createAgentMemory } from '../../src/loops/agent/agent-memory.js';
import { localAgentRepo, statusBranchRef } from '../../src/loops/agent/agent-repo.js';
import { runAgentPass, type AgentPassOptions } from '../../src/loops/agent/run-agent-pass.js';
import { readStatusFiles, writeStatusBranch } from '../../src/loops/agent/write-status-branch.js';
import { parseStatusBranch } from '../../src/core/status/status-branch.js';
import { readRef } from '../../src/adapters/git/read-ref.js';
import { aConfigMap, commitClusterBranch, makeBareRepo, prefix } from '../kube/agent-fixture.js';
import { fakeClock } from '../loops/runtime/fake-clock.js';

/** Starts a process that listens on a free port, then kills it with SIGKILL; returns the port, now refused. */
async function deadServerPort(): Promise<number> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      "const s=require('net').createServer(()=>{}).listen(0,'127.0.0.1',()=>console.log(s.address().port))",
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  const port = Number(line.toString('utf8').trim());
  child.kill('SIGKILL');
  await once(child, 'exit');
  return port;
}

/** Returns a client of a cluster whose API server listened on `port` and is gone. */
function deadClient(port: number): KubeClient {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'dead', server: `http://127.0.0.1:${port}`, skipTLSVerify: true }],
    users: [{ name: 'u', token: 'not-a-secret' }],
    contexts: [{ name: 'dead', cluster: 'dead', user: 'u' }],
    currentContext: 'dead',
  });
  return KubeClient.fromKubeConfig(kc);
}

function passOptions(gitdir: string, client: KubeClient, clock = fakeClock()): AgentPassOptions {
  return {
    repo: localAgentRepo(gitdir),
    client: kubeClusterApi(client),
    cluster: 'm1',
    branchPrefix: prefix,
    memory: createAgentMemory(),
    clock,
    identity: { name: 'gitfleet agent m1', email: 'agent-m1@gitfleet.invalid' },
    guard: { maxDeleteFraction: 0.5, minObjects: 10 },
    allowDeletions: false,
    concurrency: 4,
    crdTimeoutMs: 1_000,
    factsMaxAgeMs: 0,
  };
}

test('a cluster that stays down gets one NotReady status commit, not one per failing pass', async (t) => {
  const repo = makeBareRepo();
  t.after(() => repo.dispose());
  const client = deadClient(await deadServerPort());
  t.after(() => client.close());
  await commitClusterBranch(repo.dir, 'm1', [aConfigMap('shop', 'web', { a: '1' })]);
  const clock = fakeClock();
  const options = passOptions(repo.dir, client, clock);
  const pass = () => runAgentPass(options);
  const first = await pass();
  assert.equal(first.type, 'clusterUnreachable');
  assert.equal(first.status.type, 'written');
  const head = await readRef(repo.dir, statusBranchRef(prefix, 'm1'));
  for (let i = 0; i < 3; i++) {
    clock.advance(30_000);
    const again = await pass();
    assert.equal(again.type, 'clusterUnreachable');
    assert.equal(again.status.type, 'unchanged', `pass ${i + 2}`);
  }
  assert.equal(await readRef(repo.dir, statusBranchRef(prefix, 'm1')), head);
});

test('a pass without memory (agent --once) on a cluster that is down keeps the objects the status branch reported', async (t) => {
  const repo = makeBareRepo();
  t.after(() => repo.dispose());
  const client = deadClient(await deadServerPort());
  t.after(() => client.close());
  await commitClusterBranch(repo.dir, 'm1', [aConfigMap('shop', 'web', { a: '1' })]);
  const ref = statusBranchRef(prefix, 'm1');
  const web = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'web' };
  await writeStatusBranch({
    repo: localAgentRepo(repo.dir),
    ref,
    report: { cluster: 'm1', appliedCommit: null, objects: [{ ref: web, applied: true, health: 'Healthy' }] },
    message: 'status m1: applied\n',
    author: {
      name: 'gitfleet agent m1',
      email: 'agent-m1@gitfleet.invalid',
      time: 1_700_000_000,
      tzOffsetMinutes: 0,
    },
  });
  const pass = await runAgentPass({ ...passOptions(repo.dir, client), memory: createAgentMemory() });
  assert.equal(pass.type, 'clusterUnreachable');
  const report = parseStatusBranch(await readStatusFiles(repo.dir, ref));
  assert.deepEqual(
    report?.objects.map((o) => [o.ref.name, o.applied, o.health]),
    [['web', true, 'Healthy']],
  );
});
