import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forgeBudget } from '../../../src/core/budget/forge-budget.js';
import {
  planPushSlots,
  pushSpacingMs,
  readsPerRing,
  readsPerRingFromRender,
  ringsPerSecond,
  spreadSeconds,
} from '../../../src/core/budget/plan-pacing.js';

test('A status repository on GitHub gets a push slot every 13.4 s (at most 5 of 6 pushes a minute); the fleet repository every 17.2 s (at most 4).', () => {
  assert.equal(pushSpacingMs(forgeBudget('github'), false), 13_334);
  assert.equal(pushSpacingMs(forgeBudget('github'), true), 17_143);
});

test('An unlimited forge paces nothing.', () => {
  assert.equal(pushSpacingMs(forgeBudget('generic'), false), undefined);
  assert.equal(ringsPerSecond(forgeBudget('generic'), 1000, 300), undefined);
});

test('Push slots go to the clusters by name, one spacing apart, half a spacing wide, in a period of one slot each.', () => {
  const slots = planPushSlots(['c', 'a', 'b', 'a'], 13_334);
  assert.deepEqual(
    [...slots],
    [
      ['a', { periodMs: 40_002, offsetMs: 0, widthMs: 6667 }],
      ['b', { periodMs: 40_002, offsetMs: 13_334, widthMs: 6667 }],
      ['c', { periodMs: 40_002, offsetMs: 26_668, widthMs: 6667 }],
    ],
  );
});

for (const holdsSource of [false, true]) {
  const most = holdsSource ? 4 : 5;
  const where = holdsSource ? 'fleet' : 'status';
  test(`No minute of a slot schedule on a GitHub ${where} repository holds more than ${most} pushes, wherever in its slot each goes.`, () => {
    const spacing = pushSpacingMs(forgeBudget('github'), holdsSource)!;
    const names = Array.from({ length: 88 }, (_, k) => `c${k}`);
    const slots = [...planPushSlots(names, spacing).values()];
    // The worst case for a window: one slot pushed at its very end, the later ones at their start.
    for (let first = 0; first < slots.length; first++) {
      const times = slots.map((s, k) => s.offsetMs + (k === first ? s.widthMs - 1 : 0));
      const from = times[first]!;
      const inMinute = times.filter((t) => t >= from && t < from + 60_000).length;
      assert.ok(inMinute <= most, `${inMinute} pushes in the minute from slot ${first}`);
    }
  });
}

test('The doorbell sends agents to fetch within 80% of the read budget, less the safety polls, two reads each from the fleet repository, one from a render repository.', () => {
  // GitHub: (12 − 1000/300) / 2 = 4.3 → 4 a second; (12 − 100/300) / 2 = 5.8 → 5.
  assert.equal(ringsPerSecond(forgeBudget('github'), 1000, 300), 4);
  assert.equal(ringsPerSecond(forgeBudget('github'), 100, 300), 5);
  // GitLab's shared 600 operations a minute are 10 reads a second at most.
  assert.equal(ringsPerSecond(forgeBudget('gitlab'), 100, 300), 3);
  // Never less than one a second, however many readers.
  assert.equal(ringsPerSecond(forgeBudget('github'), 100_000, 300), 1);
  // A render repository's ring is one read (the head it names, fetched alone): 6 readers,
  // (12 − 6/300) / 1 = 11.98 → 11 a second, where two reads a ring allowed 5.
  assert.equal(ringsPerSecond(forgeBudget('github'), 6, 300, readsPerRingFromRender), 11);
  assert.equal(ringsPerSecond(forgeBudget('github'), 6, 300, readsPerRing), 5);
});

test('A spread of paced events lasts until the last one goes.', () => {
  assert.equal(spreadSeconds(1000, 4), 249.75);
  assert.equal(spreadSeconds(1, 4), 0);
});
