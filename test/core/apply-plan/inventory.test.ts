import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  afterPass,
  formatInventory,
  parseInventory,
  sameInventory,
  withDesired,
  type InventoryEntry,
} from '../../../src/core/apply-plan/inventory.js';
import { refKey, type ObjectRef } from '../../../src/core/model/object-ref.js';

const ns: ObjectRef = { apiVersion: 'v1', kind: 'Namespace', namespace: '', name: 'shop' };
const cm: ObjectRef = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'web' };
const deploy: ObjectRef = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' };
const entries = (...list: InventoryEntry[]) => new Map(list.map((e) => [refKey(e.ref), e]));

test('an inventory is stored as one sorted line per object and reads back the same', () => {
  const inventory = entries(
    { ref: deploy, digest: 'abc' },
    { ref: ns, digest: '' },
    { ref: cm, digest: 'def' },
  );
  const data = formatInventory(inventory);
  assert.equal(
    data['objects'],
    'v1 ConfigMap shop web def\nv1 Namespace _ shop -\napps/v1 Deployment shop web abc\n',
  );
  const parsed = parseInventory(data);
  assert.equal(parsed.type, 'ok');
  if (parsed.type === 'ok') assert.ok(sameInventory(parsed.inventory, inventory));
});

test('no data is an empty inventory, and a malformed line is an error naming the line', () => {
  const empty = parseInventory(undefined);
  assert.equal(empty.type === 'ok' && empty.inventory.size, 0);
  assert.deepEqual(parseInventory({ objects: 'v1 ConfigMap shop web def\nbroken line\n' }), {
    type: 'invalid',
    message: 'line 2: expected 5 fields, got "broken line"',
  });
});

test('withDesired adds new objects with an empty digest and keeps the recorded ones', () => {
  const next = withDesired(entries({ ref: cm, digest: 'def' }), [cm, deploy]);
  assert.deepEqual(
    [...next.values()],
    [
      { ref: cm, digest: 'def' },
      { ref: deploy, digest: '' },
    ],
  );
});

test('afterPass records what was applied and drops what was removed', () => {
  const before = entries({ ref: cm, digest: 'old' }, { ref: deploy, digest: '' }, { ref: ns, digest: 'n' });
  const after = afterPass(before, { applied: [{ ref: cm, digest: 'new' }], removed: [refKey(ns)] });
  assert.deepEqual(
    [...after.values()],
    [
      { ref: cm, digest: 'new' },
      { ref: deploy, digest: '' },
    ],
  );
  assert.equal(sameInventory(before, after), false);
  assert.equal(sameInventory(after, afterPass(after, { applied: [], removed: [] })), true);
});
