// A fight on the fake cluster: another writer keeps changing a field the agent applies. The
// agent corrects the drift up to the fight limit within the window, then pauses corrections
// and says so in its report, and corrects again once the pause is over, all on the fake
// clock. A new manifest is applied even during a pause.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commitClusterBranch } from '../../support/cluster-branch.js';
import { aConfigMap, aNamespace } from '../../support/kube-objects.js';
import { fakeAgent, type FakeAgent } from './fake-agent.js';

const settings = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'settings' };
const fight = { limit: 3, windowMs: 10 * 60_000, backoffMs: 5 * 60_000 };

/** Another writer sets data.mode, then the agent passes; returns the ConfigMap's action and its mode after. */
async function editThenPass(agent: FakeAgent, mode: string): Promise<[string | undefined, unknown]> {
  agent.fake.edit(settings, (o) => {
    o['data'] = { mode };
  });
  const result = await agent.pass();
  const action = result.objects.find((o) => o.ref.name === 'settings')?.action;
  return [action, (agent.fake.peek(settings)?.['data'] as { mode?: string }).mode];
}

test('the agent corrects a fought field up to the limit, then backs off on its clock, then corrects again', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  agent.memory.fight = fight;
  await commitClusterBranch(agent.gitdir, agent.cluster, [
    aNamespace('shop'),
    aConfigMap('shop', 'settings', { mode: 'git' }),
  ]);
  await agent.pass();

  for (let i = 0; i < fight.limit; i++) {
    agent.clock.advance(60_000);
    assert.deepEqual(
      await editThenPass(agent, `other-${i}`),
      ['driftCorrected', 'git'],
      `correction ${i + 1}`,
    );
  }
  agent.clock.advance(60_000);
  const applies = agent.fake.mutations().length;
  assert.deepEqual(await editThenPass(agent, 'other-paused'), ['driftPaused', 'other-paused']);
  assert.equal(agent.fake.mutations().length, applies, 'no apply while paused');
  const paused = (await agent.report())?.conditions?.find((c) => c.type === 'DriftCorrected');
  assert.equal(paused?.reason, 'BackedOff');

  agent.clock.advance(fight.backoffMs - 60_000 - 1);
  assert.deepEqual(
    (await agent.pass()).objects.find((o) => o.ref.name === 'settings')?.action,
    'driftPaused',
  );
  agent.clock.advance(1);
  assert.deepEqual(
    (await agent.pass()).objects.find((o) => o.ref.name === 'settings')?.action,
    'driftCorrected',
    'the pause is over exactly backoffMs after the last correction',
  );
  assert.equal((agent.fake.peek(settings)?.['data'] as { mode?: string }).mode, 'git');
});

test('a new manifest is applied even while corrections of the old one are paused', async (t) => {
  const agent = fakeAgent();
  t.after(() => agent.dispose());
  agent.memory.fight = fight;
  await commitClusterBranch(agent.gitdir, agent.cluster, [
    aNamespace('shop'),
    aConfigMap('shop', 'settings', { mode: 'git' }),
  ]);
  await agent.pass();
  for (let i = 0; i <= fight.limit; i++) await editThenPass(agent, `other-${i}`);
  await commitClusterBranch(agent.gitdir, agent.cluster, [
    aNamespace('shop'),
    aConfigMap('shop', 'settings', { mode: 'new' }),
  ]);

  const result = await agent.pass();

  assert.equal(result.objects.find((o) => o.ref.name === 'settings')?.action, 'updated');
  assert.equal((agent.fake.peek(settings)?.['data'] as { mode?: string }).mode, 'new');
});
