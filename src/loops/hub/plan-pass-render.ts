// Steps 4 and 5a of a pass (hub-pass.ts): what the hub renders for a source commit given the
// recorded state of its branches, without writing anything. The pass writes what this returns;
// `gitfleet diff` (loops/preview/) previews the same thing, so a preview is what merging
// does: the previous bindings (stickiness), the clusters' status (taints, dynamic weights,
// Aggregated division, API enablements), the failover records and the rollout stage.
import { withClusterScopes } from '../../core/load/default-namespace.js';
import type { CommitSigner } from '../../adapters/signing/commit-signer.js';
import type { Fleet } from '../../core/model/fleet.js';
import type { PreviousBinding } from '../../core/model/binding.js';
import type { Snapshot } from '../../core/model/snapshot.js';
import type { RenderResult } from '../../core/render/render-fleet.js';
import { renderOffLoop } from '../source/render-off-loop.js';
import { planClusterTaints, planEvictions, settleEndedTasks } from '../../core/failover/plan-failover.js';
import { withMonitorVerdicts, type ClusterVerdict } from '../../core/failover/monitored-status.js';
import { exportedSlicesByCluster } from '../../core/status/exports-by-cluster.js';
import type { AgentReport } from '../../core/status/status-branch.js';
import type { Diagnostic } from '../../core/model/diagnostic.js';
import { readFailoverRecords, type HubFailover } from './hub-failover.js';
import type { FailoverWrites } from './plan-bindings-branch.js';
import { planRolloutStage, type RolloutStage } from './hub-rollout.js';
import { clusterStatusOf, readAgentReports } from './read-status-branches.js';
import { withAcceptedStatus } from './accept-status-heads.js';
import { readPreviousBindings, type HubState } from './read-hub-state.js';
import type { ReadContext } from './read-git-state.js';

export interface PassRenderInput {
  read: ReadContext;
  fleet: Fleet;
  state: HubState;
  sourceCommit: string;
  now: Date;
  failover: HubFailover;
  verdicts: ReadonlyMap<string, ClusterVerdict>;
  progress?: (done: number, total: number) => void;
  /** Told when the recorded state has been read (the pass's read timing ends there). */
  onStateRead?: () => void;
  /** The hub's signer: a cluster branch head it did not sign is not what the cluster has (cluster-base.ts). */
  signer?: CommitSigner;
}

/** What a pass renders, with what it decided on the way. */
export interface PassRender {
  render: RenderResult;
  previous: ReadonlyMap<string, PreviousBinding>;
  reports: ReadonlyMap<string, AgentReport>;
  rollout: RolloutStage | undefined;
  /** With a rollout stage: the render before it held anything (where the change goes in the end). */
  unheld?: RenderResult;
  failoverWrites: FailoverWrites;
  /** Diagnostics of reading the status reports: their signatures, the exported endpoints. */
  exportDiagnostics: Diagnostic[];
}

/** Returns the render a pass makes of the fleet on the recorded state, with its failover and rollout decisions. */
export async function planPassRender(input: PassRenderInput): Promise<PassRender> {
  const { read, fleet, state, now, verdicts } = input;
  const seen = await readRecorded(input);
  const { previous, reports, taints } = seen;
  const failedOver = await renderWithFailover(input, seen);
  const { evictions, decisions } = failedOver;
  let render = failedOver.render;
  // Rollouts: the clusters of later steps keep the selected objects they run (docs/rollout.md).
  // Failover is never held: the replicas it moves, the clusters it places a workload on and the
  // copies it removes follow the render at once (held-objects.ts: schedule, placed, removed).
  const rollout = await planRolloutStage(input.signer ? { ...read, signer: input.signer } : read, {
    now,
    fleet,
    render,
    state,
    reports,
    previous,
    sourceCommit: input.sourceCommit,
  });
  const unheld = render;
  if (rollout) render = { ...render, clusters: rollout.clusters };
  const wakeAt = earliestOf(evictions.wakeAt, rollout?.wakeAt);
  const failoverWrites: FailoverWrites = {
    files: new Map([...taints.files, ...evictions.files]),
    decisions: [...taints.decisions, ...decisions],
    verdicts,
    ...(wakeAt ? { wakeAt } : {}),
  };
  return {
    render,
    ...(rollout ? { unheld } : {}),
    previous,
    reports,
    rollout,
    failoverWrites,
    exportDiagnostics: [...(seen.accepted.statusDiagnostics ?? []), ...seen.exported.diagnostics],
  };
}

type Recorded = Awaited<ReturnType<typeof readRecorded>>;

/** Reads what the branches record (previous bindings, failover records, status reports) and the snapshot they make with the fleet. */
async function readRecorded(input: PassRenderInput) {
  const { read, fleet, state, now, verdicts } = input;
  const previous = await readPreviousBindings(read, state.bindings.current.files);
  const recorded = await readFailoverRecords(read, state.bindings.current.files);
  input.onStateRead?.();
  // Only reports signed by the cluster's own key, when its registration names one: judged when
  // the pass read its state (read-assigned-status.ts), here for a preview that did not.
  const accepted =
    state.statusDiagnostics === undefined ? await withAcceptedStatus(read, fleet, state) : state;
  const reports = await readAgentReports(read, accepted.statusHeads, state.statusReads);
  const clusterStatus = withMonitorVerdicts(clusterStatusOf(reports), verdicts);
  const exported = exportedSlicesByCluster(reports, new Set(fleet.clusters.map((c) => c.name)));
  const taints = planClusterTaints({ now, fleet, clusterStatus, recorded });
  const snapshot: Snapshot = {
    fleet: withClusterScopes(fleet, clusterStatus),
    clusterStatus,
    previous,
    exportedSlices: exported.slices,
    clusterTaints: taints.taints,
  };
  return { previous, recorded, accepted, reports, clusterStatus, exported, taints, snapshot };
}

/** Renders the snapshot, and again when failover evicts or schedules afresh; returns the render and the evictions. */
async function renderWithFailover(input: PassRenderInput, seen: Recorded) {
  const { read, fleet, state, now, failover } = input;
  const { snapshot, previous, clusterStatus, taints, reports, recorded } = seen;
  const renderWith = async (s: Snapshot): Promise<RenderResult> => {
    const memo = read.cache.renderMemo;
    const result = await renderOffLoop(s, {
      ...(memo ? { memo } : {}),
      ahead: true,
      ...(input.progress ? { progress: input.progress } : {}),
    });
    read.cache.renderMemo = result.memo;
    return result;
  };
  let render = await renderWith(snapshot);
  const evictions = planEvictions({
    now,
    settings: failover.settings,
    fleet,
    bindings: render.bindings,
    previous,
    clusterStatus,
    clusterTaints: taints.taints,
    reports,
    clusterHeads: state.clusterHeads,
    recorded,
    memory: failover.memory,
  });
  // An eviction or a fresh schedule changes the previous bindings: render again with them, so
  // the replicas leave the cluster and land elsewhere in this same pass.
  if (evictions.changed) render = await renderWith({ ...snapshot, previous: evictions.previous });
  // An ended task whose cluster this render schedules again keeps its copy there: say so.
  const decisions = settleEndedTasks(evictions.decisions, evictions.ended, render.bindings);
  return { render, evictions, decisions };
}

function earliestOf(a: Date | undefined, b: Date | undefined): Date | undefined {
  if (!a) return b;
  if (!b) return a;
  return a.getTime() <= b.getTime() ? a : b;
}
