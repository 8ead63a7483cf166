// The rollout record on the bindings branch (core/rollout/rollout-record.ts): its path, a round
// trip of every field through the canonical text, and every malformed record read as no record
// (undefined), never as a partial one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import yaml from 'js-yaml';
import type { RolloutState } from '../../../src/core/model/rollout.js';
import {
  parseRolloutRecord,
  rolloutDir,
  rolloutRecordPath,
  rolloutRecordText,
} from '../../../src/core/rollout/rollout-record.js';

const rev = 'a'.repeat(40);
const src = 'b'.repeat(40);

const full: RolloutState = {
  strategy: { kind: 'RolloutStrategy', namespace: 'shop', name: 'web' },
  revision: rev,
  source: src,
  phase: 'Halted',
  step: 2,
  steps: 3,
  stepStartedAt: '2026-12-01T15:00:00.000Z',
  healthySince: '2026-12-01T15:01:30.250Z',
  message: 'step 2/3 failed on eu: shop/Deployment.apps/web Degraded: "web" exceeded its progress deadline',
  digests: { canary: '0123456789abcdef01234567', eu: 'fedcba9876543210fedcba98' },
  clusters: [
    { name: 'canary', step: 1, state: 'Moved', commit: rev, lastGood: 'c'.repeat(40) },
    {
      name: 'eu',
      step: 2,
      state: 'RolledBack',
      lastGood: 'd'.repeat(40),
      message: 'shop/Deployment.apps/web Degraded',
    },
    { name: 'us', step: 3, state: 'Held', commit: src, message: 'waiting for step 2/3' },
  ],
};

const minimal: RolloutState = {
  strategy: { kind: 'ClusterRolloutStrategy', namespace: '', name: 'everything' },
  revision: rev,
  source: rev,
  phase: 'Complete',
  step: 1,
  steps: 1,
  stepStartedAt: '2026-12-01T15:00:00Z',
  digests: {},
  clusters: [],
};

test('the record paths: <namespace>/<name>.yaml, _cluster/<name>.yaml for a cluster-scoped strategy', () => {
  assert.equal(rolloutDir, '.gitfleet/rollouts/');
  assert.equal(rolloutRecordPath({ namespace: 'shop', name: 'web' }), '.gitfleet/rollouts/shop/web.yaml');
  assert.equal(rolloutRecordPath({ namespace: '', name: 'web' }), '.gitfleet/rollouts/_cluster/web.yaml');
});

for (const [name, state] of [
  ['every field', full],
  ['a cluster-scoped strategy with only the required fields', minimal],
] as const) {
  test(`round trip: ${name}`, () => {
    const text = rolloutRecordText(state);
    assert.deepEqual(parseRolloutRecord(text), state);
    assert.equal(rolloutRecordText(parseRolloutRecord(text)!), text, 'the text is canonical');
  });
}

test('the record text is a RolloutState of gitfleet.io/v1alpha1 with the strategy as its metadata', () => {
  const doc = yaml.load(rolloutRecordText(full)) as Record<string, unknown>;
  assert.equal(doc['apiVersion'], 'gitfleet.io/v1alpha1');
  assert.equal(doc['kind'], 'RolloutState');
  assert.deepEqual(doc['metadata'], { name: 'web', namespace: 'shop' });
  assert.equal(doc['strategyKind'], 'RolloutStrategy');
  const cluster = yaml.load(rolloutRecordText(minimal)) as Record<string, unknown>;
  assert.deepEqual(cluster['metadata'], { name: 'everything' });
  assert.equal('healthySince' in cluster || 'message' in cluster, false, 'absent fields are not written');
});

test('a commit that reads as a number in YAML stays a string', () => {
  const digits = '1234567890'.repeat(4);
  const state: RolloutState = {
    ...minimal,
    revision: digits,
    source: digits,
    clusters: [{ name: 'x', step: 1, state: 'Moved', commit: digits }],
  };
  assert.deepEqual(parseRolloutRecord(rolloutRecordText(state)), state);
});

/** The record's document, changed by `edit`, as text. */
function edited(edit: (doc: Record<string, unknown>) => void): string {
  const doc = yaml.load(rolloutRecordText(full)) as Record<string, unknown>;
  edit(doc);
  return yaml.dump(doc);
}
const clusterAt = (doc: Record<string, unknown>, i: number) =>
  (doc['clusters'] as Record<string, unknown>[])[i]!;

const malformed: { name: string; text: string }[] = [
  { name: 'not YAML', text: 'kind: RolloutState\nphase: [Halted\n' },
  { name: 'empty', text: '' },
  { name: 'a list', text: '- kind: RolloutState\n' },
  { name: 'a scalar', text: 'RolloutState\n' },
  { name: 'another kind', text: edited((d) => (d['kind'] = 'RolloutRecord')) },
  { name: 'no metadata', text: edited((d) => delete d['metadata']) },
  { name: 'no name', text: edited((d) => delete (d['metadata'] as Record<string, unknown>)['name']) },
  { name: 'a numeric name', text: edited((d) => ((d['metadata'] as Record<string, unknown>)['name'] = 7)) },
  {
    name: 'a namespace that is no string',
    text: edited((d) => ((d['metadata'] as Record<string, unknown>)['namespace'] = ['shop'])),
  },
  { name: 'an unknown strategy kind', text: edited((d) => (d['strategyKind'] = 'PropagationPolicy')) },
  { name: 'no strategy kind', text: edited((d) => delete d['strategyKind']) },
  { name: 'no revision', text: edited((d) => delete d['revision']) },
  { name: 'a revision that is no string', text: edited((d) => (d['revision'] = 12)) },
  { name: 'no source', text: edited((d) => delete d['source']) },
  { name: 'an unknown phase', text: edited((d) => (d['phase'] = 'Paused')) },
  { name: 'a phase in lower case', text: edited((d) => (d['phase'] = 'halted')) },
  { name: 'no phase', text: edited((d) => delete d['phase']) },
  { name: 'step 0', text: edited((d) => (d['step'] = 0)) },
  { name: 'a fractional step', text: edited((d) => (d['step'] = 1.5)) },
  { name: 'a step as text', text: edited((d) => (d['step'] = '2')) },
  { name: 'no steps', text: edited((d) => delete d['steps']) },
  { name: 'a stepStartedAt that is no time', text: edited((d) => (d['stepStartedAt'] = 'yesterday')) },
  {
    name: 'a stepStartedAt without a zone',
    text: edited((d) => (d['stepStartedAt'] = '2026-12-01T15:00:00')),
  },
  {
    name: 'a stepStartedAt out of range',
    text: edited((d) => (d['stepStartedAt'] = '2026-13-45T25:00:00Z')),
  },
  { name: 'no stepStartedAt', text: edited((d) => delete d['stepStartedAt']) },
  { name: 'a healthySince that is no time', text: edited((d) => (d['healthySince'] = 'soon')) },
  { name: 'a healthySince that is a number', text: edited((d) => (d['healthySince'] = 1764601200000)) },
  { name: 'digests as a list', text: edited((d) => (d['digests'] = ['x'])) },
  {
    name: 'a digest that is no string',
    text: edited((d) => ((d['digests'] as Record<string, unknown>)['eu'] = 5)),
  },
  { name: 'clusters as a mapping', text: edited((d) => (d['clusters'] = { canary: {} })) },
  { name: 'a cluster with an unknown state', text: edited((d) => (clusterAt(d, 0)['state'] = 'Paused')) },
  { name: 'a cluster without state', text: edited((d) => delete clusterAt(d, 1)['state']) },
  { name: 'a cluster without name', text: edited((d) => delete clusterAt(d, 2)['name']) },
  { name: 'a cluster at step 0', text: edited((d) => (clusterAt(d, 0)['step'] = 0)) },
  { name: 'a cluster that is no mapping', text: edited((d) => ((d['clusters'] as unknown[])[0] = 'canary')) },
];

for (const row of malformed) {
  test(`malformed: ${row.name} parses to undefined`, () => {
    assert.equal(parseRolloutRecord(row.text), undefined);
  });
}

test('the table above starts from a record that parses', () => {
  assert.deepEqual(parseRolloutRecord(edited(() => undefined)), full);
});

test('absent digests and clusters read as empty; a non-string optional field of a cluster is dropped', () => {
  const state = parseRolloutRecord(
    edited((d) => {
      delete d['digests'];
      delete d['clusters'];
    }),
  );
  assert.deepEqual(state?.digests, {});
  assert.deepEqual(state?.clusters, []);
  const loose = parseRolloutRecord(edited((d) => (clusterAt(d, 0)['commit'] = 42)));
  assert.deepEqual(loose?.clusters[0], { name: 'canary', step: 1, state: 'Moved', lastGood: 'c'.repeat(40) });
});
