import { test } from 'node:test';
import assert from 'node:assert/strict';
import { uniformSumQuantile } from '../../../src/core/budget/uniform-sum-quantile.js';

const cases = [
  { name: 'one wait alone is uniform', a: 0, b: 10, q: 0.99, want: 9.9 },
  { name: 'no wait at all is no time', a: 0, b: 0, q: 0.5, want: 0 },
  { name: 'two equal waits have their median at one period', a: 10, b: 10, q: 0.5, want: 10 },
  { name: 'on the plateau the short wait adds half of itself', a: 30, b: 1, q: 0.5, want: 15.5 },
  { name: 'the tail falls as a square root', a: 10, b: 10, q: 0.995, want: 20 - Math.sqrt(2 * 0.005 * 100) },
  { name: 'the head rises as a square root', a: 10, b: 10, q: 0.005, want: Math.sqrt(2 * 0.005 * 100) },
];

for (const c of cases) {
  test(`The quantile of a sum of uniform waits: ${c.name}.`, () => {
    assert.ok(
      Math.abs(uniformSumQuantile([c.a, c.b], c.q) - c.want) < 1e-9,
      String(uniformSumQuantile([c.a, c.b], c.q)),
    );
    assert.ok(Math.abs(uniformSumQuantile([c.b, c.a], c.q) - c.want) < 1e-9, 'order does not matter');
  });
}

test('The quantile grows with q, from 0 to the sum of the periods.', () => {
  let last = 0;
  for (let q = 0.01; q < 1; q += 0.01) {
    const v = uniformSumQuantile([30, 7], q);
    assert.ok(v >= last && v <= 37, `q=${q}: ${v}`);
    last = v;
  }
});

test('Three waits: the sum of three U(0, 1) is Irwin–Hall, and a wait of 0 drops out.', () => {
  const near = (got: number, want: number) => assert.ok(Math.abs(got - want) < 1e-9, `${got}, not ${want}`);
  // F(1) = 1/6; on the last piece F(x) = 1 − (3 − x)³ / 6.
  near(uniformSumQuantile([1, 1, 1], 1 / 6), 1);
  near(uniformSumQuantile([1, 1, 1], 0.5), 1.5);
  near(uniformSumQuantile([1, 1, 1], 0.99), 3 - Math.cbrt(0.06));
  near(uniformSumQuantile([10, 0, 10], 0.995), 20 - Math.sqrt(2 * 0.005 * 100));
  near(uniformSumQuantile([0, 0, 4], 0.25), 1);
});

test('Three waits of different periods: a third wait moves every quantile up, never past the sum.', () => {
  for (const q of [0.01, 0.5, 0.99]) {
    const two = uniformSumQuantile([2.5, 1], q);
    const three = uniformSumQuantile([2.5, 1, 0.5], q);
    assert.ok(three > two && three < two + 0.5 + 1e-9, `q=${q}: ${two} → ${three}`);
    // A vanishing third wait changes nothing: the general path meets the closed form.
    assert.ok(Math.abs(uniformSumQuantile([2.5, 1, 1e-7], q) - two) < 1e-6, `q=${q}`);
  }
});
