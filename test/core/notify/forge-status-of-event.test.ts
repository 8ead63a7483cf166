// The commit status a forge receiver sets for an event (core/notify/forge-status-of-event.ts):
// one context per rollout and per kind of finding, the state of the table, the message cut to
// the forges' 140 characters, and nothing for an event that names no source commit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fleetEvent, type FleetEventType } from '../../../src/core/notify/fleet-event.js';
import { forgeStatusOfEvent } from '../../../src/core/notify/forge-status-of-event.js';

const source = '5d41402abc4b2a76b9719d911017c592ae0a4e1b';
const event = (
  type: FleetEventType,
  extra: { strategy?: string; message?: string; sourceCommit?: string } = {},
) =>
  fleetEvent(type, {
    id: 'c0ffee:0',
    time: '2026-12-05T10:00:00.000Z',
    sourceCommit: extra.sourceCommit ?? source,
    message: extra.message ?? `${type} happened`,
    ...(extra.strategy ? { strategy: extra.strategy } : {}),
  });

const cases: { name: string; given: ReturnType<typeof event>; want: [string, string] | undefined }[] = [
  {
    name: 'A rollout that starts sets its own context pending.',
    given: event('RolloutStarted', { strategy: 'shop/web' }),
    want: ['gitfleet/rollout/shop/web', 'pending'],
  },
  {
    name: 'A step passed keeps the rollout pending.',
    given: event('RolloutStepPassed', { strategy: 'shop/web' }),
    want: ['gitfleet/rollout/shop/web', 'pending'],
  },
  {
    name: 'A rollout that halts fails its context.',
    given: event('RolloutHalted', { strategy: 'shop/web' }),
    want: ['gitfleet/rollout/shop/web', 'failure'],
  },
  {
    name: 'A rollout that completes succeeds.',
    given: event('RolloutComplete', { strategy: 'web' }),
    want: ['gitfleet/rollout/web', 'success'],
  },
  {
    name: 'A refused deletion fails the render context.',
    given: event('DeletionRefused'),
    want: ['gitfleet/render', 'failure'],
  },
  {
    name: 'An apply failure fails the apply context.',
    given: event('ApplyFailed'),
    want: ['gitfleet/apply', 'failure'],
  },
  {
    name: 'A cluster that goes NotReady fails the clusters context, and one back sets it success.',
    given: event('ClusterNotReady'),
    want: ['gitfleet/clusters', 'failure'],
  },
  {
    name: 'A cluster back is success.',
    given: event('ClusterReady'),
    want: ['gitfleet/clusters', 'success'],
  },
  {
    name: 'A taint asks for attention: pending.',
    given: event('ClusterTainted'),
    want: ['gitfleet/clusters', 'pending'],
  },
  {
    name: 'An event of no source commit (a drift before any render) sets nothing.',
    given: event('DriftReverted', { sourceCommit: '' }),
    want: undefined,
  },
];

for (const c of cases)
  test(c.name, () => {
    const got = forgeStatusOfEvent(c.given);
    assert.deepEqual(got && [got.context, got.state], c.want);
    if (got) assert.equal(got.sha, source);
  });

test('The receiver context replaces gitfleet, and the description is the message cut to 140 characters.', () => {
  const got = forgeStatusOfEvent(
    event('RolloutHalted', { strategy: 'shop/web', message: 'x'.repeat(300) }),
    'fleet/prod',
  );
  assert.equal(got?.context, 'fleet/prod/rollout/shop/web');
  assert.equal([...got!.description].length, 140);
  assert.ok(got!.description.endsWith('…'));
});
