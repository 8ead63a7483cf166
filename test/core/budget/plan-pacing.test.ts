import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forgeBudget } from '../../../src/core/budget/forge-budget.js';
import {
  planPushSlots,
  pushSpacingMs,
  ringsPerSecond,
  spreadSeconds,
} from '../../../src/core/budget/plan-pacing.js';

test('A status repository on GitHub gets a push slot every 12.5 s (80% of 6 a minute); the fleet repository every 16.7 s (60%).', () => {
  assert.equal(pushSpacingMs(forgeBudget('github'), false), 12_500);
  assert.equal(pushSpacingMs(forgeBudget('github'), true), 16_667);
});

test('An unlimited forge paces nothing.', () => {
  assert.equal(pushSpacingMs(forgeBudget('generic'), false), undefined);
  assert.equal(ringsPerSecond(forgeBudget('generic'), 1000, 300), undefined);
});

test('Push slots go to the clusters by name, one spacing apart, half a spacing wide, in a period of one slot each.', () => {
  const slots = planPushSlots(['c', 'a', 'b', 'a'], 12_500);
  assert.deepEqual(
    [...slots],
    [
      ['a', { periodMs: 37_500, offsetMs: 0, widthMs: 6250 }],
      ['b', { periodMs: 37_500, offsetMs: 12_500, widthMs: 6250 }],
      ['c', { periodMs: 37_500, offsetMs: 25_000, widthMs: 6250 }],
    ],
  );
});

test('No minute of a slot schedule holds more pushes than the budget: at most one push per slot, 6 a minute on GitHub.', () => {
  const spacing = pushSpacingMs(forgeBudget('github'), false)!;
  const slots = [
    ...planPushSlots(
      Array.from({ length: 88 }, (_, k) => `c${k}`),
      spacing,
    ).values(),
  ];
  // Each cluster pushes at the latest moment of its slot in one period, the worst case for a window.
  const times = slots.map((s) => s.offsetMs + s.widthMs - 1).sort((a, b) => a - b);
  let most = 0;
  for (const start of times)
    most = Math.max(most, times.filter((t) => t >= start && t < start + 60_000).length);
  assert.ok(most <= 6, `${most} pushes in one minute`);
});

test('The doorbell sends agents to fetch within 80% of the read budget, less the safety polls, two reads each.', () => {
  // GitHub: (12 − 1000/300) / 2 = 4.3 → 4 a second; (12 − 100/300) / 2 = 5.8 → 5.
  assert.equal(ringsPerSecond(forgeBudget('github'), 1000, 300), 4);
  assert.equal(ringsPerSecond(forgeBudget('github'), 100, 300), 5);
  // GitLab's shared 600 operations a minute are 10 reads a second at most.
  assert.equal(ringsPerSecond(forgeBudget('gitlab'), 100, 300), 3);
  // Never less than one a second, however many readers.
  assert.equal(ringsPerSecond(forgeBudget('github'), 100_000, 300), 1);
});

test('A spread of paced events lasts until the last one goes.', () => {
  assert.equal(spreadSeconds(1000, 4), 249.75);
  assert.equal(spreadSeconds(1, 4), 0);
});
