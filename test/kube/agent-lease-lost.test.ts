// An agent that loses its Lease in the middle of a long pass (docs/production.md#one-agent-per-cluster):
// one `gitfleet agent` loop applies a branch of 400 ConfigMaps through an admission gate
// (admission-gate.ts: a real validating webhook) that admits the first 50 and then holds every
// further write unanswered, so the pass stands at a known point with its requests on the wire,
// however fast the machine. With every apply worker waiting there, the test takes the Lease as
// another agent would (holderIdentity another id, a fresh renewTime, an hour's duration so the
// agent cannot take it back). Once the agent says it lost the Lease, exactly the 50 admitted
// ConfigMaps exist; the test lets the held requests through, and from then on only those may
// land: the API server is asked for no further write, the pass stops short of the branch, and
// no status is written. Then the test releases the Lease: the agent leads again, applies the rest
// and writes its status. What happened is read from the API server, the webhook and the status
// branch, not timed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statusRef } from '../../src/core/publish/hub-refs.js';
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
import { removeAgentLeftovers, startProcess, writeLease, type Process } from './lease-processes.js';
import { startAdmissionGate, type AdmissionGate } from './admission-gate.js';
// The agent's apply concurrency (cli/commands/agent.ts): the requests that may be on the wire at once.
import { defaultApplyConcurrency as concurrency } from '../../src/loops/agent/apply-staged.js';

const configMaps = 400;
/** ConfigMaps the admission gate lets through before it holds the pass. */
const admitted = 50;
const leaseName = 'gitfleet-agent-member1';

/** Returns the names of the branch's ConfigMaps that exist in `ns`. */
function appliedNames(ns: string): Set<string> {
  const out = kubectl(['get', 'configmaps', '-n', ns, '-o', 'jsonpath={.items[*].metadata.name}']);
  return new Set(out.split(' ').filter((n) => n.startsWith('cm-')));
}

test('an agent whose Lease is taken mid-pass sends no further apply, writes no status, and finishes once it holds the Lease again', async () => {
  const kc = testKubeConfig();
  const kubeconfig = process.env['GITFLEET_TEST_KUBECONFIG']!;
  const repo = makeBareRepo();
  const apps = uniqueName('lease-lost-apps');
  let agent: Process | undefined;
  let gate: AdmissionGate | undefined;
  await inNamespace(kc, 'lease-lost', async (leaseNs) => {
    try {
      gate = await startAdmissionGate({
        namespace: apps,
        names: /^cm-/,
        admit: admitted,
        probeNamespace: leaseNs,
      });
      const g = gate;
      const names = Array.from({ length: configMaps }, (_, i) => `cm-${String(i).padStart(4, '0')}`);
      await commitClusterBranch(repo.dir, 'member1', [
        aNamespace(apps),
        ...names.map((n) => aConfigMap(apps, n, { v: n })),
      ]);
      agent = startProcess('agent', [
        ...['agent', '--repo', repo.dir, '--cluster', 'member1', '--kubeconfig', kubeconfig],
        ...['--context', 'member1', '--interval', '1h', '--lease-namespace', leaseNs],
        ...['--lease-duration', '4s', '--lease-renew-deadline', '3s', '--lease-retry-period', '1s'],
      ]);
      const a = agent;
      await a.waitFor(/: leading as /);
      // Every apply worker has sent its request and waits on the API server.
      await eventually(
        `the gate holds ${concurrency} writes`,
        async () => (g.heldCount() >= concurrency ? true : undefined),
        180_000,
      );
      const from = a.lines().length;
      await eventually('the test takes the Lease', async () => {
        writeLease(leaseNs, leaseName, 'another-agent_00000000-0000-0000-0000-000000000000', 3600);
        return true;
      });
      await a.waitFor(
        /: lost the lease \(another-agent_[0-9a-f-]+ holds it now\); standing by$/,
        60_000,
        from,
      );
      const atLoss = appliedNames(apps);
      assert.equal(atLoss.size, admitted, 'the gate admitted the first 50 ConfigMaps and held the rest');
      const onTheWire = new Set(
        g
          .requests()
          .filter((r) => r.phase === 'held')
          .map((r) => r.name),
      );
      await g.release();
      // The loop ends once the pass in hand has stopped, and whileLeading stands by again.
      await a.waitFor(/standing by until this replica holds the lease/, 120_000, from);
      const afterStop = appliedNames(apps);
      const late = [...afterStop].filter((n) => !atLoss.has(n));
      const further = g.requests().filter((r) => r.phase === 'released' && r.namespace === apps);
      console.log(
        `at the loss: ${atLoss.size} of ${configMaps} applied, ${onTheWire.size} on the wire; ` +
          `after it: ${late.length} more, ${further.length} further writes asked`,
      );
      assert.ok(onTheWire.size <= concurrency, `at most ${concurrency} requests on the wire at once`);
      assert.deepEqual(
        late.filter((n) => !onTheWire.has(n)),
        [],
        'only requests already sent may land after the loss',
      );
      assert.deepEqual(
        further.map((r) => r.name),
        [],
        'the agent sends no further write after the loss',
      );
      assert.ok(afterStop.size < configMaps, 'the pass stopped short of the branch');
      assert.ok(
        a
          .lines()
          .slice(from)
          .some((l) => /lost its Lease during the pass/.test(l.text)),
        `the pass ended with the NotLeading error:\n${a.output()}`,
      );
      assert.equal(await readRef(repo.dir, statusRef(prefix, 'member1')), null, 'no status written');

      // Released: the agent takes the Lease at its next try, applies the rest and reports.
      const back = a.lines().length;
      await eventually('the test releases the Lease', async () => {
        writeLease(leaseNs, leaseName, '', 1);
        return true;
      });
      await a.waitFor(/: leading as /, 60_000, back);
      await eventually(
        'the agent writes its status for the whole branch',
        async () => ((await readRef(repo.dir, statusRef(prefix, 'member1'))) ? true : undefined),
        300_000,
      );
      assert.equal(appliedNames(apps).size, configMaps, 'every ConfigMap applied in the new term');
    } catch (error) {
      if (agent) console.log(agent.output().split('\n').slice(-40).join('\n'));
      throw error;
    } finally {
      await gate?.close();
      await agent?.stop('SIGTERM');
      removeAgentLeftovers('member1', apps);
      repo.dispose();
    }
  });
});
