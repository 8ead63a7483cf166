// The refresh gate of a connected doorbell's agent (loops/agent/refresh-gate.ts), over a
// repository that records its refreshes and the heads told to it: a ring's head goes to the
// refresh that ring opened, a ring naming the head the mirror holds costs no refresh (the
// doorbell's first answer at a start, rung while the first pass reads that head), and anything
// else that opens the gate asks Git the usual way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gatedRefresh } from '../../../src/loops/agent/refresh-gate.js';

/** A gate over a recording repository whose mirror holds `held.head`. */
function gated(opts: { connected?: boolean } = {}) {
  const events: string[] = [];
  const held = { head: 'a'.repeat(40) as string | null };
  let fail = false;
  const repo = {
    gitdir: '/nowhere',
    description: 'a recording repository',
    refresh: () => {
      events.push('refresh');
      return fail ? Promise.reject(new Error('the host is down')) : Promise.resolve();
    },
    publish: () => Promise.resolve(),
  };
  const { repo: gatedRepo, gate } = gatedRefresh(repo, {
    connected: () => opts.connected ?? true,
    held: () => Promise.resolve(held.head),
    announce: (head) => events.push(`announce ${head.slice(0, 1)}`),
  });
  return { events, held, gate, repo: gatedRepo, failing: (yes: boolean) => (fail = yes) };
}

test('the first refresh goes to Git; then only what opened the gate does', async () => {
  const g = gated();
  await g.repo.refresh();
  await g.repo.refresh();
  assert.deepEqual(g.events, ['refresh']);
  g.gate.open('the safety poll saw the branch move');
  await g.repo.refresh();
  assert.deepEqual(g.events, ['refresh', 'refresh'], 'no head is told for a poll');
});

test("a ring's head is told just before the refresh it opened", async () => {
  const g = gated();
  await g.repo.refresh();
  g.gate.rung('b'.repeat(40), 'doorbell: branch moved to bbb');
  assert.equal(g.gate.openFor(), 'doorbell: branch moved to bbb');
  await g.repo.refresh();
  assert.deepEqual(g.events, ['refresh', 'announce b', 'refresh']);
  await g.repo.refresh();
  assert.equal(g.events.length, 3, 'the ring is spent');
});

test('a ring naming the head the mirror holds costs no refresh', async () => {
  const g = gated();
  // The doorbell's first answer at a start: rung while the first refresh reads that head.
  g.gate.rung('a'.repeat(40), 'doorbell: branch moved to aaa');
  await g.repo.refresh();
  assert.deepEqual(g.events, ['refresh'], 'the first refresh asks the usual way whatever a ring says');
  g.gate.rung('a'.repeat(40), 'doorbell: branch moved to aaa');
  await g.repo.refresh();
  assert.deepEqual(g.events, ['refresh']);
  assert.equal(g.gate.openFor(), undefined, 'the gate is closed again');
});

test('of several rings the last head goes; anything else that opened the gate asks the usual way', async () => {
  const g = gated();
  await g.repo.refresh();
  g.gate.rung('b'.repeat(40), 'ring b');
  g.gate.rung('c'.repeat(40), 'ring c');
  await g.repo.refresh();
  assert.deepEqual(g.events.slice(1), ['announce c', 'refresh']);
  g.gate.rung('a'.repeat(40), 'ring a');
  g.gate.open('waiting for the hub');
  g.gate.rung('a'.repeat(40), 'ring a');
  await g.repo.refresh();
  assert.deepEqual(g.events.slice(3), ['refresh'], 'the held head is read again from Git, no head told');
});

test('a failed refresh is tried again with the head it carried; without the doorbell every refresh goes', async () => {
  const g = gated();
  await g.repo.refresh();
  g.gate.rung('b'.repeat(40), 'ring b');
  g.failing(true);
  await assert.rejects(g.repo.refresh(), /the host is down/);
  g.failing(false);
  await g.repo.refresh();
  assert.deepEqual(g.events.slice(1), ['announce b', 'refresh', 'announce b', 'refresh']);
  const alone = gated({ connected: false });
  await alone.repo.refresh();
  alone.gate.rung('a'.repeat(40), 'ring a');
  await alone.repo.refresh();
  await alone.repo.refresh();
  assert.deepEqual(alone.events, ['refresh', 'announce a', 'refresh', 'refresh'], 'even a held head');
});
