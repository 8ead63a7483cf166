// branchPoll, the trigger that makes a remote agent notice its branch moving: on the fake
// clock it probes right away and then every interval, fires only when the answer changes
// (the first answer is the baseline), backs off while the probe fails and comes back to the
// interval once it answers, and probes no more once stopped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { branchPoll, type BranchPollOptions } from '../../../src/loops/agent/branch-poll.js';
import { eventually } from '../../support/eventually.js';
import { fakeClock } from '../runtime/fake-clock.js';

test('it fires once per move, not on the baseline nor on an unchanged answer', async () => {
  const clock = fakeClock();
  const answers: (string | null | Error)[] = ['a', 'a', 'b', 'b', null, 'c'];
  let asked = 0;
  const trigger = branchPoll({
    clock,
    intervalMs: 1000,
    probe: () => {
      const next = answers[Math.min(asked++, answers.length - 1)]!;
      return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
    },
  });
  const fired: string[] = [];
  await trigger.start((reason) => fired.push(reason));
  for (let i = 1; i < answers.length; i++) {
    await eventually(() => clock.pending().length === 1, `wait ${i}`);
    assert.deepEqual(clock.pending(), [1000]);
    clock.advance(1000);
  }
  await eventually(() => asked === answers.length, 'every answer asked');
  await eventually(() => fired.length === 3, 'three moves');
  assert.deepEqual(fired, ['branch moved to b', 'branch moved to nothing', 'branch moved to c']);
  await trigger.stop();
  assert.deepEqual(clock.pending(), [], 'no probe after stop');
});

test('a move the mirror holds already (a ring or a pass fetched it) is no news; one it does not hold is', async () => {
  // The probe's answers, and what the mirror holds at each: b fetched by a ring before the poll saw it, c not yet.
  const fired = await pollThrough([
    { answer: 'a', held: 'a' },
    { answer: 'b', held: 'b' },
    { answer: 'c', held: 'b' },
    { answer: 'd', held: new Error('the mirror cannot be read') },
  ]);
  assert.deepEqual(
    fired,
    ['branch moved to c', 'branch moved to d'],
    'b was held already; a mirror not read holds nothing',
  );
});

test('untilHeld: a head the mirror does not hold is news at every poll until it does; a tombstone pair only when it changes', async () => {
  // The host answers a throughout; the mirror holds x (a head the doorbell named, not on the
  // branch) until a refresh takes it back to a. Then a tombstone pair. Held against the mirror,
  // the first answer is news too: no baseline is needed.
  const fired = await pollThrough(
    [
      { answer: 'a', held: 'x' },
      { answer: 'a', held: 'x' },
      { answer: 'a', held: 'x' },
      { answer: 'a', held: 'a' },
      { answer: 't a', held: 'a' },
      { answer: 't a', held: 'a' },
    ],
    { untilHeld: { isHead: (answer) => answer !== null && !answer.includes(' ') } },
  );
  assert.deepEqual(fired, [
    'branch moved to a',
    'branch moved to a',
    'branch moved to a',
    'branch moved to t a',
  ]);
});

test('started: a probe due before the agent started sends nothing; the first after it is the baseline', async () => {
  const clock = fakeClock();
  let began = false;
  const answers = ['a', 'b'];
  let asked = 0;
  const trigger = branchPoll({
    clock,
    intervalMs: 1000,
    firstAfterMs: 500,
    probe: () => Promise.resolve(answers[Math.min(asked++, answers.length - 1)]!),
    started: () => began,
  });
  const fired: string[] = [];
  await trigger.start((reason) => fired.push(reason));
  for (const ms of [500, 1000, 1000]) {
    await eventually(() => clock.pending().length === 1, 'a probe due');
    clock.advance(ms);
  }
  await eventually(() => clock.pending().length === 1, 'waiting again');
  assert.equal(asked, 0, 'nothing asked before the start');
  began = true;
  clock.advance(1000);
  await eventually(() => asked === 1 && clock.pending().length === 1, 'the baseline');
  clock.advance(1000);
  await eventually(() => asked === 2 && clock.pending().length === 1, 'the next probe');
  assert.deepEqual(fired, ['branch moved to b'], 'the first answer after the start is the baseline');
  await trigger.stop();
});

test('a poll stopped while it reads what the mirror holds says nothing after the stop', async () => {
  const clock = fakeClock();
  const answers = ['a', 'b'];
  let asked = 0;
  let heldAsked = false;
  let hold!: (head: string) => void;
  const trigger = branchPoll({
    clock,
    intervalMs: 1000,
    probe: () => Promise.resolve(answers[Math.min(asked++, answers.length - 1)]!),
    held: () => ((heldAsked = true), new Promise<string>((resolve) => (hold = resolve))),
  });
  const fired: string[] = [];
  await trigger.start((reason) => fired.push(reason));
  await eventually(() => clock.pending().length === 1, 'the baseline taken');
  clock.advance(1000);
  await eventually(() => heldAsked, 'the move b: the mirror is read');
  const stopped = trigger.stop();
  hold('a'); // the mirror does not hold b: a move, but the poll was stopped meanwhile
  await stopped;
  assert.deepEqual(fired, []);
});

test('a failing probe waits twice as long each time, up to the cap, and the interval comes back', async () => {
  const clock = fakeClock();
  const answers: (string | Error)[] = ['a', ...Array.from({ length: 4 }, () => new Error('down')), 'a', 'b'];
  let asked = 0;
  const trigger = branchPoll({
    clock,
    intervalMs: 1000,
    maxBackoffMs: 5000,
    probe: () => {
      const next = answers[Math.min(asked++, answers.length - 1)]!;
      return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
    },
  });
  const fired: string[] = [];
  await trigger.start((reason) => fired.push(reason));
  const waits: number[] = [];
  for (let i = 1; i < answers.length; i++) {
    await eventually(() => clock.pending().length === 1 && asked === i, `wait ${i}`);
    waits.push(clock.pending()[0]!);
    clock.advance(clock.pending()[0]!);
  }
  await eventually(() => fired.length === 1, 'the move after the outage');
  assert.deepEqual(waits, [1000, 2000, 4000, 5000, 5000, 1000]);
  await trigger.stop();
});

test('an interval that changes (the doorbell connected, then lost) is taken at once, measured from the last probe', async () => {
  const clock = fakeClock();
  let slow = false;
  const listeners = new Set<() => void>();
  let asked = 0;
  const trigger = branchPoll({
    clock,
    intervalMs: () => (slow ? 300_000 : 1000),
    changes: (l) => (listeners.add(l), () => void listeners.delete(l)),
    probe: () => (asked++, Promise.resolve('a')),
  });
  await trigger.start(() => undefined);
  await eventually(() => clock.pending().length === 1, 'first wait');
  assert.deepEqual(clock.pending(), [1000]);
  slow = true;
  for (const l of listeners) l();
  assert.deepEqual(clock.pending(), [300_000], 'the wait in hand is the safety poll now');
  clock.advance(120_000);
  assert.equal(asked, 1, 'no probe meanwhile');
  slow = false;
  for (const l of listeners) l();
  assert.deepEqual(clock.pending(), [0], 'the normal poll is overdue: at once');
  clock.advance(0);
  await eventually(() => asked === 2 && clock.pending().length === 1, 'probed and waiting');
  assert.deepEqual(clock.pending(), [1000]);
  await trigger.stop();
  assert.equal(listeners.size, 0, 'stopped listening');
});

/**
 * Runs a poll every second through these probe answers, the mirror holding `held` at each (an
 * Error: it cannot be read), and returns what it fired, stopped after the last answer.
 */
async function pollThrough(
  steps: { answer: string; held: string | Error }[],
  options: Partial<BranchPollOptions> = {},
): Promise<string[]> {
  const clock = fakeClock();
  let asked = 0;
  const trigger = branchPoll({
    clock,
    intervalMs: 1000,
    probe: () => Promise.resolve(steps[Math.min(asked++, steps.length - 1)]!.answer),
    held: () => {
      const held = steps[Math.min(asked - 1, steps.length - 1)]!.held;
      return held instanceof Error ? Promise.reject(held) : Promise.resolve(held);
    },
    ...options,
  });
  const fired: string[] = [];
  await trigger.start((reason) => fired.push(reason));
  for (let i = 1; i < steps.length; i++) {
    await eventually(() => clock.pending().length === 1 && asked === i, `wait ${i}`);
    clock.advance(1000);
  }
  await eventually(() => asked === steps.length && clock.pending().length === 1, 'every answer asked');
  await trigger.stop();
  return fired;
}
