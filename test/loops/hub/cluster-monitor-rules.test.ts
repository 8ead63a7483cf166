// The cluster monitor's rules (loops/hub/cluster-monitor-rules.ts), look by look, on the hub's
// monotonic time given in seconds since the monitor started: no clock is read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  defaultClusterMonitorSettings as settings,
  judgeClusters,
  newMonitorMemory,
  type ClusterMonitorSettings,
  type MonitorMemory,
} from '../../../src/loops/hub/cluster-monitor-rules.js';

type Heads = Record<string, { heartbeat?: string; status?: string }>;

/** Looks at second `s` with these heads; returns the verdicts as `cluster=reason`. */
function lookAt(
  memory: MonitorMemory,
  s: number,
  heads: Heads,
  with_: ClusterMonitorSettings = settings,
): string[] {
  const clusters = new Map(
    Object.entries(heads).map(([c, h]) => [c, { heartbeat: h.heartbeat ?? null, status: h.status ?? null }]),
  );
  const verdicts = judgeClusters(memory, { at: s * 1000, clusters }, with_);
  return [...verdicts].map(([c, v]) => `${c}=${v.reason}`);
}

/** Looks every 5 s from `from` to `to` with the same heads; returns the verdicts of the last look. */
function standStill(
  memory: MonitorMemory,
  from: number,
  to: number,
  heads: Heads,
  with_: ClusterMonitorSettings = settings,
): string[] {
  let verdicts: string[] = [];
  for (let s = from; s <= to; s += 5) verdicts = lookAt(memory, s, heads, with_);
  return verdicts;
}

/** The monitor without damping: a judged cluster is un-judged at its first sign of life. */
const undamped: ClusterMonitorSettings = { ...settings, successThresholdMs: 0 };

test('a reported cluster whose heads stand still is judged once the grace period has passed, not before', () => {
  const memory = newMonitorMemory(0);
  const heads: Heads = { member1: { heartbeat: 'h1', status: 's1' } };
  lookAt(memory, 0, { member1: { heartbeat: 'h0', status: 's1' } });
  // The heartbeat moves at 5 s, then stands still: judged when 40 s have passed since 5 s.
  assert.deepEqual(standStill(memory, 5, 45, heads), [], '40 s is not longer than the grace period');
  assert.deepEqual(lookAt(memory, 46, heads), ['member1=ClusterStatusUnknown']);
});

test('a moving heartbeat keeps a cluster unjudged however long its status branch stands still', () => {
  const memory = newMonitorMemory(0);
  for (let s = 0; s <= 300; s += 5)
    assert.deepEqual(lookAt(memory, s, { member1: { heartbeat: `h${s}`, status: 's1' } }), [], `at ${s} s`);
});

test('a status branch that moves proves life as a heartbeat does', () => {
  const memory = newMonitorMemory(0);
  for (let s = 0; s <= 300; s += 5)
    assert.deepEqual(lookAt(memory, s, { member1: { status: `s${s}` } }), [], `at ${s} s`);
});

test('a cluster that never reported gets the startup grace period and is judged ClusterStatusNeverUpdated', () => {
  const memory = newMonitorMemory(0);
  const heads: Heads = { member2: { heartbeat: 'h1' } };
  assert.deepEqual(standStill(memory, 0, 60, heads), [], 'within the startup grace period (60 s)');
  assert.deepEqual(lookAt(memory, 61, heads), ['member2=ClusterStatusNeverUpdated']);
});

test('a cluster with no ref at all is judged ClusterStatusNeverUpdated after the startup grace period', () => {
  const memory = newMonitorMemory(0);
  assert.deepEqual(standStill(memory, 0, 60, { member3: {} }), []);
  assert.deepEqual(lookAt(memory, 65, { member3: {} }), ['member3=ClusterStatusNeverUpdated']);
});

test('a restarted hub judges no one before a full grace period, whatever the refs say', () => {
  // The refs have stood still for hours, but this hub has only just started: a value seen once
  // says nothing of when it was written.
  const memory = newMonitorMemory(1_000_000);
  const heads: Heads = { member1: { heartbeat: 'h1', status: 's1' } };
  assert.deepEqual(standStill(memory, 1000, 1040, heads), []);
  assert.deepEqual(lookAt(memory, 1041, heads), ['member1=ClusterStatusUnknown']);
});

test('a short startup grace period does not judge before a full monitor grace period since the start', () => {
  const memory = newMonitorMemory(0);
  const heads = new Map([['member2', { heartbeat: null, status: null }]]);
  const short = { ...settings, startupGracePeriodMs: 10_000 };
  for (let s = 0; s <= 40; s += 5)
    assert.equal(judgeClusters(memory, { at: s * 1000, clusters: heads }, short).size, 0, `at ${s} s`);
  assert.equal(judgeClusters(memory, { at: 41_000, clusters: heads }, short).size, 1);
});

test('without a success threshold, a judged cluster whose heartbeat moves again is un-judged at the next look', () => {
  const memory = newMonitorMemory(0);
  const still: Heads = { member2: { heartbeat: 'h1', status: 's1' } };
  assert.deepEqual(standStill(memory, 0, 45, still, undamped), ['member2=ClusterStatusUnknown']);
  assert.deepEqual(lookAt(memory, 50, { member2: { heartbeat: 'h2', status: 's1' } }, undamped), []);
  const moved: Heads = { member2: { heartbeat: 'h2', status: 's1' } };
  assert.deepEqual(standStill(memory, 55, 90, moved, undamped), [], 'a fresh grace period from the move');
  assert.deepEqual(lookAt(memory, 91, moved, undamped), ['member2=ClusterStatusUnknown']);
});

test('a judged cluster is un-judged once it has been seen alive for the success threshold (30 s), not at its first heartbeat', () => {
  const memory = newMonitorMemory(0);
  assert.deepEqual(standStill(memory, 0, 45, { member2: { heartbeat: 'h0', status: 's1' } }), [
    'member2=ClusterStatusUnknown',
  ]);
  // The agent is back at 50 s and renews every 5 s: judged until 30 s of life have been seen.
  for (let s = 50; s < 80; s += 5)
    assert.deepEqual(
      lookAt(memory, s, { member2: { heartbeat: `h${s}`, status: 's1' } }),
      ['member2=ClusterStatusUnknown'],
      `at ${s} s`,
    );
  assert.deepEqual(lookAt(memory, 80, { member2: { heartbeat: 'h80', status: 's1' } }), []);
});

test('a flapping agent (20 s up, 20 s down) stays judged: its verdict does not change with each flap', () => {
  const memory = newMonitorMemory(0);
  const flapping = { ...settings, gracePeriodMs: 6_000, periodMs: 1_000 };
  const verdicts: string[] = [];
  let beat = 0;
  for (let s = 0; s <= 240; s++) {
    // Up (renewing every second) for 20 s, then killed for 20 s, from 10 s on.
    const up = s < 10 || Math.floor((s - 10) / 20) % 2 === 1;
    if (up) beat++;
    const heads = new Map([['member3', { heartbeat: `h${beat}`, status: 's1' }]]);
    const judged = judgeClusters(memory, { at: s * 1000, clusters: heads }, flapping).size > 0;
    const last = verdicts.at(-1);
    const now = judged ? 'judged' : 'fine';
    if (last !== now) verdicts.push(now);
  }
  assert.deepEqual(verdicts, ['fine', 'judged'], 'judged once, and never un-judged while it flaps');
  const undampedMemory = newMonitorMemory(0);
  let changes = 0;
  let previous = false;
  beat = 0;
  for (let s = 0; s <= 240; s++) {
    const up = s < 10 || Math.floor((s - 10) / 20) % 2 === 1;
    if (up) beat++;
    const heads = new Map([['member3', { heartbeat: `h${beat}`, status: 's1' }]]);
    const judged =
      judgeClusters(undampedMemory, { at: s * 1000, clusters: heads }, { ...flapping, successThresholdMs: 0 })
        .size > 0;
    if (judged !== previous) changes++;
    previous = judged;
  }
  assert.ok(changes >= 10, `without the threshold each flap changes the verdict twice (${changes} changes)`);
});

test('a recovery broken by a silence of a grace period starts its count again', () => {
  const memory = newMonitorMemory(0);
  assert.deepEqual(standStill(memory, 0, 45, { member2: { heartbeat: 'h0', status: 's1' } }), [
    'member2=ClusterStatusUnknown',
  ]);
  lookAt(memory, 50, { member2: { heartbeat: 'h50', status: 's1' } });
  // Silent from 50 s to 95 s (longer than the 40 s grace): the count from 50 s is broken.
  assert.deepEqual(standStill(memory, 55, 95, { member2: { heartbeat: 'h50', status: 's1' } }), [
    'member2=ClusterStatusUnknown',
  ]);
  for (let s = 100; s < 130; s += 5)
    assert.deepEqual(
      lookAt(memory, s, { member2: { heartbeat: `h${s}`, status: 's1' } }),
      ['member2=ClusterStatusUnknown'],
      `at ${s} s: 30 s from 100 s, not from 50 s`,
    );
  assert.deepEqual(lookAt(memory, 130, { member2: { heartbeat: 'h130', status: 's1' } }), []);
});

test('only the clusters of the look are judged, and one that leaves is forgotten', () => {
  const memory = newMonitorMemory(0);
  const both: Heads = { member1: { heartbeat: 'a', status: 's' }, member2: { heartbeat: 'b', status: 's' } };
  assert.deepEqual(standStill(memory, 0, 45, both), [
    'member1=ClusterStatusUnknown',
    'member2=ClusterStatusUnknown',
  ]);
  assert.deepEqual(lookAt(memory, 50, { member1: both.member1! }), ['member1=ClusterStatusUnknown']);
  // Registered again with the same heads: first seen anew, so a full grace period from now.
  assert.deepEqual(lookAt(memory, 55, both), ['member1=ClusterStatusUnknown']);
  assert.deepEqual(standStill(memory, 60, 95, both), ['member1=ClusterStatusUnknown']);
  assert.deepEqual(lookAt(memory, 96, both), [
    'member1=ClusterStatusUnknown',
    'member2=ClusterStatusUnknown',
  ]);
});

test('looks that repeat the same time judge nothing new (a remote hub that cannot fetch)', () => {
  const memory = newMonitorMemory(0);
  const heads: Heads = { member1: { heartbeat: 'h1', status: 's1' } };
  lookAt(memory, 30, heads);
  // The hub's fetches fail from 30 s on: every look is made at the last fetch's time.
  for (let n = 0; n < 100; n++) assert.deepEqual(lookAt(memory, 30, heads), []);
});

test('a hub that saw nothing for longer than the grace period starts over, as a restarted hub does', () => {
  const memory = newMonitorMemory(0);
  const heads: Heads = { member1: { heartbeat: 'h1', status: 's1' } };
  assert.deepEqual(standStill(memory, 0, 30, heads), []);
  // No look from 30 s to 100 s (the hub was cut off): the same heads at 100 s prove nothing yet.
  assert.deepEqual(standStill(memory, 100, 140, heads), []);
  assert.deepEqual(lookAt(memory, 141, heads), ['member1=ClusterStatusUnknown']);
});

test('a gap no longer than the blind limit is time the hub saw', () => {
  const clusters = new Map([['member1', { heartbeat: 'h1', status: 's1' }]]);
  // A remote hub polling every 30 s sets the limit to two polls (60 s): a 50 s gap is seen time.
  const remote = newMonitorMemory(0);
  assert.equal(judgeClusters(remote, { at: 0, clusters }, settings, 60_000).size, 0);
  assert.equal(judgeClusters(remote, { at: 50_000, clusters }, settings, 60_000).size, 1);
  // With the default limit (the grace period, 40 s), the same gap is blindness.
  const local = newMonitorMemory(0);
  assert.equal(judgeClusters(local, { at: 0, clusters }, settings).size, 0);
  assert.equal(judgeClusters(local, { at: 50_000, clusters }, settings).size, 0);
});
