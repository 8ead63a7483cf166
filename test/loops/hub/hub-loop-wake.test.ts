// The hub loop runs a pass at the time a rendered pass says a failover decision falls due.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runHubLoop } from '../../../src/loops/hub/hub-loop.js';
import type { HubPassResult } from '../../../src/loops/hub/hub-pass-result.js';
import { renderedResult, upToDate, upToDateUntil } from './hub-loop-results.js';
import { silentLogger } from '../../../src/loops/runtime/logger.js';
import { fakeClock } from '../runtime/fake-clock.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Runs the loop over the pass results in turn (then up to date), with a trigger the test fires. */
function startLoop(clock: ReturnType<typeof fakeClock>, results: HubPassResult[]) {
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
  return { loop, passes: () => passes, fire: () => fire(), stop: () => stop() };
}
test('a wake-at time runs a pass then; a pass with nothing to do keeps the timer; a rendered pass without one cancels it', async () => {
  const clock = fakeClock();
  const results: HubPassResult[] = [
    renderedResult(new Date(clock.now() + 5_000)),
    upToDate,
    renderedResult(),
  ];
  const run = startLoop(clock, results);
  await tick();
  assert.equal(run.passes(), 1);
  run.fire();
  await tick();
  assert.equal(run.passes(), 2, 'an event runs a pass, which finds nothing to do');
  clock.advance(4_999);
  await tick();
  assert.equal(run.passes(), 2, 'not before the time');
  clock.advance(1);
  await tick();
  assert.equal(run.passes(), 3, 'the time has come: a pass');
  assert.deepEqual(clock.pending(), [], 'that pass set no time: no timer is left');
  run.stop();
  await run.loop;
});

test('a record of statuses that waits for its gap runs a pass at its time, beside a failover wake', async () => {
  const clock = fakeClock();
  const results: HubPassResult[] = [
    renderedResult(new Date(clock.now() + 50_000)),
    upToDateUntil(new Date(clock.now() + 30_000)),
  ];
  const run = startLoop(clock, results);
  await tick();
  run.fire();
  await tick();
  assert.equal(run.passes(), 2, 'the second pass holds a record of statuses for 30 s');
  clock.advance(29_999);
  await tick();
  assert.equal(run.passes(), 2);
  clock.advance(1);
  await tick();
  assert.equal(run.passes(), 3, 'the record is due: a pass');
  clock.advance(20_000);
  await tick();
  assert.equal(run.passes(), 4, 'the failover wake still runs its pass');
  run.stop();
  await run.loop;
});
