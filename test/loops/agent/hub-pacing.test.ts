// The agent's side of the hub's pacing (loops/agent/hub-pacing.ts) on the fake clock, with the
// doorbell's answers scripted: a start waits for its turn, a hub that says "not yet" is waited
// for (a while), a hub that cannot be reached lets the agent start, and a new slot is told.
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
