// `agent --once` starts without memory each time; it used to check every object with a
// server dry-run (about 1,000 requests on 1,000 objects) where the loop sends none. The
// inventory now records each object's resourceVersion after the apply, so a pass without
// memory knows from one list per kind which objects were written since.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAgentMemory } from '../../src/loops/agent/agent-memory.js';
import { aConfigMap, commitClusterBranch, kubectl, testAgent } from './agent-fixture.js';
import { inNamespace, testKubeConfig } from './test-clusters.js';

test('a pass without memory on an up-to-date cluster sends no dry run; one written since gets one', async (t) => {
  const agent = testAgent();
  t.after(() => agent.dispose());
  await inNamespace(testKubeConfig(), 'agent-oncemem', async (ns) => {
    const objects = Array.from({ length: 30 }, (_, i) => aConfigMap(ns, `cm-${i}`, { i: String(i) }));
    await commitClusterBranch(agent.gitdir, agent.cluster, objects);
    assert.equal((await agent.pass()).fullyApplied, true);

    const fresh = await agent.pass({ memory: createAgentMemory() });
    assert.equal(fresh.fullyApplied, true);
    assert.deepEqual(
      { mutating: fresh.requests.mutating, dryRun: fresh.requests.dryRun },
      { mutating: 0, dryRun: 0 },
    );

    kubectl(['patch', 'configmap', 'cm-3', '-n', ns, '--type', 'merge', '-p', '{"data":{"i":"hand"}}']);
    const edited = await agent.pass({ memory: createAgentMemory() });
    assert.equal(edited.requests.dryRun, 1, 'only the object written since is checked');
    assert.deepEqual(
      edited.objects.filter((o) => o.action !== 'unchanged').map((o) => [o.ref.name, o.action]),
      [['cm-3', 'driftCorrected']],
    );
    const after = await agent.pass({ memory: createAgentMemory() });
    assert.equal(after.requests.dryRun + after.requests.mutating, 0, 'the correction is recorded too');
  });
});
