import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  conflictResolutionOf,
  liveStateOf,
  planApply,
  shouldSkipApply,
  type ApplyDecision,
  type PlanApplyInput,
} from '../../../src/core/apply-plan/plan-apply.js';
import { aConfigMap } from '../builders.js';

function input(given: Partial<PlanApplyInput>): PlanApplyInput {
  return {
    cluster: 'member1',
    fleet: 'f1',
    digest: 'd2',
    lastAppliedDigest: 'd1',
    live: { type: 'absent' },
    conflictResolution: 'abort',
    ...given,
  };
}

const cases: { name: string; given: Partial<PlanApplyInput>; want: ApplyDecision['type'] | string }[] = [
  { name: 'an absent object is created without force', given: {}, want: 'apply create force=false' },
  {
    name: 'an absent object whose manifest was applied before was deleted by hand: putting it back is drift correction',
    given: { digest: 'd1' },
    want: 'apply driftCorrection force=false',
  },
  {
    name: 'an object without our marker that the agent never applied is refused',
    given: { live: { type: 'foreign' }, lastAppliedDigest: '' },
    want: 'refuse',
  },
  {
    name: 'an object the agent applied whose marker was removed by hand is drift: put back with force',
    given: { live: { type: 'foreign' }, digest: 'd1', lastAppliedDigest: 'd1' },
    want: 'apply driftCorrection force=true',
  },
  {
    name: 'an object the agent applied whose marker was removed, with a new manifest, is updated with force',
    given: { live: { type: 'foreign' } },
    want: 'apply update force=true',
  },
  {
    name: "an object the agent applied that now carries another cluster's marker is refused",
    given: { live: { type: 'foreign', owner: 'member2' }, digest: 'd1', lastAppliedDigest: 'd1' },
    want: 'refuse',
  },
  {
    name: 'an object without our marker is taken over with force under conflict resolution overwrite',
    given: { live: { type: 'foreign' }, lastAppliedDigest: '', conflictResolution: 'overwrite' },
    want: 'apply takeOver force=true',
  },
  {
    name: "another cluster's object is refused",
    given: { live: { type: 'foreign', owner: 'member2' } },
    want: 'refuse',
  },
  {
    name: 'our object with a new manifest is updated with force',
    given: { live: { type: 'ours', settled: true } },
    want: 'apply update force=true',
  },
  {
    name: 'our object with the same manifest, not written since it was seen matching, is skipped',
    given: { digest: 'd1', live: { type: 'ours', settled: true } },
    want: 'skip',
  },
  {
    name: 'our object with the same manifest, written since, needs a drift check',
    given: { digest: 'd1', live: { type: 'ours', settled: false } },
    want: 'checkDrift',
  },
  {
    name: 'a drift check that finds it clean skips the object',
    given: { digest: 'd1', live: { type: 'ours', settled: false }, drift: 'clean' },
    want: 'skip',
  },
  {
    name: 'a drift check that finds it drifted corrects it with force',
    given: { digest: 'd1', live: { type: 'ours', settled: false }, drift: 'drifted' },
    want: 'apply driftCorrection force=true',
  },
];

test('planApply decides per object', () => {
  for (const c of cases) {
    const d = planApply(input(c.given));
    const got = d.type === 'apply' ? `apply ${d.reason} force=${d.force}` : d.type;
    assert.equal(got, c.want, c.name);
  }
});

test('a refusal says why and how to take the object over', () => {
  const d = planApply(input({ live: { type: 'foreign', owner: 'member2' } }));
  assert.equal(d.type, 'refuse');
  if (d.type === 'refuse') {
    assert.match(
      d.message,
      /managed by the gitfleet agent of cluster member2 \(gitfleet.io\/cluster=member2\), not member1/,
    );
    assert.match(d.message, /work.karmada.io\/conflict-resolution: overwrite/);
  }
});

test('shouldSkipApply skips only an unchanged manifest that did not drift', () => {
  const cases = [
    {
      name: 'same digest, no drift',
      given: { digest: 'a', lastAppliedDigest: 'a', drifted: false },
      want: true,
    },
    {
      name: 'same digest, drifted',
      given: { digest: 'a', lastAppliedDigest: 'a', drifted: true },
      want: false,
    },
    { name: 'new digest', given: { digest: 'b', lastAppliedDigest: 'a', drifted: false }, want: false },
    { name: 'never applied', given: { digest: '', lastAppliedDigest: '', drifted: false }, want: false },
  ];
  for (const c of cases) assert.equal(shouldSkipApply(c.given), c.want, c.name);
});

test('liveStateOf reads the ownership marker', () => {
  const cm = aConfigMap('x');
  const marked = (value: string) => ({
    ...cm,
    metadata: { ...cm.metadata, labels: { 'gitfleet.io/cluster': value } },
  });
  const self = { cluster: 'member1', fleet: 'f1' };
  const ofFleet = (fleet: string) => ({
    ...cm,
    metadata: { ...cm.metadata, labels: { 'gitfleet.io/cluster': 'member1', 'gitfleet.io/fleet': fleet } },
  });
  assert.deepEqual(liveStateOf(self, undefined, false, false), { type: 'absent' });
  assert.deepEqual(liveStateOf(self, cm, false, false), { type: 'foreign' });
  assert.deepEqual(liveStateOf(self, marked('member2'), false, false), { type: 'foreign', owner: 'member2' });
  assert.deepEqual(liveStateOf(self, ofFleet('f1'), true, true), { type: 'ours', settled: true });
  assert.deepEqual(liveStateOf(self, ofFleet('f2'), true, true), { type: 'otherFleet', fleet: 'f2' });
  assert.deepEqual(
    liveStateOf(self, marked('member1'), true, true),
    { type: 'ours', settled: true, remark: true },
    'a marker from before fleet identities on an object in our inventory: ours, to be re-marked',
  );
  assert.deepEqual(
    liveStateOf(self, marked('member1'), true, false),
    { type: 'otherFleet' },
    "the same marker on an object our inventory does not hold: some other fleet's",
  );
});

test("another fleet's object is never taken over; ours from before fleet identities is re-marked", () => {
  for (const conflictResolution of ['abort', 'overwrite'] as const) {
    const d = planApply(input({ live: { type: 'otherFleet', fleet: 'f2' }, conflictResolution }));
    assert.equal(d.type, 'refuse', conflictResolution);
    assert.match(
      d.type === 'refuse' ? d.message : '',
      /managed by another fleet's agent \(gitfleet.io\/cluster=member1 of another fleet \(gitfleet.io\/fleet=f2, this agent serves f1\)\)/,
    );
  }
  const settled = planApply(
    input({ digest: 'd1', lastAppliedDigest: 'd1', live: { type: 'ours', settled: true, remark: true } }),
  );
  assert.deepEqual(settled, { type: 'apply', force: true, reason: 'update' });
});

test("conflictResolutionOf reads Karmada's annotation, case-insensitively, defaulting to abort", () => {
  const cm = aConfigMap('x');
  const annotated = (value: string) => ({
    ...cm,
    metadata: { ...cm.metadata, annotations: { 'work.karmada.io/conflict-resolution': value } },
  });
  assert.equal(conflictResolutionOf(cm), 'abort');
  assert.equal(conflictResolutionOf(annotated('overwrite')), 'overwrite');
  assert.equal(conflictResolutionOf(annotated('Overwrite')), 'overwrite');
  assert.equal(conflictResolutionOf(annotated('abort')), 'abort');
});
