// Small inputs for the failover steps' table tests: a Deployment binding with a policy, agent
// reports with one object each, and the eviction stage's input around them.
import type { Binding, PreviousBinding } from '../../../src/core/model/binding.js';
import type { FailoverBehavior } from '../../../src/core/model/failover.js';
import { defaultFailoverSettings } from '../../../src/core/model/failover.js';
import type { Fleet } from '../../../src/core/model/fleet.js';
import { refKey, type ObjectRef } from '../../../src/core/model/object-ref.js';
import type { HealthStatus } from '../../../src/core/health/health.js';
import type { AgentReport, ObjectStatusRecord } from '../../../src/core/status/status-branch.js';
import { newFailoverMemory } from '../../../src/core/failover/eviction-request.js';
import type { EvictionInput } from '../../../src/core/failover/failover-input.js';
import { aPlacement } from '../builders.js';

export const webRef: ObjectRef = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  namespace: 'shop',
  name: 'web',
};
export const webKey = refKey(webRef);

/** Returns the binding of shop/web on the clusters (name → replicas). */
export function aBinding(
  clusters: Record<string, number>,
  extra: Partial<Binding> & { failover?: FailoverBehavior } = {},
): Binding {
  return {
    name: 'web-deployment',
    resource: webRef,
    key: webKey,
    policy: { kind: 'PropagationPolicy', namespace: 'shop', name: 'web' },
    origin: 'policy',
    replicas: Object.values(clusters).reduce((a, b) => a + b, 0),
    placement: aPlacement(),
    propagateDeps: true,
    conflictResolution: 'Abort',
    preserveResourcesOnDeletion: false,
    schedule: {
      type: 'Scheduled',
      clusters: Object.entries(clusters).map(([name, replicas]) => ({ name, replicas })),
    },
    requiredBy: [],
    overrides: 'all',
    ...extra,
  };
}

/** Returns the previous binding a record of `binding` holds. */
export function previousOf(binding: Binding, extra: Partial<PreviousBinding> = {}): PreviousBinding {
  return {
    key: binding.key,
    policy: binding.policy!,
    clusters: binding.schedule.type === 'Scheduled' ? binding.schedule.clusters : [],
    ...extra,
  };
}

/** Returns a report of `cluster` at `commit` with shop/web in the given health. */
export function aReport(
  cluster: string,
  health: HealthStatus,
  opts: { commit?: string; status?: Record<string, unknown>; healthMessage?: string; applied?: boolean } = {},
): AgentReport {
  const record: ObjectStatusRecord = {
    ref: webRef,
    applied: opts.applied ?? true,
    health,
    ...(opts.healthMessage ? { healthMessage: opts.healthMessage } : {}),
    ...(opts.status ? { status: opts.status } : {}),
  };
  return { cluster, appliedCommit: opts.commit ?? `c-${cluster}`, objects: [record] };
}

/** Returns the eviction stage's input at `nowMs` (epoch ms). */
export function anEvictionInput(opts: {
  nowMs: number;
  bindings: Binding[];
  previous?: PreviousBinding[];
  reports?: AgentReport[];
  clusterHeads?: Record<string, string>;
  memory?: EvictionInput['memory'];
  fleet?: Partial<Fleet>;
  recorded?: Map<string, string>;
}): EvictionInput {
  const reports = opts.reports ?? [];
  return {
    now: new Date(opts.nowMs),
    settings: defaultFailoverSettings,
    fleet: {
      templates: [],
      clusters: [],
      propagationPolicies: [],
      overridePolicies: [],
      ...opts.fleet,
    } as Fleet,
    bindings: opts.bindings,
    previous: new Map((opts.previous ?? opts.bindings.map((b) => previousOf(b))).map((p) => [p.key, p])),
    clusterStatus: new Map(),
    clusterTaints: new Map(),
    reports: new Map(reports.map((r) => [r.cluster, r])),
    clusterHeads: new Map(
      Object.entries(
        opts.clusterHeads ?? Object.fromEntries(reports.map((r) => [r.cluster, `c-${r.cluster}`])),
      ),
    ),
    recorded: opts.recorded ?? new Map(),
    memory: opts.memory ?? newFailoverMemory(),
  };
}
