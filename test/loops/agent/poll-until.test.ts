// pollUntil, the agent's waits on the cluster (a recreated object gone, CRDs Established): on the
// fake clock it asks again every interval until the deadline; on the system clock it holds the
// process while it waits, so `agent --once` cannot end in the middle of a pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { pollUntil } from '../../../src/loops/agent/poll-until.js';
import { eventually } from '../../support/eventually.js';
import { fakeClock } from '../runtime/fake-clock.js';

test('it asks every interval until the check holds, and gives up at the deadline', async () => {
  const clock = fakeClock();
  const asked: number[] = [];
  const start = clock.now();
  const waiting = pollUntil({
    clock,
    timeoutMs: 1_000,
    intervalMs: 300,
    check: () => {
      asked.push(clock.now() - start);
      return Promise.resolve(false);
    },
  });
  for (let i = 0; i < 4; i++) {
    await eventually(() => clock.pending().length === 1, `wait ${i + 1}`);
    clock.advance(300);
  }
  assert.equal(await waiting, false);
  assert.deepEqual(asked, [0, 300, 600, 900, 1_200], 'the last ask is the first one past the deadline');
});

test('on the system clock, a process whose only work is the wait stays up until it ends', async () => {
  const poll = new URL('../../../src/loops/agent/poll-until.js', import.meta.url).href;
  const clock = new URL('../../../src/loops/runtime/clock.js', import.meta.url).href;
  const script = `
    import { pollUntil } from ${JSON.stringify(poll)};
    import { systemClock } from ${JSON.stringify(clock)};
    let asked = 0;
    const done = await pollUntil({ clock: systemClock(), timeoutMs: 10_000, intervalMs: 20, check: async () => ++asked >= 3 });
    console.log(done, asked);`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
  assert.equal(stdout.trim(), 'true 3');
});
