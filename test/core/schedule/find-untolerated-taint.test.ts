import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Taint, Toleration } from '../../../src/core/model/cluster.js';
import {
  findUntoleratedTaint,
  formatTaint,
  toleratesTaint,
} from '../../../src/core/schedule/find-untolerated-taint.js';

const gpu: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };

const toleration: { name: string; given: { toleration: Toleration; taint: Taint }; want: boolean }[] = [
  {
    name: 'Equal with the same key, value and effect tolerates.',
    given: {
      toleration: { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' },
      taint: gpu,
    },
    want: true,
  },
  {
    name: 'Equal with another value does not tolerate.',
    given: { toleration: { key: 'dedicated', operator: 'Equal', value: 'cpu' }, taint: gpu },
    want: false,
  },
  {
    name: 'An absent operator means Equal.',
    given: { toleration: { key: 'dedicated', value: 'gpu' }, taint: gpu },
    want: true,
  },
  {
    name: 'Equal without a value matches only a taint without a value.',
    given: { toleration: { key: 'dedicated', operator: 'Equal' }, taint: gpu },
    want: false,
  },
  {
    name: 'Exists with the same key tolerates any value.',
    given: { toleration: { key: 'dedicated', operator: 'Exists' }, taint: gpu },
    want: true,
  },
  {
    name: 'Exists with another key does not tolerate.',
    given: { toleration: { key: 'other', operator: 'Exists' }, taint: gpu },
    want: false,
  },
  {
    name: 'An empty key with Exists tolerates every taint.',
    given: { toleration: { operator: 'Exists' }, taint: gpu },
    want: true,
  },
  {
    name: 'An empty effect matches every effect.',
    given: { toleration: { key: 'dedicated', operator: 'Exists' }, taint: { ...gpu, effect: 'NoExecute' } },
    want: true,
  },
  {
    name: 'A different effect does not tolerate.',
    given: { toleration: { key: 'dedicated', operator: 'Exists', effect: 'NoExecute' }, taint: gpu },
    want: false,
  },
];

for (const { name, given, want } of toleration) {
  test(name, () => {
    assert.equal(toleratesTaint(given.toleration, given.taint), want);
  });
}

const untolerated: {
  name: string;
  given: { taints: Taint[]; tolerations: Toleration[] };
  want: Taint | undefined;
}[] = [
  { name: 'An untolerated NoSchedule taint is found.', given: { taints: [gpu], tolerations: [] }, want: gpu },
  {
    name: 'An untolerated NoExecute taint is found.',
    given: { taints: [{ key: 'evict', effect: 'NoExecute' }], tolerations: [] },
    want: { key: 'evict', effect: 'NoExecute' },
  },
  {
    name: 'A PreferNoSchedule taint is ignored.',
    given: { taints: [{ key: 'soft', effect: 'PreferNoSchedule' }], tolerations: [] },
    want: undefined,
  },
  {
    name: 'The first untolerated taint in order is reported.',
    given: {
      taints: [gpu, { key: 'zone', effect: 'NoSchedule' }],
      tolerations: [{ key: 'dedicated', operator: 'Exists' }],
    },
    want: { key: 'zone', effect: 'NoSchedule' },
  },
  {
    name: 'Fully tolerated taints give nothing.',
    given: { taints: [gpu], tolerations: [{ operator: 'Exists' }] },
    want: undefined,
  },
];

for (const { name, given, want } of untolerated) {
  test(name, () => {
    assert.deepEqual(findUntoleratedTaint(given.taints, given.tolerations), want);
  });
}

test('A taint prints as key=value:effect, or key:effect without a value.', () => {
  assert.equal(formatTaint(gpu), 'dedicated=gpu:NoSchedule');
  assert.equal(
    formatTaint({ key: 'cluster.karmada.io/not-ready', effect: 'NoSchedule' }),
    'cluster.karmada.io/not-ready:NoSchedule',
  );
});
