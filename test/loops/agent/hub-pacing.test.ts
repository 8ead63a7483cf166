// The agent's side of the hub's pacing (loops/agent/hub-pacing.ts) on the fake clock, with the
// doorbell's answers scripted: a start waits for its turn, a hub that says "not yet" is waited
// for (a while), a hub that cannot be reached lets the agent start, a new slot is told, and
// starts a busy process fired late together are spread again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PacingAnswer } from '../../../src/adapters/http/doorbell-request.js';
import { hubPacing } from '../../../src/loops/agent/hub-pacing.js';
import { silentLogger } from '../../../src/loops/runtime/logger.js';
import { fakeClock } from '../runtime/fake-clock.js';

const slot = { periodMs: 60_000, offsetMs: 13_000, widthMs: 6000 };
const settle = () => new Promise((resolve) => setImmediate(resolve));

function scripted(answers: PacingAnswer[]) {
  const asked: boolean[] = [];
  return {
    asked,
    ask: (_signal: AbortSignal, starting: boolean): Promise<PacingAnswer> => {
      asked.push(starting);
      return Promise.resolve(answers.shift() ?? { type: 'unavailable', message: 'no more answers' });
    },
  };
}

test('A start waits for the turn the hub gave, then the slot is known; later asks take no turn.', async () => {
  const clock = fakeClock(0);
  const script = scripted([
    { type: 'pacing', pushSlot: slot, startInMs: 2500 },
    { type: 'pacing', pushSlot: slot, startInMs: 0 },
  ]);
  const pacing = hubPacing({ ask: script.ask, clock, log: silentLogger(), refreshMs: 600_000 });
  let started = false;
  void pacing.started().then(() => (started = true));
  pacing.start(() => undefined);
  await settle();
  assert.deepEqual(pacing.slot(), slot);
  clock.advance(2499);
  await settle();
  assert.equal(started, false, 'not before its turn');
  clock.advance(1);
  await settle();
  assert.equal(started, true);
  clock.advance(600_000);
  await settle();
  assert.deepEqual(script.asked, [true, false]);
  await pacing.stop();
});

test('A hub that says "not yet" (503) or does not answer is asked again without starting; one that refuses the token lets the agent start.', async () => {
  const clock = fakeClock(0);
  const script = scripted([
    { type: 'unavailable', status: 503, retryAfterMs: 5000, message: 'answered 503' },
    { type: 'unavailable', message: 'no answer within 30000 ms' },
    { type: 'unauthorized' },
  ]);
  const pacing = hubPacing({ ask: script.ask, clock, log: silentLogger() });
  let started = false;
  void pacing.started().then(() => (started = true));
  pacing.start(() => undefined);
  await settle();
  assert.equal(started, false, 'waits for the hub that asked to be asked again');
  clock.advance(5000);
  await settle();
  assert.equal(started, false, 'waits for a hub that did not answer in time');
  clock.advance(5000);
  await settle();
  assert.equal(started, true, 'starts unpaced when the hub refuses it');
  assert.equal(pacing.slot(), undefined);
  assert.deepEqual(script.asked, [true, true, true]);
  await pacing.stop();
});

test('A hub that keeps saying "not yet" is waited for two minutes at most.', async () => {
  const clock = fakeClock(0);
  const notYet: PacingAnswer = {
    type: 'unavailable',
    status: 503,
    retryAfterMs: 5000,
    message: 'answered 503',
  };
  const pacing = hubPacing({
    ask: scripted(Array.from({ length: 100 }, () => notYet)).ask,
    clock,
    log: silentLogger(),
  });
  let started = false;
  void pacing.started().then(() => (started = true));
  pacing.start(() => undefined);
  for (let k = 0; k < 23 && !started; k++) {
    clock.advance(5000);
    await settle();
  }
  assert.equal(started, false);
  for (let k = 0; k < 3 && !started; k++) {
    clock.advance(5000);
    await settle();
  }
  assert.equal(started, true);
  await pacing.stop();
});

test('A slot that changes is told to the loop, so a status waiting for the old one is scheduled by the new.', async () => {
  const clock = fakeClock(0);
  const moved = { ...slot, offsetMs: 26_000 };
  const script = scripted([
    { type: 'pacing', pushSlot: slot, startInMs: 0 },
    { type: 'pacing', pushSlot: slot, startInMs: 0 },
    { type: 'pacing', pushSlot: moved, startInMs: 0 },
  ]);
  const pacing = hubPacing({ ask: script.ask, clock, log: silentLogger(), refreshMs: 1000 });
  const told: string[] = [];
  pacing.start((reason) => told.push(reason));
  await settle();
  clock.advance(1000);
  await settle();
  assert.equal(told.length, 1, 'the first slot, and no word for the same one again');
  clock.advance(1000);
  await settle();
  assert.equal(told.length, 2);
  assert.deepEqual(pacing.slot(), moved);
  await pacing.stop();
});

/** A clock whose timers due while the process is busy (until `busyUntil`) all fire then, late. */
function busyClock(busyUntil: number) {
  const clock = fakeClock(0);
  return {
    ...clock,
    setTimer: (callback: () => void, delayMs: number) =>
      clock.setTimer(callback, Math.max(delayMs, busyUntil - clock.now())),
  };
}

test('Starts whose timers a busy process fired late together are spread over their lateness, not read in the same second.', async () => {
  const agents = 12;
  const startsAt = async (random: ((i: number) => () => number) | undefined) => {
    const clock = busyClock(10_000);
    const at: number[] = [];
    const pacings = Array.from({ length: agents }, (_, i) => {
      // The hub's turns: one start every 400 ms (two turns at five a second).
      const script = scripted([{ type: 'pacing', pushSlot: slot, startInMs: 400 * (i + 1) }]);
      const pacing = hubPacing({
        ask: script.ask,
        clock,
        log: silentLogger(),
        ...(random ? { random: random(i) } : {}),
      });
      void pacing.started().then(() => at.push(clock.now()));
      pacing.start(() => undefined);
      return pacing;
    });
    await settle();
    for (let t = 0; t < 400; t++) {
      clock.advance(50);
      await settle();
    }
    await Promise.all(pacings.map((p) => p.stop()));
    const perSecond = new Map<number, number>();
    for (const t of at) perSecond.set(Math.floor(t / 1000), (perSecond.get(Math.floor(t / 1000)) ?? 0) + 1);
    return { at, busiest: Math.max(...perSecond.values()) };
  };
  const unspread = await startsAt(undefined);
  assert.equal(unspread.busiest, agents, 'without a random source every held start goes at 10 s');
  // Each agent's draw: twelve values evenly over [0, 1), in no order of the agents' turns.
  const spread = await startsAt((i) => () => ((i * 5) % agents) / agents);
  assert.equal(spread.at.length, agents);
  assert.ok(Math.min(...spread.at) >= 10_000, 'none before its turn');
  assert.ok(spread.busiest <= agents / 4, `at most a quarter in one second: ${spread.at.join(', ')}`);
});
