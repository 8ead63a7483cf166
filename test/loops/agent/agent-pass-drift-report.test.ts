// Drift corrections told in Git (docs/notifications.md#drift): the agent's next status commit
// names each object it put back and the field paths, never a value; corrections between two
// commits are summed; a paced agent writes them at its pacer's opening, not at once; a fight that
// backs off is listed while it lasts. On the fake cluster and the fake clock, a real repository.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { commitClusterBranch, prefix } from '../../support/cluster-branch.js';
import { aConfigMap, aNamespace } from '../../support/kube-objects.js';
import type { KubeObject } from '../../../src/core/model/kube-object.js';
import { statusBranchRef } from '../../../src/loops/agent/agent-repo.js';
import { pushPacer } from '../../../src/loops/agent/push-pacer.js';
import { fakeAgent, type FakeAgent } from './fake-agent.js';

const settings = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'settings' };
const creds = { apiVersion: 'v1', kind: 'Secret', namespace: 'shop', name: 'creds' };
const aSecret: KubeObject = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'creds', namespace: 'shop' },
  data: { password: Buffer.from('from-git').toString('base64') },
};

/** The messages of the status branch's commits, newest first. */
function statusMessages(agent: FakeAgent): string[] {
  const ref = statusBranchRef(prefix, agent.cluster);
  const out = execFileSync('git', ['--git-dir', agent.gitdir, 'log', '--format=%B%x00', ref], {
    encoding: 'utf8',
  });
  return out
    .split('\0')
    .map((m) => m.trim())
    .filter((m) => m !== '');
}

async function startedAgent(): Promise<FakeAgent> {
  const agent = fakeAgent();
  await commitClusterBranch(agent.gitdir, agent.cluster, [
    aNamespace('shop'),
    aConfigMap('shop', 'settings', { mode: 'git' }),
    aSecret,
  ]);
  await agent.pass();
  return agent;
}

test('the next status commit names the object put back and its field paths, never a value, and then nothing more is written', async (t) => {
  const agent = await startedAgent();
  t.after(() => agent.dispose());
  const before = statusMessages(agent).length;
  // data.extra is another writer's field: the agent's apply leaves it, so it is not named.
  agent.fake.edit(settings, (o) => void (o['data'] = { mode: 'by-hand', extra: 'x' }));
  agent.fake.edit(creds, (o) => void (o['data'] = { password: Buffer.from('hunter2').toString('base64') }));
  agent.clock.advance(1000);

  const result = await agent.pass();

  assert.deepEqual(
    result.objects
      .filter((o) => o.action === 'driftCorrected')
      .map((o) => o.ref.name)
      .sort(),
    ['creds', 'settings'],
  );
  const messages = statusMessages(agent);
  assert.equal(messages.length, before + 1, 'one status commit, though the report is the same');
  const body = messages[0]!.split('\n');
  assert.ok(body.includes('drift reverted: ConfigMap/shop/settings (fields: data.mode)'), messages[0]);
  assert.ok(body.includes('drift reverted: Secret/shop/creds (fields: data.password)'), messages[0]);
  assert.doesNotMatch(messages[0]!, /by-hand|hunter2|aHVudGVyMg|from-git|ZnJvbS1naXQ/, 'no value');

  agent.clock.advance(1000);
  await agent.pass();
  assert.equal(statusMessages(agent).length, before + 1, 'a pass with nothing new writes nothing');
});

test('corrections while the pacer holds the push are summed into the one commit written at its opening', async (t) => {
  const agent = await startedAgent();
  t.after(() => agent.dispose());
  const pacer = pushPacer({ clock: agent.clock, random: () => 0, spreadMs: 60_000 });
  pacer.pushed(); // the slot of this minute is spent
  const before = statusMessages(agent).length;
  for (const mode of ['a', 'b', 'c']) {
    agent.fake.edit(settings, (o) => void (o['data'] = { mode }));
    agent.clock.advance(5_000);
    const result = await agent.pass({ pacer });
    assert.equal(result.objects.find((o) => o.ref.name === 'settings')?.action, 'driftCorrected');
  }
  agent.fake.delete(settings);
  agent.clock.advance(5_000);
  await agent.pass({ pacer });
  assert.equal(statusMessages(agent).length, before, 'no push while the pacer holds it');

  agent.clock.advance(60_000);
  await agent.pass({ pacer });
  const messages = statusMessages(agent);
  assert.equal(messages.length, before + 1, 'one commit at the opening');
  assert.match(
    messages[0]!,
    /^drift reverted: ConfigMap\/shop\/settings \(4 times; deleted by hand, recreated; fields: data\.mode\)$/m,
  );
});

test('a fight that backs off is listed while it lasts', async (t) => {
  const agent = await startedAgent();
  t.after(() => agent.dispose());
  agent.memory.fight = { limit: 1, windowMs: 600_000, backoffMs: 600_000 };
  agent.fake.edit(settings, (o) => void (o['data'] = { mode: 'one' }));
  await agent.pass();
  agent.fake.edit(settings, (o) => void (o['data'] = { mode: 'two' }));
  agent.clock.advance(1000);
  const result = await agent.pass();
  assert.equal(result.objects.find((o) => o.ref.name === 'settings')?.action, 'driftPaused');
  const [newest] = statusMessages(agent);
  assert.match(newest!, /^drift correction paused: ConfigMap\/shop\/settings$/m);
  assert.doesNotMatch(newest!, /^drift reverted:/m, 'the correction was told by the commit before');
});
