// The agent loop on the fake cluster and the fake clock: after a pass, it watches the kinds it
// applied; another writer's change asks for a pass after the debounce, which corrects it, and
// the agent's own write that follows asks for nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runAgentLoop } from '../../../src/loops/agent/agent-loop.js';
import type { AgentPassResult } from '../../../src/loops/agent/run-agent-pass.js';
import { silentLogger } from '../../../src/loops/runtime/logger.js';
import { commitClusterBranch } from '../../support/cluster-branch.js';
import { eventually } from '../../support/eventually.js';
import { aConfigMap, aNamespace } from '../../support/kube-objects.js';
import { fakeAgent } from './fake-agent.js';

const settings = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'settings' };

test('a change by another writer brings a pass after the debounce; the correction itself brings none', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  await commitClusterBranch(agent.gitdir, agent.cluster, [
    aNamespace('shop'),
    aConfigMap('shop', 'settings', { mode: 'git' }),
  ]);
  const results: AgentPassResult[] = [];
  let stop!: () => void;
  const loop = runAgentLoop({
    pass: () => agent.pass(),
    client: agent.fake,
    cluster: agent.cluster,
    memory: agent.memory,
    triggers: [],
    clock: agent.clock,
    random: () => 0,
    log: silentLogger(),
    report: (r) => results.push(r),
    stop: new Promise<void>((resolve) => (stop = resolve)),
    debounceMs: 500,
  });
  t.after(async () => {
    stop();
    await loop;
  });
  await eventually(
    () => results.length === 1 && agent.fake.openWatches() === 2,
    'the first pass and its watches',
  );
  assert.deepEqual(agent.clock.pending(), [], 'nothing else to do');

  agent.fake.edit(settings, (o) => {
    o['data'] = { mode: 'by hand' };
  });
  await eventually(() => agent.clock.pending().length > 0, 'the watch event');
  assert.deepEqual(agent.clock.pending(), [500], 'a pass, after the debounce');
  agent.clock.advance(500);
  await eventually(() => results.length === 2, 'the pass the change asked for');

  assert.equal(results[1]?.objects.find((o) => o.ref.name === 'settings')?.action, 'driftCorrected');
  assert.deepEqual((agent.fake.peek(settings)?.['data'] as { mode?: string }).mode, 'git');
  await agent.fake.deliverEvents();
  assert.deepEqual(agent.clock.pending(), [], 'the agent’s own write is not a change');
});
