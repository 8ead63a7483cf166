import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planDriftCorrection, recordCorrection } from '../../../src/core/apply-plan/plan-drift-correction.js';

const settings = { limit: 3, windowMs: 60_000, backoffMs: 120_000 };
const minute = 60_000;

const cases: { name: string; given: { history: number[]; nowMs: number }; want: string }[] = [
  { name: 'no earlier correction: correct', given: { history: [], nowMs: 10 * minute }, want: 'correct' },
  {
    name: 'two corrections within the window: correct',
    given: { history: [9.5 * minute, 9.8 * minute], nowMs: 10 * minute },
    want: 'correct',
  },
  {
    name: 'three corrections within the window: back off until two minutes after the last',
    given: { history: [9.2 * minute, 9.5 * minute, 9.8 * minute], nowMs: 10 * minute },
    want: `backOff ${9.8 * minute + 120_000}`,
  },
  {
    name: 'corrections older than the window do not count',
    given: { history: [5 * minute, 6 * minute, 9.8 * minute], nowMs: 10 * minute },
    want: 'correct',
  },
];

test('planDriftCorrection allows a few corrections per window, then backs off', () => {
  for (const c of cases) {
    const d = planDriftCorrection({ ...c.given, settings });
    assert.equal(d.type === 'backOff' ? `backOff ${d.untilMs}` : d.type, c.want, c.name);
  }
});

test('the back-off message says how often and within how long', () => {
  const d = planDriftCorrection({ history: [1, 2, 3], nowMs: 4, settings });
  assert.equal(
    d.type === 'backOff' && d.message,
    'drift correction paused: re-applied 3 times within 1 minutes while something else keeps changing it',
  );
});

test('recordCorrection adds the time and forgets corrections older than the window', () => {
  assert.deepEqual(recordCorrection([1 * minute, 9.5 * minute], 10 * minute, settings), [
    9.5 * minute,
    10 * minute,
  ]);
});
