import { test } from 'node:test';
import assert from 'node:assert/strict';
import { terminalProgress } from '../../src/cli/terminal-progress.js';
import type { Io } from '../../src/cli/io.js';
import { fakeClock } from '../loops/runtime/fake-clock.js';

function terminal(isTerminal: boolean): Io & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    out: () => undefined,
    err: (t) => lines.push(t),
    untilInterrupted: () => new Promise(() => {}),
    isTerminal: () => isTerminal,
  };
}

/** Runs a step of `total` units, each taking `msEach` on the clock. */
function step(
  progress: (done: number, total: number) => void,
  clock: ReturnType<typeof fakeClock>,
  total: number,
  msEach: number,
): void {
  for (let done = 1; done <= total; done++) {
    clock.advance(msEach);
    progress(done, total);
  }
}

const what = { what: 'agent member1: applied', noun: 'objects' };

test('a long step on a terminal gets a line every 3 s and a last line; a quick one gets none', () => {
  const io = terminal(true);
  const clock = fakeClock();
  const progress = terminalProgress({ io, clock, logFormat: 'text', ...what })!;
  step(progress, clock, 10_000, 1);
  assert.deepEqual(io.lines, [
    'agent member1: applied 3,001 of 10,000 objects',
    'agent member1: applied 6,001 of 10,000 objects',
    'agent member1: applied 9,001 of 10,000 objects',
    'agent member1: applied 10,000 of 10,000 objects',
  ]);
  io.lines.length = 0;
  step(progress, clock, 10_000, 0.1);
  assert.deepEqual(io.lines, [], 'the next pass takes 1 s: nothing to show');
});

test('nothing is shown off a terminal, or with JSON logs', () => {
  const clock = fakeClock();
  assert.equal(terminalProgress({ io: terminal(false), clock, logFormat: 'text', ...what }), undefined);
  assert.equal(terminalProgress({ io: terminal(true), clock, logFormat: 'json', ...what }), undefined);
  const { isTerminal: _, ...noCheck } = terminal(true);
  assert.equal(terminalProgress({ io: noCheck, clock, logFormat: 'text', ...what }), undefined);
});
