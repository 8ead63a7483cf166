import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyDelta, DeltaError } from '../../../src/adapters/git/delta.js';

/** A delta's size header: base size then result size, base-128 little-endian. */
function sizes(base: number, result: number): number[] {
  const varint = (n: number): number[] => {
    const out: number[] = [];
    do {
      let b = n & 0x7f;
      n = Math.floor(n / 128);
      if (n > 0) b |= 0x80;
      out.push(b);
    } while (n > 0);
    return out;
  };
  return [...varint(base), ...varint(result)];
}

const base = Buffer.from('0123456789abcdef');

const cases: { name: string; delta: number[]; want: string | RegExp }[] = [
  {
    name: 'a copy (offset 4, size 6) and an insert make the result',
    delta: [...sizes(16, 9), 0x91, 4, 6, 3, ...Buffer.from('xyz')],
    want: '456789xyz',
  },
  {
    name: 'a copy with no offset byte starts at 0',
    delta: [...sizes(16, 3), 0x90, 3],
    want: '012',
  },
  {
    name: 'a delta for a base of another size is refused',
    delta: [...sizes(15, 3), 0x90, 3],
    want: /a base of 15 bytes, the base has 16/,
  },
  {
    name: 'a copy past the end of the base is refused',
    delta: [...sizes(16, 8), 0x91, 12, 8],
    want: /runs past the base/,
  },
  {
    name: 'a result shorter than declared is refused',
    delta: [...sizes(16, 10), 0x90, 3],
    want: /makes 3 bytes, it declares 10/,
  },
  {
    name: 'an insert running past the end of the delta is refused',
    delta: [...sizes(16, 5), 5, 0x41, 0x42],
    want: /insert of 5 bytes runs past the delta/,
  },
  {
    name: 'the reserved instruction 0 is refused',
    delta: [...sizes(16, 1), 0],
    want: /reserved instruction/,
  },
  {
    name: 'a copy whose size bytes are cut off is refused',
    delta: [...sizes(16, 1), 0x91, 1],
    want: /ends in the middle of an instruction/,
  },
];

for (const c of cases) {
  test(`applyDelta: ${c.name}`, () => {
    const run = () => applyDelta(base, Uint8Array.from(c.delta));
    if (typeof c.want === 'string') assert.equal(run().toString(), c.want);
    else
      assert.throws(
        run,
        (e: Error) => e instanceof DeltaError && c.want instanceof RegExp && c.want.test(e.message),
      );
  });
}

test('applyDelta: a copy of size 0 copies 0x10000 bytes', () => {
  const big = Buffer.alloc(0x10000 + 10, 7);
  const out = applyDelta(big, Uint8Array.from([...sizes(big.length, 0x10000), 0x80]));
  assert.equal(out.length, 0x10000);
  assert.ok(out.every((b) => b === 7));
});
