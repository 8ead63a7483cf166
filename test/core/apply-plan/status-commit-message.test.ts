import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  statusCommitMessage,
  type StatusCommitInput,
} from '../../../src/core/apply-plan/status-commit-message.js';

const commit = '1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d';
const base: StatusCommitInput = {
  cluster: 'member1',
  commit,
  fullyApplied: true,
  tombstoned: false,
  objects: 3,
  failures: [],
  notes: [],
};

const cases: { name: string; given: Partial<StatusCommitInput>; want: string }[] = [
  {
    name: 'a full apply names the commit in the trailer',
    given: {},
    want: `status member1: applied 1a2b3c4\n\nGitfleet-Applied-Commit: ${commit}\n`,
  },
  {
    name: 'a cluster that does not answer says so, not "0 failed (0 objects)"',
    given: {
      fullyApplied: false,
      objects: 0,
      clusterUnreachable: 'GET /api: no answer: connect ECONNREFUSED',
    },
    want: 'status member1: the cluster does not answer at 1a2b3c4; reported NotReady\n\nGET /api: no answer: connect ECONNREFUSED\n',
  },
  {
    name: 'a partial apply lists the failures and has no trailer',
    given: { fullyApplied: false, failures: ['shop/ConfigMap/x: 403 Forbidden'] },
    want: 'status member1: 1 failed at 1a2b3c4 (3 objects)\n\nshop/ConfigMap/x: 403 Forbidden\n',
  },
  {
    name: 'a tombstone says the agent stopped',
    given: { fullyApplied: false, tombstoned: true },
    want: 'status member1: branch tombstoned at 1a2b3c4; applying stopped, nothing deleted\n',
  },
  {
    name: 'notes come before the trailer',
    given: { notes: ['Git was unreachable for 2m3s'] },
    want: `status member1: applied 1a2b3c4\n\nGit was unreachable for 2m3s\n\nGitfleet-Applied-Commit: ${commit}\n`,
  },
  {
    name: 'long failure lists are cut with a count',
    given: { fullyApplied: false, failures: ['a', 'b', 'c'], maxListed: 2 },
    want: 'status member1: 3 failed at 1a2b3c4 (3 objects)\n\na\nb\n… and 1 more\n',
  },
];

test('statusCommitMessage writes the subject, the body and the applied-commit trailer', () => {
  for (const c of cases) assert.equal(statusCommitMessage({ ...base, ...c.given }), c.want, c.name);
});

test('statusCommitMessage lists the drift corrections after the failures, summed per object, field paths only', () => {
  const message = statusCommitMessage({
    ...base,
    fullyApplied: false,
    failures: ['shop/ConfigMap/x: 403 Forbidden'],
    drift: [
      { object: 'Deployment/shop/web', count: 3, fields: ['spec.replicas'], recreated: false },
      { object: 'ConfigMap/shop/a', count: 1, fields: ['data.k'], recreated: true },
    ],
    driftPaused: ['ConfigMap/shop/b'],
  });
  assert.equal(
    message,
    [
      'status member1: 1 failed at 1a2b3c4 (3 objects)',
      '',
      'shop/ConfigMap/x: 403 Forbidden',
      'drift reverted: ConfigMap/shop/a (deleted by hand, recreated; fields: data.k)',
      'drift reverted: Deployment/shop/web (3 times; fields: spec.replicas)',
      'drift correction paused: ConfigMap/shop/b',
      '',
    ].join('\n'),
  );
});
