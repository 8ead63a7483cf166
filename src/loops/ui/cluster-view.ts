// The cluster page's document (`/api/cluster?name=`): what `gitfleet status` says of the cluster
// (its summary, fleet-summary.ts), what its agent reported (the cluster's conditions and the
// agent's own, nodes, capacity, the APIs it serves), its registration in the fleet repository,
// its taints with who added them and when (taint-origins.ts), what is placed there with its
// status row (status-table.ts), which templates are being evicted from it and where it stands
// in each rollout. Nothing here judges anything the status views do not.
import type { Cluster } from '../../core/model/cluster.js';
import { refLabel } from '../../core/model/object-ref.js';
import { strategyLabel, type RolloutPhase, type RolloutClusterState } from '../../core/model/rollout.js';
import { formatTaint } from '../../core/schedule/find-untolerated-taint.js';
import type { FleetStatusData } from '../../core/status/fleet-status-data.js';
import type { StatusRow } from '../../core/status/status-table.js';
import type { EvictionListView } from './fleet-lists-view.js';
import { evictionListOf } from './fleet-lists-view.js';
import type { ClusterCard } from './dashboard-view.js';
import type { ClusterExplanation, TemplateExplanation } from '../../core/status/explanation.js';
import { isNotable } from '../../core/status/explain-template.js';
import { hubTaintOrigins, specTaintOrigin, type TaintOrigin } from './taint-origins.js';

/** One taint on the cluster: where it is kept, and the commit that added it when found. */
export interface TaintView {
  key: string;
  value?: string;
  effect: string;
  /** `spec`: written in the Cluster's registration; `hub`: kept by the hub from conditions and ClusterTaintPolicies. */
  origin: 'spec' | 'hub';
  /** The hub's time it was added (hub taints). */
  timeAdded?: string;
  addedBy?: TaintOrigin;
}

/** One condition, and who reported it: the cluster's own (ClusterStatus) or the agent's. */
export interface ConditionView {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  from: 'cluster' | 'agent';
}

/** The cluster page's document. */
export interface ClusterView {
  cluster: string;
  summary: ClusterCard;
  /** Why its status branch does not read, when it does not. */
  unreadable?: string;
  /** The hub monitor's verdict, when the bindings head records one. */
  judged?: string;
  registration?: {
    labels: Record<string, string>;
    provider?: string;
    region?: string;
    zones: string[];
    syncMode: string;
    file: string;
  };
  conditions: ConditionView[];
  taints: TaintView[];
  capacity: {
    allocatable?: Record<string, string>;
    allocating?: Record<string, string>;
    allocated?: Record<string, string>;
  };
  /** The API groups/versions it serves, as its agent reported them. */
  apis: string[];
  /** Every template placed there, or reported by its agent though not placed, with its refKey and why it is as it is there. */
  objects: (StatusRow & { key?: string; explained?: ClusterExplanation })[];
  /**
   * The templates not placed there for a reason a person may act on (the scheduler refused the
   * cluster: a taint, a missing API, no room…; evicted; not pruned yet), with the explanation.
   */
  refused: { template: string; key: string; explained: ClusterExplanation }[];
  /** The eviction tasks from this cluster, each with when the copy goes at the latest (the explanation's `until`). */
  evictions: (EvictionListView['evictions'][number] & { until?: string })[];
  rollouts: {
    strategy: string;
    phase: RolloutPhase;
    step: number;
    steps: number;
    revision: string;
    cluster: RolloutClusterState;
  }[];
}

/** Returns the cluster page of `name`, or undefined when the fleet knows no such cluster. */
export function clusterView(input: {
  data: FleetStatusData;
  rows: readonly StatusRow[];
  cards: readonly ClusterCard[];
  name: string;
  gitdir: string;
  /** Every template's explanation by refKey (core/status/explain-template.ts). */
  explanations: ReadonlyMap<string, TemplateExplanation>;
}): ClusterView | undefined {
  const { data, name } = input;
  const summary = input.cards.find((c) => c.cluster === name);
  if (!summary) return undefined;
  const report = data.reports.get(name);
  const registration = data.registrations?.get(name);
  const unreadable = data.unreadable.get(name);
  const judged = data.judged.get(name);
  const status = report?.clusterStatus;
  return {
    cluster: name,
    summary,
    ...(unreadable !== undefined ? { unreadable } : {}),
    ...(judged !== undefined ? { judged } : {}),
    ...(registration ? { registration: registrationOf(registration) } : {}),
    conditions: [
      ...(status?.conditions ?? []).map((c): ConditionView => ({ ...c, from: 'cluster' })),
      ...(report?.conditions ?? []).map((c): ConditionView => ({ ...c, from: 'agent' })),
    ],
    taints: taintsOf(input, registration),
    capacity: { ...status?.resourceSummary },
    apis: (status?.apiEnablements ?? []).map((a) => a.groupVersion).sort(),
    objects: objectsOn(data, input.rows, name, input.explanations),
    refused: refusedOn(input.explanations, name),
    evictions: evictionListOf(data, input.explanations).evictions.filter((e) => e.cluster === name),
    rollouts: data.rollouts.flatMap((v) => {
      if (!('rollout' in v)) return [];
      const r = v.rollout;
      const cluster = r.clusters.find((c) => c.name === name);
      if (!cluster) return [];
      return [
        {
          strategy: strategyLabel(r.strategy),
          phase: r.phase,
          step: r.step,
          steps: r.steps,
          revision: r.revision,
          cluster,
        },
      ];
    }),
  };
}

function objectsOn(
  data: FleetStatusData,
  rows: readonly StatusRow[],
  name: string,
  explanations: ReadonlyMap<string, TemplateExplanation>,
): ClusterView['objects'] {
  const keyOf = new Map(data.bindings.map((b) => [refLabel(b.resource), b.key]));
  return rows
    .filter((r) => r.cluster === name && (r.placed || r.health !== undefined))
    .map((r) => {
      const key = keyOf.get(r.template);
      if (key === undefined) return r;
      const explained = explanations.get(key)?.clusters.find((c) => c.cluster === name);
      return { ...r, key, ...(explained ? { explained } : {}) };
    });
}

// Not placed, for a reason worth a look (isNotable), and not already a row of `objects`.
function refusedOn(
  explanations: ReadonlyMap<string, TemplateExplanation>,
  name: string,
): ClusterView['refused'] {
  const refused: ClusterView['refused'] = [];
  for (const [key, t] of explanations) {
    const explained = t.clusters.find((c) => c.cluster === name);
    // Evictions and not-yet-pruned copies have their own lists.
    const listed = explained?.reason === 'PendingRemoval' || explained?.reason === 'Evicting';
    if (explained && !explained.placed && !listed && isNotable(explained))
      refused.push({ template: t.template, key, explained });
  }
  return refused.sort((a, b) => (a.template < b.template ? -1 : a.template > b.template ? 1 : 0));
}

function registrationOf(c: Cluster): NonNullable<ClusterView['registration']> {
  return {
    labels: c.labels,
    ...(c.provider !== undefined ? { provider: c.provider } : {}),
    ...(c.region !== undefined ? { region: c.region } : {}),
    zones: c.zones,
    syncMode: c.syncMode,
    file: c.source.file,
  };
}

// The spec taints first (Git's), then the hub's, each with the commit that added it.
function taintsOf(
  input: { data: FleetStatusData; name: string; gitdir: string },
  registration: Cluster | undefined,
): TaintView[] {
  const { data, name, gitdir } = input;
  const taints: TaintView[] = [];
  for (const t of registration?.taints ?? []) {
    const addedBy =
      data.sourceCommit !== undefined
        ? specTaintOrigin({
            gitdir,
            sourceCommit: data.sourceCommit,
            file: registration!.source.file,
            cluster: name,
            taint: t,
          })
        : undefined;
    taints.push({ ...t, origin: 'spec', ...(addedBy ? { addedBy } : {}) });
  }
  const kept = data.keptTaints?.get(name) ?? [];
  const origins =
    kept.length > 0
      ? hubTaintOrigins({ gitdir, bindingsHead: data.bindingsHead, cluster: name, taints: kept })
      : new Map<string, TaintOrigin>();
  for (const t of kept) {
    const addedBy = origins.get(formatTaint(t));
    taints.push({ ...t, origin: 'hub', ...(addedBy ? { addedBy } : {}) });
  }
  return taints;
}
