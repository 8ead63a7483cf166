// What the commit status is computed from (deploy-status.ts), taken from the fleet status the
// status views read (core/status/fleet-status-data.ts): the source commit the bindings head was
// rendered from, the clusters its bindings place anything on, each one's report and rendered
// head, the hub's refusals and the rollout records. One cluster, first match wins:
//
// | the cluster                                                        | state       |
// |--------------------------------------------------------------------|-------------|
// | the hub's mass-deletion guard refused its render                   | Failed      |
// | an active rollout (Progressing, WaitingApproval) holds it          | Held        |
// | its agent has not reported                                         | Progressing |
// | its status head reports on the rendered head and says ApplyFailed  | Failed      |
// | its applied commit is not the rendered head                        | Progressing |
// | an object there is Degraded                                        | Degraded    |
// | an object there is not applied, Progressing or Unknown             | Progressing |
// | otherwise                                                          | Healthy     |
import { strategyLabel } from '../model/rollout.js';
import type { FleetStatusData } from '../status/fleet-status-data.js';
import { summarizeClusters, type ClusterSummary } from '../status/fleet-summary.js';
import type { AgentReport } from '../status/status-branch.js';
import type { DeployClusterState, DeployStatusInput, StoppedRollout } from './deploy-status.js';

/** Returns the commit status's input, or undefined when the bindings head names no source commit. */
export function deployStatusInputOf(data: FleetStatusData, now: Date): DeployStatusInput | undefined {
  if (data.sourceCommit === undefined) return undefined;
  const placed = new Set<string>();
  for (const b of data.bindings) for (const c of b.clusters) placed.add(c.name);
  const summaries = new Map(summarizeClusters(data, now).map((s) => [s.cluster, s]));
  const refused = new Map((data.hubRefusals ?? []).map((r) => [r.cluster, r.message]));
  const held = heldClusters(data);
  const clusters = [...placed].sort().map((name) => ({
    name,
    state: clusterState(data, name, { summary: summaries.get(name), refused, held }),
  }));
  return { sourceCommit: data.sourceCommit, clusters, stopped: stoppedRollouts(data) };
}

function clusterState(
  data: FleetStatusData,
  name: string,
  at: {
    summary: ClusterSummary | undefined;
    refused: ReadonlyMap<string, string>;
    held: ReadonlyMap<string, string>;
  },
): DeployClusterState {
  const refusal = at.refused.get(name);
  if (refusal !== undefined) return { type: 'Failed', why: `render refused by the hub's guard: ${refusal}` };
  const by = at.held.get(name);
  if (by !== undefined) return { type: 'Held', by };
  const report = data.reports.get(name);
  if (!report) return { type: 'Progressing', why: 'not reported' };
  const rendered = data.renderedHeads.get(name);
  if (report.appliedCommit !== rendered) {
    const failed = applyFailure(report);
    if (failed !== undefined && rendered !== undefined && data.reportedOn?.get(name) === rendered)
      return { type: 'Failed', why: failed };
    return { type: 'Progressing', why: 'applying' };
  }
  const objects = at.summary?.objects;
  if (!objects) return { type: 'Progressing', why: 'applying' };
  if (objects.degraded > 0) return { type: 'Degraded', why: `${objects.degraded} object(s) Degraded` };
  const waiting = objects.failed + objects.progressing + objects.unknown;
  if (waiting > 0) return { type: 'Progressing', why: `${waiting} object(s) not Healthy yet` };
  return { type: 'Healthy' };
}

/** Returns the message of the report's Applied condition when it says the apply failed. */
function applyFailure(report: AgentReport): string | undefined {
  const applied = report.conditions?.find((c) => c.type === 'Applied');
  if (applied?.status !== 'False' || applied.reason !== 'ApplyFailed') return undefined;
  return applied.message ?? 'the apply failed';
}

/** Returns cluster → `rollout <strategy> (step k/n)` for the clusters an active rollout holds. */
function heldClusters(data: FleetStatusData): Map<string, string> {
  const held = new Map<string, string>();
  for (const view of data.rollouts) {
    if (!('rollout' in view)) continue;
    const r = view.rollout;
    if (r.phase !== 'Progressing' && r.phase !== 'WaitingApproval') continue;
    const waits = r.phase === 'WaitingApproval' ? ', waiting for approval' : '';
    const by = `rollout ${strategyLabel(r.strategy)} (step ${r.step}/${r.steps}${waits})`;
    for (const c of r.clusters) if (c.state === 'Held' && !held.has(c.name)) held.set(c.name, by);
  }
  return held;
}

function stoppedRollouts(data: FleetStatusData): StoppedRollout[] {
  const stopped: StoppedRollout[] = [];
  for (const view of data.rollouts) {
    if (!('rollout' in view)) continue;
    const r = view.rollout;
    if (r.phase !== 'Halted' && r.phase !== 'RolledBack') continue;
    stopped.push({
      strategy: strategyLabel(r.strategy),
      phase: r.phase,
      step: r.step,
      steps: r.steps,
      ...(r.message !== undefined ? { message: r.message } : {}),
    });
  }
  return stopped;
}
