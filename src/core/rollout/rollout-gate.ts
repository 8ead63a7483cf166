// The gate of a rollout step, for one cluster (docs/rollout.md#a-rollout-step-by-step): a moved
// cluster passes when this pass does not change its branch, its agent applied the branch's head
// (Gitfleet-Applied-Commit), and every selected object there is reported applied and Healthy.
//
// | the cluster                                         | gate                         |
// |-----------------------------------------------------|------------------------------|
// | runs none of the selected objects                   | passes                       |
// | not moved yet                                       | waits                        |
// | its branch changes in this pass (or was refused)    | waits                        |
// | no report, or a report about another commit         | waits                        |
// | a selected object with no status                    | waits                        |
// | a selected object Degraded                          | fails                        |
// | a selected object not applied, Progressing, Unknown | waits                        |
// | every selected object applied and Healthy           | passes                       |
//
// A report naming the branch's head is about the step's apply. Degraded is the agent's verdict on
// the live object as of after that apply: a Deployment's progress deadline that the controller
// counted from before it (a revert after a stall) is Progressing there, so one such sync does not
// fail the step (core/health/deployment-health.ts, docs/rollout.md#the-progress-deadline-of-a-deployment).
import type { RolloutClusterState } from '../model/rollout.js';
import type { AgentReport, ObjectStatusRecord } from '../status/status-branch.js';
import { objectPath } from '../format/object-path.js';
import type { ClusterView } from './rollout-input.js';

/** Why a cluster of a step does not pass its gate (or that it failed it). */
export type Gate = { ok: true } | { ok: false; failed: boolean; reason: string };

/** Returns one cluster's gate (see the table above). */
export function gateOf(
  c: RolloutClusterState,
  seen: {
    view: ClusterView | undefined;
    report: AgentReport | undefined;
    /** The cluster branch's head before this pass. */
    head: string | undefined;
    objects: () => ReadonlyMap<string, ObjectStatusRecord>;
  },
): Gate {
  const { view, report, head } = seen;
  if (!view || view.paths.length === 0) return { ok: true };
  if (c.state !== 'Moved') return { ok: false, failed: false, reason: 'not moved yet' };
  if (view.pending)
    return {
      ok: false,
      failed: false,
      reason:
        'its branch does not run the revision yet (it moves in this pass, or the mass-deletion guard refused it)',
    };
  if (!report) return { ok: false, failed: false, reason: 'no status report from its agent yet' };
  if (report.appliedCommit !== head) {
    const applied = report.appliedCommit ? report.appliedCommit.slice(0, 12) : 'nothing';
    return {
      ok: false,
      failed: false,
      reason: `its agent applied ${applied}, not the branch's head ${head?.slice(0, 12) ?? '(none)'}`,
    };
  }
  const objects = seen.objects();
  for (const path of view.paths) {
    const object = path.replace(/\.yaml$/, '');
    const record = objects.get(path);
    if (!record) return { ok: false, failed: false, reason: `${object}: no status reported` };
    const message = record.healthMessage ?? record.message;
    const said = message ? `: ${message}` : '';
    if (record.health === 'Degraded') return { ok: false, failed: true, reason: `${object} Degraded${said}` };
    if (!record.applied) return { ok: false, failed: false, reason: `${object} not applied${said}` };
    if (record.health !== 'Healthy')
      return { ok: false, failed: false, reason: `${object} ${record.health}${said}` };
  }
  return { ok: true };
}

/** Each cluster of the step says why it does not pass its gate, and nothing once it does. */
export function noteGates(gates: readonly (readonly [RolloutClusterState, Gate])[]): void {
  for (const [c, g] of gates)
    setMessage(c, g.ok ? (c.state === 'Moved' ? undefined : 'waiting to move') : g.reason);
}

export function setMessage(c: RolloutClusterState, message: string | undefined): void {
  if (message) c.message = message;
  else delete c.message;
}

/** Returns a reader of each report's objects by cluster-branch path, built once per cluster. */
export function reportObjectsCache(
  reports: ReadonlyMap<string, AgentReport>,
): (cluster: string) => ReadonlyMap<string, ObjectStatusRecord> {
  const built = new Map<string, Map<string, ObjectStatusRecord>>();
  return (cluster) => {
    let objects = built.get(cluster);
    if (!objects) {
      objects = new Map((reports.get(cluster)?.objects ?? []).map((o) => [objectPath(o.ref), o]));
      built.set(cluster, objects);
    }
    return objects;
  };
}
