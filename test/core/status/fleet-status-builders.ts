// Builders of fleet status data (what `status` reads from Git) for the explanation's table tests.
import type { ClusterDiagnosis } from '../../../src/core/model/binding.js';
import type { GracefulEvictionTask } from '../../../src/core/model/failover.js';
import type { RolloutState } from '../../../src/core/model/rollout.js';
import type { BindingView } from '../../../src/core/publish/binding-record.js';
import type { FleetStatusData } from '../../../src/core/status/fleet-status-data.js';
import type { AgentReport, ObjectStatusRecord } from '../../../src/core/status/status-branch.js';

export const head1 = 'a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1';
export const head2 = 'b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2';
export const source1 = 'c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3';
export const source2 = 'd4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4';

/** The Deployment shop/web's binding record, placed on `clusters` by PropagationPolicy/shop/web. */
export function aWebBinding(over: Partial<BindingView> = {}, clusters: string[] = ['member1']): BindingView {
  return {
    name: 'web-deployment',
    resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' },
    key: 'apps/Deployment/shop/web',
    origin: 'policy',
    policy: { kind: 'PropagationPolicy', namespace: 'shop', name: 'web' },
    replicas: 2,
    clusters: clusters.map((name) => ({ name, replicas: 2 })),
    aggregatedStatus: [],
    ...over,
  };
}

/** The ServiceImport shop/web's binding record, placed nowhere: every cluster lacks its CRD. */
export function anUnplacedServiceImport(clusters: string[]): BindingView {
  return {
    name: 'web-serviceimport',
    resource: {
      apiVersion: 'multicluster.x-k8s.io/v1alpha1',
      kind: 'ServiceImport',
      namespace: 'shop',
      name: 'web',
    },
    key: 'multicluster.x-k8s.io/ServiceImport/shop/web',
    origin: 'policy',
    policy: { kind: 'PropagationPolicy', namespace: 'shop', name: 'web-import' },
    replicas: 0,
    clusters: [],
    aggregatedStatus: [],
    scheduleFailed: { reason: 'NoClusterFit', message: `0/${clusters.length} clusters are available` },
    refused: clusters.map((cluster): ClusterDiagnosis => ({
      cluster,
      filter: 'APIEnablement',
      reason: 'API multicluster.x-k8s.io/v1alpha1 ServiceImport not enabled',
    })),
  };
}

/** The Deployment's status record as an agent reports it. */
export function aWebRecord(over: Partial<ObjectStatusRecord> = {}): ObjectStatusRecord {
  return {
    ref: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' },
    applied: true,
    health: 'Healthy',
    ...over,
  };
}

/** A Ready cluster's report, at `applied`, with these object records. */
export function aReport(
  cluster: string,
  objects: ObjectStatusRecord[],
  over: Partial<AgentReport> = {},
): AgentReport {
  return {
    cluster,
    appliedCommit: head1,
    clusterStatus: { conditions: [{ type: 'Ready', status: 'True' }] },
    objects,
    ...over,
  };
}

/** Fleet status data with the bindings and reports given, every reporting cluster's branch at head1. */
export function aFleetStatus(
  bindings: BindingView[],
  reports: AgentReport[],
  over: Partial<FleetStatusData> = {},
): FleetStatusData {
  const clusters = reports.map((r) => r.cluster);
  return {
    repo: '/fleet',
    branchPrefix: 'gitfleet/',
    bindingsHead: head2,
    bindings,
    reports: new Map(reports.map((r) => [r.cluster, r])),
    aggregatedByHub: new Set(),
    unreadable: new Map(),
    reportTimes: new Map(),
    heartbeatTimes: new Map(),
    renderedHeads: new Map(clusters.map((c) => [c, head1])),
    behind: new Map(),
    judged: new Map(),
    templateLabels: new Map(),
    evictions: [],
    rollouts: [],
    ...over,
  };
}

/** A graceful eviction task from `cluster`, made at 15:00 by the taint manager. */
export function anEvictionTask(
  cluster: string,
  over: Partial<GracefulEvictionTask> = {},
): GracefulEvictionTask {
  return {
    fromCluster: cluster,
    purgeMode: 'Gracefully',
    reason: 'TaintUntolerated',
    producer: 'TaintManager',
    creationTimestamp: '2026-12-01T15:00:00.000Z',
    ...over,
  };
}

/** The rollout of shop/front over member1 (step 1) and member2 (step 2), holding the Deployment shop/web. */
export function aRollout(over: Partial<RolloutState> = {}): RolloutState {
  return {
    strategy: { kind: 'RolloutStrategy', namespace: 'shop', name: 'front' },
    revision: source2,
    source: source2,
    phase: 'Progressing',
    step: 1,
    steps: 2,
    stepStartedAt: '2026-12-01T15:00:00.000Z',
    digests: {},
    objects: ['shop/Deployment.apps/web.yaml'],
    clusters: [
      { name: 'member1', step: 1, state: 'Moved', commit: source2 },
      { name: 'member2', step: 2, state: 'Held', commit: source1, message: 'waiting for step 1/2' },
    ],
    ...over,
  };
}
