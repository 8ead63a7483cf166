// The push pacer on the fake clock: the spread a starting agent takes without the hub's slot,
// the slot when there is one, and one push per opening.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pushPacer, slotWaitMs } from '../../../src/loops/agent/push-pacer.js';
import type { PushSlot } from '../../../src/core/budget/plan-pacing.js';
import { fakeClock } from '../runtime/fake-clock.js';

test('Without a spread or a slot the pacer holds nothing: pushes go at once, as before pacing.', () => {
  const clock = fakeClock();
  const pacer = pushPacer({ clock, random: () => 0.5, spreadMs: 0 });
  assert.equal(pacer.waitMs(), 0);
  pacer.pushed();
  assert.equal(pacer.waitMs(), 0);
});

test('With a spread, the first push falls at a random moment within it, and the next a whole spread later.', () => {
  const clock = fakeClock();
  const pacer = pushPacer({ clock, random: () => 0.25, spreadMs: 600_000 });
  assert.equal(pacer.waitMs(), 150_000, 'a quarter into the spread');
  clock.advance(150_000);
  assert.equal(pacer.waitMs(), 0);
  pacer.pushed();
  assert.equal(pacer.lastPushAt(), clock.now());
  assert.equal(pacer.waitMs(), 600_000);
  clock.advance(599_999);
  assert.equal(pacer.waitMs(), 1);
  clock.advance(1);
  assert.equal(pacer.waitMs(), 0);
});

test('Agents started together with random draws push apart: their first pushes are spread over the window.', () => {
  const clock = fakeClock();
  const draws = [0, 0.2, 0.4, 0.6, 0.8];
  const waits = draws.map((r) => pushPacer({ clock, random: () => r, spreadMs: 100_000 }).waitMs());
  assert.deepEqual(waits, [0, 20_000, 40_000, 60_000, 80_000]);
});

test('With a slot, a push waits for the slot, goes once in it, and the next waits for the next period.', () => {
  const clock = fakeClock(1_000_000);
  const slot: PushSlot = { periodMs: 100_000, offsetMs: 30_000, widthMs: 5000 };
  const pacer = pushPacer({ clock, random: () => 0, spreadMs: 600_000, slot: () => slot });
  // 1,000,000 is 0 into a period: the slot starts 30 s later.
  assert.equal(pacer.waitMs(), 30_000);
  clock.advance(30_000);
  assert.equal(pacer.waitMs(), 0);
  pacer.pushed();
  assert.equal(pacer.waitMs(), 100_000, 'spent: the next period');
  clock.advance(4000);
  assert.equal(pacer.waitMs(), 96_000, 'still inside the spent slot');
  clock.advance(96_000);
  assert.equal(pacer.waitMs(), 0);
});

test('A slot reached late, past its width, waits for the next period rather than pushing out of turn.', () => {
  const slot: PushSlot = { periodMs: 100_000, offsetMs: 0, widthMs: 5000 };
  assert.equal(slotWaitMs(slot, 4999, -Infinity), 0);
  assert.equal(slotWaitMs(slot, 5000, -Infinity), 95_000);
  // Before the offset (a negative phase) counts round the period.
  assert.equal(slotWaitMs({ ...slot, offsetMs: 10_000 }, 5000, -Infinity), 5000);
});

test('The slot wins over the spread once the hub gives one, and the spread takes over when it is gone.', () => {
  const clock = fakeClock(0);
  let slot: PushSlot | undefined;
  const pacer = pushPacer({ clock, random: () => 0.5, spreadMs: 600_000, slot: () => slot });
  assert.equal(pacer.waitMs(), 300_000);
  slot = { periodMs: 50_000, offsetMs: 10_000, widthMs: 5000 };
  assert.equal(pacer.waitMs(), 10_000);
  slot = undefined;
  assert.equal(pacer.waitMs(), 300_000);
});

test('Whether a status waits for the pacer is remembered for the heartbeat to give way to it.', () => {
  const pacer = pushPacer({ clock: fakeClock(), random: () => 0, spreadMs: 1000 });
  assert.equal(pacer.statusWaiting(), false);
  pacer.setStatusWaiting(true);
  assert.equal(pacer.statusWaiting(), true);
});
