import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { decodeInventory, encodeInventory } from '../../../src/loops/agent/inventory-store.js';
import type { InventoryEntry } from '../../../src/core/apply-plan/inventory.js';
import type { KubeObject } from '../../../src/core/model/kube-object.js';
import { refKey } from '../../../src/core/model/object-ref.js';

const configMap = (body: {
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'gitfleet-inventory-m1', namespace: 'gitfleet-system' },
  ...body,
});

function manyEntries(n: number): Map<string, InventoryEntry> {
  const inventory = new Map<string, InventoryEntry>();
  for (let i = 0; i < n; i++) {
    const ref = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      namespace: `team-${i % 97}`,
      name: `service-${i}`,
    };
    const digest = createHash('sha1').update(String(i)).digest('hex');
    inventory.set(refKey(ref), { ref, digest, resourceVersion: String(1_000_000 + i * 7) });
  }
  return inventory;
}

test('10,000 objects fit in one ConfigMap (under 1 MiB) and read back the same', () => {
  const inventory = manyEntries(10_000);
  const stored = encodeInventory(inventory);
  const bytes = Buffer.byteLength(JSON.stringify(stored));
  assert.ok(bytes < 1024 * 1024, `${bytes} bytes`);
  const read = decodeInventory(configMap(stored));
  assert.equal(read.type, 'ok');
  if (read.type === 'ok') assert.equal(read.inventory.size, 10_000);
});

test('an unchanged inventory encodes to the same bytes, so it is not written again', () => {
  assert.deepEqual(encodeInventory(manyEntries(50)), encodeInventory(manyEntries(50)));
});

test('a ConfigMap in the version 1 text format is read (migration)', () => {
  const read = decodeInventory(configMap({ data: { objects: 'v1 ConfigMap shop web def\n' } }));
  assert.equal(read.type === 'ok' && read.format, '1');
  assert.equal(read.type === 'ok' && read.inventory.size, 1);
});

test('a truncated gzip stream is invalid, and the complete lines before the cut are salvaged', () => {
  const stored = encodeInventory(manyEntries(2_000));
  const [key, value] = Object.entries(stored.binaryData)[0]!;
  const bytes = Buffer.from(value, 'base64');
  const cut = bytes.subarray(0, Math.floor(bytes.length / 2)).toString('base64');
  const read = decodeInventory(configMap({ data: stored.data, binaryData: { [key]: cut } }));
  assert.equal(read.type, 'invalid');
  if (read.type !== 'invalid') return;
  assert.match(read.message, /^binaryData objects\.jsonl\.gz: not a complete gzip stream/);
  assert.ok(read.salvaged.size > 100 && read.salvaged.size < 2_000, `${read.salvaged.size} salvaged`);
});

test('a version 2 ConfigMap without its objects key is invalid, not empty (an empty one would forget every object)', () => {
  const read = decodeInventory(configMap({ data: { version: '2' } }));
  assert.deepEqual(read.type === 'invalid' && read.message, 'binaryData objects.jsonl.gz is missing');
});
