// Floods coalesced (core/notify/coalesce-events.ts): 10,000 drift corrections of one cluster in a
// minute become a few events and one that counts the rest; other clusters and kinds pass as they are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coalesceEvents } from '../../../src/core/notify/coalesce-events.js';
import { fleetEvent, type FleetEvent } from '../../../src/core/notify/fleet-event.js';

const start = Date.parse('2026-12-05T10:00:00.000Z');
const drift = (i: number, cluster: string, atMs: number): FleetEvent =>
  fleetEvent('DriftReverted', {
    id: `c${i}:0`,
    time: new Date(atMs).toISOString(),
    sourceCommit: 's',
    cluster,
    object: `ConfigMap/shop/cm-${i}`,
    message: `ConfigMap/shop/cm-${i} @${cluster}: changed by hand, put back`,
  });

test('10,000 drift corrections of one cluster within a minute are 3 events and one counting the other 9,997.', () => {
  const flood = Array.from({ length: 10_000 }, (_, i) => drift(i, 'member1', start + i * 5));
  const out = coalesceEvents(flood);
  assert.equal(out.length, 4);
  assert.deepEqual(out.slice(0, 3), flood.slice(0, 3));
  assert.equal(out[3]!.coalesced, 9_997);
  assert.equal(out[3]!.id, 'c9999:0:coalesced');
  assert.match(
    out[3]!.message,
    /^9997 more DriftReverted events on member1 since .*; the last: ConfigMap\/shop\/cm-9999 @member1/,
  );
  assert.equal(out[3]!.object, undefined, 'the summary is about no single object');
});

test('Each cluster and each minute has its own allowance, and other events keep their place.', () => {
  const other = fleetEvent('RolloutHalted', {
    id: 'h:0',
    time: new Date(start).toISOString(),
    sourceCommit: 's',
    message: 'm',
  });
  const input = [
    ...Array.from({ length: 5 }, (_, i) => drift(i, 'member1', start + i)),
    other,
    ...Array.from({ length: 2 }, (_, i) => drift(10 + i, 'member2', start + i)),
    drift(20, 'member1', start + 61_000),
  ];
  const out = coalesceEvents(input);
  assert.deepEqual(
    out.map((e) => `${e.event} ${e.cluster ?? ''} ${e.coalesced ?? ''}`.trim()),
    [
      'DriftReverted member1',
      'DriftReverted member1',
      'DriftReverted member1',
      'DriftReverted member1 2',
      'RolloutHalted',
      'DriftReverted member2',
      'DriftReverted member2',
      'DriftReverted member1',
    ],
  );
});
