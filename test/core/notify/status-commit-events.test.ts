// The events of the agents' status commits (core/notify/status-commit-events.ts): failures told
// once, drift corrections told by every commit that lists them, paused fights told when they
// start; ids a function of the commit; a flood of corrections a bounded number of events whose
// counts add up to every correction.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statusCommitEvents, type StatusCommitFacts } from '../../../src/core/notify/status-commit-events.js';
import { statusCommitMessage } from '../../../src/core/apply-plan/status-commit-message.js';
import { parseDriftLine, type DriftNote } from '../../../src/core/apply-plan/drift-report-lines.js';
import { coalesceEvents } from '../../../src/core/notify/coalesce-events.js';

const branch = '1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d';
const source = '9f8e7d6c5b4a39281706f5e4d3c2b1a098765432';

function facts(
  commit: string,
  given: Partial<Parameters<typeof statusCommitMessage>[0]>,
  time = '2026-12-05T10:00:00.000Z',
): StatusCommitFacts {
  const message = statusCommitMessage({
    cluster: 'member1',
    commit: branch,
    fullyApplied: true,
    tombstoned: false,
    objects: 3,
    failures: [],
    notes: [],
    ...given,
  });
  return { cluster: 'member1', commit, message, time };
}

const note = (object: string, more: Partial<DriftNote> = {}): DriftNote => ({
  object,
  count: 1,
  fields: ['spec.replicas'],
  recreated: false,
  ...more,
});

test('A drift line is one DriftReverted event of its object, counting its corrections, with the commit in its id.', () => {
  const now = facts('c2', {
    drift: [
      note('Deployment/shop/web', { count: 3 }),
      note('Namespace/shop', { fields: [], recreated: true }),
    ],
  });
  const events = statusCommitEvents(now, facts('c1', {}), source);
  assert.deepEqual(
    events.map((e) => [e.id, e.event, e.severity, e.object, e.namespace, e.coalesced, e.message]),
    [
      [
        'c2:0',
        'DriftReverted',
        'warning',
        'Deployment/shop/web',
        'shop',
        3,
        'Deployment/shop/web @member1: changed by hand, put back (3 times; fields: spec.replicas)',
      ],
      [
        'c2:1',
        'DriftReverted',
        'warning',
        'Namespace/shop',
        undefined,
        undefined,
        'Namespace/shop @member1: changed by hand, put back (deleted by hand, recreated)',
      ],
    ],
  );
  assert.ok(events.every((e) => e.cluster === 'member1' && e.sourceCommit === source && e.time === now.time));
  assert.deepEqual(
    statusCommitEvents(now, facts('c1', {}), source),
    events,
    'the same commit, the same events',
  );
});

test('The same drift line in the next commit is new corrections: told again; a paused fight is told when it starts only.', () => {
  const first = facts('c1', { drift: [note('Deployment/shop/web')], driftPaused: ['ConfigMap/shop/cm'] });
  const second = facts('c2', { drift: [note('Deployment/shop/web')], driftPaused: ['ConfigMap/shop/cm'] });
  assert.deepEqual(
    statusCommitEvents(first, null, source).map((e) => [e.event, e.object]),
    [
      ['DriftReverted', 'Deployment/shop/web'],
      ['DriftPaused', 'ConfigMap/shop/cm'],
    ],
  );
  assert.deepEqual(
    statusCommitEvents(second, first, source).map((e) => [e.id, e.event]),
    [['c2:0', 'DriftReverted']],
  );
});

test('A failure names its object as Kind/namespace/name, cluster-scoped ones too, and comes before the drift of the same commit.', () => {
  const now = facts('c2', {
    fullyApplied: false,
    failures: [
      'shop/Deployment.apps/web: 422 Unprocessable Entity: spec.selector: field is immutable',
      '_cluster/Namespace/shop: 403 Forbidden',
    ],
    drift: [note('ConfigMap/shop/cm')],
  });
  const events = statusCommitEvents(now, null, source);
  assert.deepEqual(
    events.map((e) => [e.id, e.event, e.object, e.namespace, e.message]),
    [
      [
        'c2:0',
        'ApplyFailed',
        'Deployment/shop/web',
        'shop',
        'Deployment/shop/web @member1: 422 Unprocessable Entity: spec.selector: field is immutable',
      ],
      ['c2:1', 'ApplyFailed', 'Namespace/shop', undefined, 'Namespace/shop @member1: 403 Forbidden'],
      [
        'c2:2',
        'DriftReverted',
        'ConfigMap/shop/cm',
        'shop',
        'ConfigMap/shop/cm @member1: changed by hand, put back (fields: spec.replicas)',
      ],
    ],
  );
  const again = facts('c3', { fullyApplied: false, failures: ['_cluster/Namespace/shop: 403 Forbidden'] });
  assert.deepEqual(statusCommitEvents(again, now, source), [], 'a failure that lasts is told once');
});

test('10,000 objects corrected within a minute, over four status commits, are 4 events whose counts add up to 10,000.', () => {
  const commits: StatusCommitFacts[] = [];
  for (let c = 0; c < 4; c++) {
    const drift = Array.from({ length: 2_500 }, (_, i) =>
      note(`ConfigMap/shop/cm-${c * 2_500 + i}`, { fields: ['data.k'] }),
    );
    commits.push(
      facts(`c${c}`, { drift }, new Date(Date.parse('2026-12-05T10:00:00.000Z') + c * 15_000).toISOString()),
    );
  }
  const listed = commits[0]!.message.split('\n').filter((l) => parseDriftLine(l) !== undefined);
  assert.equal(listed.length, 51, 'a commit lists 50 objects and one line counting the rest');
  assert.equal(listed[50], 'drift reverted: 2450 more objects in shop (2450 corrections)');

  const events = commits.flatMap((now, i) => statusCommitEvents(now, commits[i - 1] ?? null, source));
  assert.equal(events.length, 4 * 51);
  const told = coalesceEvents(events);
  assert.equal(told.length, 4);
  assert.equal(
    told.reduce((sum, e) => sum + (e.coalesced ?? 1), 0),
    10_000,
    'every correction is counted',
  );
  assert.match(
    told[3]!.message,
    /^9997 more DriftReverted events on member1 since 2026-12-05T10:00:00\.000Z; the last: 2450 more objects in shop @member1/,
  );
});

test('A drift line never carries a value: the fields are paths, and a line that is not one is no event.', () => {
  for (const line of [
    'drift reverted: x',
    'drift reverted:',
    'drift reverted: Deployment/shop/web spec.replicas=3',
    'Drift reverted: Deployment/shop/web (put back)',
  ])
    assert.equal(parseDriftLine(line), undefined, line);
  const now = {
    cluster: 'member1',
    commit: 'c1',
    time: '2026-12-05T10:00:00.000Z',
    message: 'status member1: applied 1a2b3c4\n\ndrift reverted: not a line\n',
  };
  assert.deepEqual(statusCommitEvents(now, null, source), []);
});

test('The objects past the listed ones are counted per namespace, so a route on namespaces still gets them.', () => {
  const drift = [
    ...Array.from({ length: 3 }, (_, i) => note(`ConfigMap/a/cm-${i}`)),
    ...Array.from({ length: 2 }, (_, i) => note(`ConfigMap/b/cm-${i}`, { count: 4 })),
    note('Namespace/zz', { count: 2 }),
  ];
  const now = facts('c1', { drift, maxListed: 2 });
  assert.deepEqual(
    statusCommitEvents(now, null, source).map((e) => [e.object, e.namespace, e.coalesced]),
    [
      ['ConfigMap/a/cm-0', 'a', undefined],
      ['ConfigMap/a/cm-1', 'a', undefined],
      [undefined, 'a', 1],
      [undefined, 'b', 8],
      [undefined, undefined, 2],
    ],
  );
});
