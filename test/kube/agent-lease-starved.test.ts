// The agent's heartbeat and Lease under CPU starvation (issue 27, "Also"): one `gitfleet agent`
// loop for member1 holds its Lease; the test stops it with SIGSTOP for longer than the renew
// deadline (and the Lease duration), then SIGCONT. Its timers all fire late at once: the renew
// deadline, the heartbeat, a pass. It must not exit (issue 27 point 1 was the heartbeat's
// NotLeading escaping its timer): it says it lost the Lease and stands by, then leads again
// and writes its status and heartbeat again. Waits are on what the agent prints and what the
// repository holds (eventually, generous), never on wall-clock bounds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { heartbeatRef, statusRef } from '../../src/core/publish/hub-refs.js';
import { readRef } from '../../src/adapters/git/read-ref.js';
import {
  aConfigMap,
  aNamespace,
  commitClusterBranch,
  kubectl,
  makeBareRepo,
  prefix,
} from './agent-fixture.js';
import { eventually, inNamespace, testKubeConfig, uniqueName } from './test-clusters.js';
import { removeAgentLeftovers, startProcess, type Process } from './lease-processes.js';

const renewDeadlineS = 3;
const leaseDurationS = 4;

test('an agent stopped (SIGSTOP) past its renew deadline and continued stands by, leads again and reports; it never exits', async () => {
  const kc = testKubeConfig();
  const kubeconfig = process.env['GITFLEET_TEST_KUBECONFIG']!;
  const repo = makeBareRepo();
  const apps = uniqueName('agent-starved-apps');
  let agent: Process | undefined;
  await inNamespace(kc, 'agent-starved', async (leaseNs) => {
    try {
      await commitClusterBranch(repo.dir, 'member1', [aNamespace(apps), aConfigMap(apps, 'one', { v: '1' })]);
      agent = startProcess('agent', [
        ...['agent', '--repo', repo.dir, '--cluster', 'member1', '--kubeconfig', kubeconfig],
        ...['--context', 'member1', '--interval', '1s', '--lease-namespace', leaseNs],
        ...['--lease-duration', `${leaseDurationS}s`, '--lease-renew-deadline', `${renewDeadlineS}s`],
        ...['--lease-retry-period', '1s', '--cluster-lease-duration', '2s'],
      ]);
      const a = agent;
      await a.waitFor(/: leading as /);
      const heartbeat = () => readRef(repo.dir, heartbeatRef(prefix, 'member1'));
      const status = () => readRef(repo.dir, statusRef(prefix, 'member1'));
      await eventually('the first status and heartbeat', async () =>
        (await status()) && (await heartbeat()) ? true : undefined,
      );

      for (let round = 0; round < 2; round++) {
        const from = a.lines().length;
        a.child.kill('SIGSTOP');
        // Stopped for twice the Lease duration: every deadline passes while it cannot run. The
        // wait is the fault's length, not an assertion on time.
        await new Promise((resolve) => setTimeout(resolve, 2 * leaseDurationS * 1000));
        const beforeStatus = await status();
        const beforeBeat = await heartbeat();
        a.child.kill('SIGCONT');
        await a.waitFor(
          /lost the lease .*; standing by$|standing by until this replica holds the lease/,
          60_000,
          from,
        );
        await a.waitFor(/: leading as /, 120_000, from);
        await eventually(`round ${round}: a heartbeat after the stop`, async () =>
          (await heartbeat()) !== beforeBeat ? true : undefined,
        );
        // A new commit of the branch is applied and reported in the new term.
        const v = String(round + 2);
        await commitClusterBranch(repo.dir, 'member1', [aNamespace(apps), aConfigMap(apps, 'one', { v })]);
        await eventually(`round ${round}: the new commit applied`, async () =>
          kubectl([
            'get',
            'configmap',
            'one',
            '-n',
            apps,
            '-o',
            'jsonpath={.data.v}',
            '--ignore-not-found',
          ]).trim() === v
            ? true
            : undefined,
        );
        await eventually(`round ${round}: status written again`, async () =>
          (await status()) !== beforeStatus ? true : undefined,
        );
        assert.ok(a.running(), `round ${round}: the agent still runs:\n${a.output()}`);
        assert.doesNotMatch(a.output(), /uncaught|unhandled|NotLeading.*\n\s+at /i, a.output());
      }
    } catch (error) {
      if (agent) console.log(agent.output().split('\n').slice(-40).join('\n'));
      throw error;
    } finally {
      agent?.child.kill('SIGCONT');
      await agent?.stop('SIGTERM');
      removeAgentLeftovers('member1', apps);
      repo.dispose();
    }
  });
});
