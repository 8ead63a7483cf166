import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backoffDelay, defaultBackoff } from '../../../src/loops/runtime/backoff.js';

const cases = [
  { name: 'the first failure waits the base delay', given: { failures: 1, random: 0 }, want: 1000 },
  { name: 'each further failure doubles the delay', given: { failures: 4, random: 0 }, want: 8000 },
  { name: 'the delay never exceeds the cap', given: { failures: 7, random: 0 }, want: 60_000 },
  { name: 'a huge failure count stays at the cap', given: { failures: 10_000, random: 0 }, want: 60_000 },
  { name: 'jitter takes at most a fifth off', given: { failures: 2, random: 0.999999 }, want: 1600 },
  { name: 'half the jitter takes a tenth off', given: { failures: 7, random: 0.5 }, want: 54_000 },
];

for (const { name, given, want } of cases) {
  test(name, () => {
    assert.equal(
      backoffDelay(
        given.failures,
        defaultBackoff(() => given.random),
      ),
      want,
    );
  });
}
