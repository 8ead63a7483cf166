// The webhook's body (the contract of issue 34): exactly the contract's keys, optional ones only
// when set.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { webhookPayload } from '../../../src/core/notify/webhook-payload.js';
import { fleetEvent } from '../../../src/core/notify/fleet-event.js';

test('A webhook body holds the contract keys, in its order, and nothing else.', () => {
  const body = JSON.parse(
    webhookPayload(
      fleetEvent('RolloutHalted', {
        id: 'c:1',
        time: '2026-12-05T10:00:00.000Z',
        sourceCommit: 's',
        cluster: 'gcp',
        message: 'm',
      }),
    ),
  ) as Record<string, unknown>;
  assert.deepEqual(Object.keys(body), [
    'event',
    'severity',
    'time',
    'sourceCommit',
    'cluster',
    'message',
    'id',
  ]);
  assert.deepEqual(body, {
    event: 'RolloutHalted',
    severity: 'error',
    time: '2026-12-05T10:00:00.000Z',
    sourceCommit: 's',
    cluster: 'gcp',
    message: 'm',
    id: 'c:1',
  });
});

test('An event about no cluster and no object has neither key.', () => {
  const body = JSON.parse(
    webhookPayload(
      fleetEvent('RenderFailed', { id: 's:RenderFailed', time: 't', sourceCommit: 's', message: 'm' }),
    ),
  ) as Record<string, unknown>;
  assert.equal('cluster' in body, false);
  assert.equal('object' in body, false);
});
