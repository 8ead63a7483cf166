import { test } from 'node:test';
import assert from 'node:assert/strict';
import { objectStatusRecord } from '../../../src/core/status/object-status-record.js';
import type { ObjectRef } from '../../../src/core/model/object-ref.js';

const ref: ObjectRef = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' };

test('a live object gives its health, the reason, and the reflected status', () => {
  const live = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'shop', generation: 2 },
    spec: { replicas: 2 },
    status: { observedGeneration: 2, replicas: 2, updatedReplicas: 1, availableReplicas: 1 },
  };
  assert.deepEqual(objectStatusRecord({ ref, applied: true, live }), {
    ref,
    applied: true,
    health: 'Progressing',
    healthMessage: 'Waiting for rollout to finish: 1 out of 2 new replicas have been updated',
    status: { observedGeneration: 2, replicas: 2, updatedReplicas: 1, availableReplicas: 1, generation: 2 },
  });
});

test('an object that could not be read is Unknown and keeps the apply error', () => {
  assert.deepEqual(objectStatusRecord({ ref, applied: false, message: 'apply failed: forbidden' }), {
    ref,
    applied: false,
    message: 'apply failed: forbidden',
    health: 'Unknown',
    healthMessage: 'the object could not be read from the cluster',
  });
});
