// The agent loop on the fake cluster and the fake clock: after a pass, it watches the kinds it
// applied; another writer's change asks for a pass after the debounce, which corrects it, and
// the agent's own write that follows asks for nothing. A watch that breaks is started again
// after a backoff jittered by the loop's randomness, and asks for a pass, since it may have
// missed something.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commitClusterBranch } from '../../support/cluster-branch.js';
import { eventually } from '../../support/eventually.js';
import { aConfigMap, aNamespace } from '../../support/kube-objects.js';
import { fakeAgent, startFakeLoop } from './fake-agent.js';
import { runAgentLoop } from '../../../src/loops/agent/agent-loop.js';
import { silentLogger } from '../../../src/loops/runtime/logger.js';

const settings = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'settings' };

test('a change by another writer brings a pass after the debounce; the correction itself brings none', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  await commitClusterBranch(agent.gitdir, agent.cluster, [
    aNamespace('shop'),
    aConfigMap('shop', 'settings', { mode: 'git' }),
  ]);
  const { results, stop } = startFakeLoop(agent, { debounceMs: 500 });
  t.after(stop);
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

test('a broken watch is started again after a jittered backoff on the fake clock, and asks for a pass', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  await commitClusterBranch(agent.gitdir, agent.cluster, [
    aNamespace('shop'),
    aConfigMap('shop', 'settings', { mode: 'git' }),
  ]);
  agent.fake.failingWatches = 2;
  const { results, stop } = startFakeLoop(agent, { random: () => 0.5, debounceMs: 500 });
  t.after(stop);
  await eventually(() => results.length === 1 && agent.clock.pending().length === 2, 'both watches to break');
  assert.deepEqual(agent.clock.pending(), [900, 900], '1 s less 20% jitter times the random 0.5');
  assert.equal(agent.fake.openWatches(), 0);

  agent.clock.advance(900);
  await eventually(() => agent.fake.openWatches() === 2, 'the watches to start again');
  assert.deepEqual(agent.clock.pending(), [500], 'one pass, in case something changed meanwhile');
  agent.clock.advance(500);
  await eventually(() => results.length === 2, 'that pass');
  assert.ok(results[1]?.objects.every((o) => o.action === 'unchanged'));
});

test('stopping while a pass is in flight: the loop returns and no watch is left open', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  await commitClusterBranch(agent.gitdir, agent.cluster, [
    aNamespace('shop'),
    aConfigMap('shop', 'settings', { mode: 'git' }),
  ]);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let started = false;
  let stop!: () => void;
  const loop = runAgentLoop({
    pass: async () => {
      started = true;
      await gate;
      return agent.pass();
    },
    client: agent.fake,
    cluster: agent.cluster,
    memory: agent.memory,
    triggers: [],
    clock: agent.clock,
    random: () => 0,
    log: silentLogger(),
    report: () => undefined,
    stop: new Promise<void>((resolve) => (stop = resolve)),
  });
  await eventually(() => started, 'the pass to start');
  stop();
  await new Promise((resolve) => setImmediate(resolve));
  // The pass in hand finishes after the stop: the kinds it applied must not be watched now, or
  // their open watches would keep a stopped agent's process alive.
  release();
  await loop;
  assert.equal(agent.fake.openWatches(), 0);
});
