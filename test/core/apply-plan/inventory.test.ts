import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  afterPass,
  formatInventory,
  inventoryVersion,
  parseInventory,
  sameInventory,
  withDesired,
  type InventoryEntry,
} from '../../../src/core/apply-plan/inventory.js';
import { refKey, type ObjectRef } from '../../../src/core/model/object-ref.js';

const ns: ObjectRef = { apiVersion: 'v1', kind: 'Namespace', namespace: '', name: 'shop' };
const cm: ObjectRef = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name: 'web' };
const deploy: ObjectRef = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' };
const spaced: ObjectRef = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  namespace: '',
  name: 'Upper Case role',
};
const entries = (...list: InventoryEntry[]) => new Map(list.map((e) => [refKey(e.ref), e]));

test('an inventory is stored as one sorted JSON line per object and reads back the same', () => {
  const inventory = entries(
    { ref: deploy, digest: 'abc', resourceVersion: '17' },
    { ref: ns, digest: '' },
    { ref: cm, digest: 'def' },
  );
  const text = formatInventory(inventory);
  assert.equal(
    text,
    [
      '{"apiVersion":"v1","kind":"ConfigMap","namespace":"shop","name":"web","digest":"def"}',
      '{"apiVersion":"v1","kind":"Namespace","namespace":"","name":"shop","digest":""}',
      '{"apiVersion":"apps/v1","kind":"Deployment","namespace":"shop","name":"web","digest":"abc","resourceVersion":"17"}',
      '',
    ].join('\n'),
  );
  const parsed = parseInventory({ version: inventoryVersion, text });
  assert.equal(parsed.type, 'ok');
  if (parsed.type === 'ok') {
    assert.ok(sameInventory(parsed.inventory, inventory));
    assert.equal(parsed.inventory.get(refKey(deploy))?.resourceVersion, '17');
  }
});

test('any name Kubernetes accepts survives the round trip: spaces, quotes, unicode, newlines', () => {
  const odd = [
    spaced,
    { ...spaced, name: 'tab\there "quoted" \\ back' },
    { ...spaced, name: 'line\nbreak' },
    { ...spaced, name: 'rôle ünïcode ✓' },
    { ...spaced, name: '_' },
    { ...spaced, name: '-' },
  ];
  const inventory = entries(...odd.map((ref) => ({ ref, digest: 'd' })));
  const parsed = parseInventory({ version: inventoryVersion, text: formatInventory(inventory) });
  assert.equal(parsed.type, 'ok');
  if (parsed.type === 'ok')
    assert.deepEqual([...parsed.inventory.keys()].sort(), [...inventory.keys()].sort());
});

test('no stored inventory is an empty one', () => {
  const empty = parseInventory(undefined);
  assert.equal(empty.type === 'ok' && empty.inventory.size, 0);
});

test('the version 1 text format (no version key) is still read, so an upgraded agent keeps its inventory', () => {
  const parsed = parseInventory({
    version: undefined,
    text: 'v1 ConfigMap shop web def\nv1 Namespace _ shop -\napps/v1 Deployment shop web abc\n',
  });
  assert.deepEqual(parsed, {
    type: 'ok',
    format: '1',
    inventory: entries({ ref: cm, digest: 'def' }, { ref: ns, digest: '' }, { ref: deploy, digest: 'abc' }),
  });
});

test('a broken inventory is invalid, names the line, and keeps every entry that still reads', () => {
  const good = formatInventory(entries({ ref: cm, digest: 'def' }, { ref: deploy, digest: 'abc' }));
  const cases = [
    {
      name: 'a version 2 line cut in the middle',
      given: { version: '2', text: `${good}{"apiVersion":"v1","kind":"Con` },
      message: 'line 3: not a JSON object',
    },
    {
      name: 'a version 2 line without a name',
      given: {
        version: '2',
        text: `{"apiVersion":"v1","kind":"ConfigMap","namespace":"a","digest":""}\n${good}`,
      },
      message:
        'line 1: apiVersion, kind, namespace, name and digest must be strings, apiVersion, kind and name not empty',
    },
    {
      name: 'a version 1 line with a space in a name',
      given: {
        version: undefined,
        text: 'v1 ConfigMap shop web def\napps/v1 Deployment shop web abc\nv1 ConfigMap a b c d\n',
      },
      message: 'line 3: expected 5 fields, got "v1 ConfigMap a b c d"',
    },
  ];
  for (const c of cases) {
    const parsed = parseInventory(c.given);
    assert.equal(parsed.type, 'invalid', c.name);
    if (parsed.type !== 'invalid') continue;
    assert.equal(parsed.message, c.message, c.name);
    assert.deepEqual([...parsed.salvaged.keys()].sort(), [refKey(cm), refKey(deploy)].sort(), c.name);
  }
});

test('an inventory of a format version this agent does not know is invalid and says which', () => {
  const parsed = parseInventory({ version: '9', text: 'whatever' });
  assert.equal(parsed.type, 'invalid');
  if (parsed.type === 'invalid') {
    assert.equal(parsed.message, 'format version 9 is not one this agent reads (it reads 1 and 2)');
    assert.equal(parsed.salvaged.size, 0);
  }
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
  const after = afterPass(before, {
    applied: [{ ref: cm, digest: 'new', resourceVersion: '5' }],
    removed: [refKey(ns)],
  });
  assert.deepEqual(
    [...after.values()],
    [
      { ref: cm, digest: 'new', resourceVersion: '5' },
      { ref: deploy, digest: '' },
    ],
  );
  assert.equal(sameInventory(before, after), false);
  assert.equal(sameInventory(after, afterPass(after, { applied: [], removed: [] })), true);
});
