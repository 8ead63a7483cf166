import assert from 'node:assert/strict';
import { test } from 'node:test';
import { estimateAvailableReplicas } from '../../../src/core/schedule/estimate-available-replicas.js';
import {
  estimateMaxReplicas,
  type ResourceSummary,
} from '../../../src/core/schedule/estimate-max-replicas.js';
import type { ReplicaRequest } from '../../../src/core/schedule/replica-request-of.js';
import { aCluster } from '../builders.js';
import { capacity } from './schedule-fixtures.js';

const small: ReplicaRequest = { cpuMilli: 500, memoryBytes: 256 * 1024 * 1024, pods: 1 };

const cases: {
  name: string;
  given: { summary: ResourceSummary; request: ReplicaRequest | undefined };
  want: number;
}[] = [
  {
    name: 'Free CPU bounds the replicas when it is the scarcest resource.',
    given: {
      summary: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' }, allocated: { cpu: '1500m' } },
      request: small,
    },
    want: 5,
  },
  {
    name: 'Free memory bounds the replicas when it is the scarcest resource.',
    given: {
      summary: { allocatable: { cpu: '64', memory: '1Gi', pods: '110' }, allocating: { memory: '256Mi' } },
      request: small,
    },
    want: 3,
  },
  {
    name: 'Free pods bound the replicas.',
    given: {
      summary: { allocatable: { cpu: '64', memory: '64Gi', pods: '10' }, allocated: { pods: '7' } },
      request: small,
    },
    want: 3,
  },
  {
    name: 'Without requests only pods count.',
    given: {
      summary: { allocatable: { cpu: '1', pods: '20' }, allocated: { pods: '5' } },
      request: undefined,
    },
    want: 15,
  },
  {
    name: 'A requested resource the cluster does not report leaves no room.',
    given: { summary: { allocatable: { cpu: '8', pods: '110' } }, request: small },
    want: 0,
  },
  {
    name: 'An exhausted resource leaves no room.',
    given: {
      summary: { allocatable: { cpu: '2', memory: '8Gi', pods: '110' }, allocated: { cpu: '2' } },
      request: small,
    },
    want: 0,
  },
  {
    name: 'A summary without pods leaves no room.',
    given: { summary: { allocatable: { cpu: '8', memory: '8Gi' } }, request: small },
    want: 0,
  },
  {
    name: 'More pods allocating than allocatable leaves no room.',
    given: { summary: { allocatable: { pods: '10' }, allocating: { pods: '30' } }, request: undefined },
    want: 0,
  },
];

for (const { name, given, want } of cases) {
  test(name, () => {
    assert.equal(estimateMaxReplicas(given.summary, given.request), want);
  });
}

const clusters = [aCluster('member1'), aCluster('member2')];

test('Without any reported resources every cluster is bounded by the desired replicas (fallback).', () => {
  const got = estimateAvailableReplicas({
    clusters,
    clusterStatus: new Map(),
    replicas: 7,
    replicaRequest: small,
  });
  assert.deepEqual(
    [...got],
    [
      ['member1', 7],
      ['member2', 7],
    ],
  );
});

test('Once one cluster reports resources, a cluster that does not counts as 0.', () => {
  const clusterStatus = new Map([['member1', capacity({ cpu: '2', memory: '8Gi' })]]);
  const got = estimateAvailableReplicas({ clusters, clusterStatus, replicas: 7, replicaRequest: small });
  assert.deepEqual(
    [...got],
    [
      ['member1', 4],
      ['member2', 0],
    ],
  );
});

test('Objects without replicas are not estimated: every cluster has room for MaxInt32.', () => {
  const clusterStatus = new Map([['member1', capacity({ cpu: '0' })]]);
  const got = estimateAvailableReplicas({ clusters, clusterStatus, replicas: 0 });
  assert.deepEqual(
    [...got],
    [
      ['member1', 2147483647],
      ['member2', 2147483647],
    ],
  );
});
