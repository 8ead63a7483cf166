// The hub loop writes the hub memo once it is idle (no pass rendered for memoIdleMs) and when
// it stops, never after every pass and never while a pass runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runHubLoop } from '../../../src/loops/hub/hub-loop.js';
import type { HubPassResult } from '../../../src/loops/hub/hub-pass-result.js';
import { renderedResult, upToDate } from './hub-loop-results.js';
import { silentLogger } from '../../../src/loops/runtime/logger.js';
import { fakeClock } from '../runtime/fake-clock.js';

const tick = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};
const rendered = renderedResult();

function memoLoop(results: HubPassResult[]) {
  const clock = fakeClock();
  const events: string[] = [];
  let running = 0;
  let fire = (): void => undefined;
  let stop!: () => void;
  const loop = runHubLoop({
    pass: async () => {
      running++;
      events.push('pass');
      await new Promise((resolve) => setImmediate(resolve));
      running--;
      return results.shift() ?? upToDate;
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
    memoIdleMs: 10_000,
    saveMemo: () => {
      events.push(running > 0 ? 'memo during a pass' : 'memo');
      return Promise.resolve();
    },
  });
  return { clock, events, loop, fire: () => fire(), stop: () => stop() };
}

test('a burst of rendered passes writes the memo once, idle time after the last of them', async () => {
  const hub = memoLoop([rendered, rendered, rendered]);
  await tick();
  hub.clock.advance(6_000);
  hub.fire();
  await tick();
  hub.clock.advance(6_000);
  hub.fire();
  await tick();
  assert.deepEqual(hub.events, ['pass', 'pass', 'pass'], 'no memo while passes keep rendering');
  hub.clock.advance(9_999);
  await tick();
  assert.deepEqual(hub.events, ['pass', 'pass', 'pass'], 'not before the idle time after the last pass');
  hub.clock.advance(1);
  await tick();
  assert.deepEqual(hub.events, ['pass', 'pass', 'pass', 'memo']);
  hub.clock.advance(60_000);
  hub.fire();
  await tick();
  hub.clock.advance(60_000);
  await tick();
  assert.deepEqual(
    hub.events,
    ['pass', 'pass', 'pass', 'memo', 'pass'],
    'a pass with nothing to do writes none',
  );
  hub.stop();
  await hub.loop;
  assert.deepEqual(hub.events, ['pass', 'pass', 'pass', 'memo', 'pass'], 'nothing pending at the stop');
});

test('a loop stopped before it was idle writes the pending memo as it stops, after the pass in hand', async () => {
  const hub = memoLoop([rendered]);
  await tick();
  hub.clock.advance(2_000);
  hub.stop();
  await hub.loop;
  assert.deepEqual(hub.events, ['pass', 'memo']);
});
