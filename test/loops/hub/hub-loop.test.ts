import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runHubLoop } from '../../../src/loops/hub/hub-loop.js';
import { noTimings, type HubPassResult } from '../../../src/loops/hub/hub-pass-result.js';
import type { Logger } from '../../../src/loops/runtime/logger.js';
import type { Trigger } from '../../../src/loops/runtime/trigger.js';
import { fakeClock } from '../runtime/fake-clock.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

function upToDate(n: number): HubPassResult {
  const timings = noTimings();
  return {
    type: 'upToDate',
    source: { ref: 'refs/heads/main', commit: `${n}`.padStart(40, '0'), subject: '', message: '' },
    bindingsCommit: 'b',
    timings,
    attempts: 1,
  };
}

/** A trigger the test fires by hand, recording whether it runs. */
function manualTrigger(): Trigger & { fire(): void; running: boolean } {
  let notify: ((reason: string) => void) | undefined;
  return {
    name: 'manual',
    running: false,
    start(n) {
      notify = n;
      this.running = true;
    },
    stop() {
      this.running = false;
      notify = undefined;
      return Promise.resolve();
    },
    fire: () => notify?.('fired'),
  };
}

function logger(): Logger & { errors: string[] } {
  const errors: string[] = [];
  return { errors, info: () => undefined, warn: () => undefined, error: (m) => errors.push(m) };
}

test('the loop runs a pass at start, and a burst of events during a pass gives exactly one more', async () => {
  const trigger = manualTrigger();
  let stop!: () => void;
  const releases: (() => void)[] = [];
  const reports: HubPassResult[] = [];
  let passes = 0;
  const loop = runHubLoop({
    pass: async () => {
      const n = ++passes;
      await new Promise<void>((resolve) => releases.push(resolve));
      return upToDate(n);
    },
    triggers: [trigger],
    clock: fakeClock(),
    random: () => 0,
    log: logger(),
    report: (r) => reports.push(r),
    stop: new Promise((resolve) => (stop = resolve)),
  });
  await tick();
  assert.equal(passes, 1);
  trigger.fire();
  trigger.fire();
  trigger.fire();
  releases.shift()!();
  await tick();
  assert.equal(passes, 2, 'three events while a pass ran: one more pass');
  releases.shift()!();
  await tick();
  assert.equal(passes, 2, 'nothing else queued');
  assert.equal(reports.length, 2);
  stop();
  await loop;
  assert.equal(trigger.running, false);
});

test('a failing pass is logged and retried after the backoff delay', async () => {
  const clock = fakeClock();
  let stop!: () => void;
  const log = logger();
  let passes = 0;
  const loop = runHubLoop({
    pass: () => {
      passes++;
      return passes === 1 ? Promise.reject(new Error('disk full')) : Promise.resolve(upToDate(passes));
    },
    triggers: [],
    clock,
    random: () => 0,
    log,
    report: () => undefined,
    stop: new Promise((resolve) => (stop = resolve)),
  });
  await tick();
  assert.deepEqual(log.errors, ['hub pass: disk full (failure 1; retrying in 1.0 s)']);
  clock.advance(999);
  await tick();
  assert.equal(passes, 1);
  clock.advance(1);
  await tick();
  assert.equal(passes, 2);
  stop();
  await loop;
});

test('stopping waits for the pass in hand, then starts no other', async () => {
  const trigger = manualTrigger();
  let stop!: () => void;
  let release!: () => void;
  let passes = 0;
  let finished = 0;
  const loop = runHubLoop({
    pass: async () => {
      passes++;
      await new Promise<void>((resolve) => (release = resolve));
      finished++;
      return upToDate(passes);
    },
    triggers: [trigger],
    clock: fakeClock(),
    random: () => 0,
    log: logger(),
    report: () => undefined,
    stop: new Promise((resolve) => (stop = resolve)),
  });
  await tick();
  trigger.fire();
  stop();
  let done = false;
  void loop.then(() => (done = true));
  await tick();
  assert.equal(done, false, 'the pass in hand is not abandoned');
  release();
  await loop;
  assert.equal(finished, 1);
  assert.equal(passes, 1, 'the queued event is dropped on stop');
});
