// The hub loop runs a pass at the time a rendered pass says a failover decision falls due.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runHubLoop } from '../../../src/loops/hub/hub-loop.js';
import type { HubPassResult } from '../../../src/loops/hub/hub-pass-result.js';
import { renderedResult, upToDate, upToDateUntil } from './hub-loop-results.js';
import { silentLogger } from '../../../src/loops/runtime/logger.js';
import { fakeClock } from '../runtime/fake-clock.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));
test('a wake-at time runs a pass then; a pass with nothing to do keeps the timer; a rendered pass without one cancels it', async () => {
  const clock = fakeClock();
  const results: HubPassResult[] = [
    renderedResult(new Date(clock.now() + 5_000)),
    upToDate,
    renderedResult(),
  ];
  let passes = 0;
  let fire = (): void => undefined;
  let stop!: () => void;
  const loop = runHubLoop({
    pass: () => {
      passes++;
      return Promise.resolve(results.shift() ?? upToDate);
    },
    triggers: [
      {
        name: 'manual',
        start: (notify) => void (fire = () => notify('fired')),
        stop: () => Promise.resolve(),
      },
    ],
    clock,
    random: () => 0,
    log: silentLogger(),
    report: () => undefined,
    stop: new Promise((resolve) => (stop = resolve)),
  });
  await tick();
  assert.equal(passes, 1);
  fire();
  await tick();
  assert.equal(passes, 2, 'an event runs a pass, which finds nothing to do');
  clock.advance(4_999);
  await tick();
  assert.equal(passes, 2, 'not before the time');
  clock.advance(1);
  await tick();
  assert.equal(passes, 3, 'the time has come: a pass');
  assert.deepEqual(clock.pending(), [], 'that pass set no time: no timer is left');
  stop();
  await loop;
});

test('a record of statuses that waits for its gap runs a pass at its time, beside a failover wake', async () => {
  const clock = fakeClock();
  const results: HubPassResult[] = [
    renderedResult(new Date(clock.now() + 50_000)),
    upToDateUntil(new Date(clock.now() + 30_000)),
  ];
  let passes = 0;
  let fire = (): void => undefined;
  let stop!: () => void;
  const loop = runHubLoop({
    pass: () => {
      passes++;
      return Promise.resolve(results.shift() ?? upToDate);
    },
    triggers: [
      {
        name: 'manual',
        start: (notify) => void (fire = () => notify('fired')),
        stop: () => Promise.resolve(),
      },
    ],
    clock,
    random: () => 0,
    log: silentLogger(),
    report: () => undefined,
    stop: new Promise((resolve) => (stop = resolve)),
  });
  await tick();
  fire();
  await tick();
  assert.equal(passes, 2, 'the second pass holds a record of statuses for 30 s');
  clock.advance(29_999);
  await tick();
  assert.equal(passes, 2);
  clock.advance(1);
  await tick();
  assert.equal(passes, 3, 'the record is due: a pass');
  clock.advance(20_000);
  await tick();
  assert.equal(passes, 4, 'the failover wake still runs its pass');
  stop();
  await loop;
});
