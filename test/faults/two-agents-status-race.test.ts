// Fault: two agents run for the same cluster against one remote repository; the one whose push
// of the status branch loses the compare-and-swap used to exit with the bare "rejected: the
// remote is at …" message. Now it says what happened: another agent for the cluster wrote the
// status branch first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../../src/adapters/kube/kube-client.js';
import { kubeClusterApi } from '../../src/loops/agent/kube-cluster-api.js';
import { createAgentMemory } from '../../src/loops/agent/agent-memory.js';
import { runAgentPass, type AgentPassOptions } from '../../src/loops/agent/run-agent-pass.js';
import { remoteAgentRepo } from '../../src/cli/commands/agent-remote-repo.js';
import { removeTempDirs, tempDir } from '../git-server/git-cli.js';
import { serveFleet } from '../adapters/remote/remote-fixture.js';
import { fakeClock } from '../loops/runtime/fake-clock.js';

/** A port nothing listens on any more: a child process listened there and was killed with SIGKILL. */
async function deadServerPort(): Promise<number> {
  const child = spawn(
    process.execPath,
    ['-e', "const s=require('net').createServer().listen(0,'127.0.0.1',()=>console.log(s.address().port))"],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  child.kill('SIGKILL');
  await once(child, 'exit');
  return Number(line.toString('utf8').trim());
}

test('the agent that loses the race for the status branch says another agent for the cluster wrote it first', async (t) => {
  const fleet = await serveFleet({ branches: ['gitfleet/clusters/m1'] });
  t.after(async () => {
    await fleet.server.close();
    removeTempDirs();
  });
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'dead', server: `http://127.0.0.1:${await deadServerPort()}`, skipTLSVerify: true }],
    users: [{ name: 'u', token: 'not-a-secret' }],
    contexts: [{ name: 'dead', cluster: 'dead', user: 'u' }],
    currentContext: 'dead',
  });
  const client = KubeClient.fromKubeConfig(kc);
  t.after(() => client.close());
  const agentOn = async (cacheDir: string, startMs: number): Promise<AgentPassOptions> => ({
    repo: await remoteAgentRepo({ url: fleet.url, cluster: 'm1', branchPrefix: 'gitfleet/', cacheDir }),
    client: kubeClusterApi(client),
    cluster: 'm1',
    branchPrefix: 'gitfleet/',
    memory: createAgentMemory(),
    clock: fakeClock(startMs),
    identity: { name: 'gitfleet agent m1', email: 'agent-m1@gitfleet.invalid' },
    guard: { maxDeleteFraction: 0.5, minObjects: 10 },
    allowDeletions: false,
    concurrency: 4,
    crdTimeoutMs: 1_000,
    factsMaxAgeMs: 0,
  });
  // Different clocks: the two status commits differ (same content, another time).
  const a = await agentOn(tempDir('agent-a'), 1_700_000_000_000);
  const b = await agentOn(tempDir('agent-b'), 1_700_000_060_000);
  // B fetches, then A writes the status branch, then B's pass works on what it fetched.
  await b.repo.refresh();
  const first = await runAgentPass(a);
  assert.equal(first.status.type, 'written');
  const stale = { ...b, repo: { ...b.repo, refresh: () => Promise.resolve() } };
  await assert.rejects(runAgentPass(stale), (error: Error & { code?: string }) => {
    assert.match(
      error.message,
      /^m1: another agent for cluster m1 wrote gitfleet\/status\/m1 first \(is a second agent running for m1\? only one may\): refs\/heads\/gitfleet\/status\/m1: push to http:\/\/127\.0\.0\.1:\d+\/fleet\.git rejected: the remote is at [0-9a-f]{40}/,
    );
    assert.equal(error.code, 'PushRejected');
    return true;
  });
});
