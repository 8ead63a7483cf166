import { test } from 'node:test';
import assert from 'node:assert/strict';
import { patchMap } from '../../../src/core/model/patched-map.js';

test('a chain of patches reads and iterates as the same edits made to a plain sorted map', () => {
  let seed = 11;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
  const keys = Array.from({ length: 300 }, (_, i) => `k${String(i).padStart(3, '0')}`);
  let model = new Map(keys.filter(() => random() < 0.5).map((k) => [k, `v0-${k}`]));
  let patched: ReadonlyMap<string, string> = new Map(model);
  for (let round = 1; round <= 60; round++) {
    const changes = new Map<string, string | undefined>();
    const count = 1 + Math.floor(random() * (round % 10 === 0 ? 80 : 6));
    for (let i = 0; i < count; i++) {
      const key = keys[Math.floor(random() * keys.length)]!;
      changes.set(key, random() < 0.3 ? undefined : `v${round}-${key}`);
    }
    for (const [k, v] of changes) {
      if (v === undefined) model.delete(k);
      else model.set(k, v);
    }
    model = new Map([...model].sort((a, b) => (a[0] < b[0] ? -1 : 1)));
    patched = patchMap(patched, changes);
    assert.equal(patched.size, model.size, `round ${round}: size`);
    assert.deepEqual([...patched], [...model], `round ${round}: entries in key order`);
    assert.deepEqual([...patched.keys()], [...model.keys()]);
    assert.deepEqual([...patched.values()], [...model.values()]);
    for (const k of keys) {
      assert.equal(patched.get(k), model.get(k), `round ${round}: get ${k}`);
      assert.equal(patched.has(k), model.has(k));
    }
    const seen: string[] = [];
    patched.forEach((_, k) => seen.push(k));
    assert.deepEqual(seen, [...model.keys()]);
  }
});

test('no change gives the base itself', () => {
  const base = new Map([['a', '1']]);
  assert.equal(patchMap(base, new Map()), base);
});
