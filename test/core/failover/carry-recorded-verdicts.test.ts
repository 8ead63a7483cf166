import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  carryRecordedVerdicts,
  type CarryInput,
} from '../../../src/core/failover/carry-recorded-verdicts.js';
import type { ClusterVerdict } from '../../../src/core/failover/monitored-status.js';

const unknown: ClusterVerdict = {
  status: 'Unknown',
  reason: 'ClusterStatusUnknown',
  message: 'from the monitor',
};
const base: CarryInput = {
  monitor: new Map(),
  monitorJudging: false,
  recorded: ['member2=Unknown'],
  recordedStatus: ['member1=s1', 'member2=s2'],
  statusHeads: new Map([
    ['member1', 's1'],
    ['member2', 's2'],
  ]),
  clusters: new Set(['member1', 'member2']),
};

const cases: { name: string; given: Partial<CarryInput>; want: string[] }[] = [
  {
    name: 'a restarted hub keeps the recorded judgement of a cluster that has not reported since',
    given: {},
    want: ['member2'],
  },
  {
    name: 'a cluster that wrote a status commit since the judgement is not carried',
    given: {
      statusHeads: new Map([
        ['member1', 's1'],
        ['member2', 's3'],
      ]),
    },
    want: [],
  },
  { name: 'once the monitor judges, its verdicts alone count', given: { monitorJudging: true }, want: [] },
  {
    name: "the monitor's own verdicts are kept beside the carried ones",
    given: { monitor: new Map([['member1', unknown]]) },
    want: ['member1', 'member2'],
  },
  {
    name: 'a cluster no longer registered is not carried',
    given: { clusters: new Set(['member1']) },
    want: [],
  },
  { name: 'nothing recorded, nothing carried', given: { recorded: [] }, want: [] },
  {
    name: 'a judged cluster that never had a status branch stays judged until it has one',
    given: { recordedStatus: ['member1=s1'], statusHeads: new Map([['member1', 's1']]) },
    want: ['member2'],
  },
];

for (const c of cases) {
  test(c.name, () => {
    const verdicts = carryRecordedVerdicts({ ...base, ...c.given });
    assert.deepEqual([...verdicts.keys()].sort(), c.want);
  });
}

test("a carried verdict is the monitor's kind of verdict, saying it comes from the last pass", () => {
  const v = carryRecordedVerdicts(base).get('member2');
  assert.equal(v?.status, 'Unknown');
  assert.equal(v?.reason, 'ClusterStatusUnknown');
  assert.match(v?.message ?? '', /last hub pass/);
});
