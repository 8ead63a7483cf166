import type { Binding } from '../model/binding.js';
import { refKey, refLabel } from '../model/object-ref.js';
import type {
  AggregatedStatusItem,
  BindingStatus,
  FullyAppliedCondition,
} from '../publish/binding-status.js';
import type { AgentReport, ObjectStatusRecord } from './status-branch.js';

export interface AggregateInput {
  /** The binding; its target clusters are the scheduled ones (none when it did not fit). */
  binding: Pick<Binding, 'resource' | 'schedule' | 'checkOnly'>;
  /** Each cluster's agent report, by cluster name; a cluster without one has reported nothing yet. */
  reports: ReadonlyMap<string, AgentReport>;
  /**
   * The head of each cluster branch, when known. A report whose appliedCommit differs is about
   * an older rendering, so the object is "not yet applied" there. This compares whole-branch
   * commits: a render that changed only other objects makes every object of that cluster wait
   * for the agent's next status commit, which is the conservative reading.
   */
  renderedCommitOf?: (cluster: string) => string | undefined;
  /**
   * Finds a cluster's record of an object by refKey, for callers that index the reports (a
   * status view over thousands of templates); without it the report's objects are searched.
   */
  recordOf?: (cluster: string, key: string) => ObjectStatusRecord | undefined;
}

/**
 * Returns a binding's aggregated status and FullyApplied condition from the agents' reports,
 * as Karmada's binding status controller does from Work statuses.
 *
 * Per target cluster (`assembleWorkStatus`, Karmada `pkg/util/helper/workstatus.go`):
 *
 * | the cluster's report                                  | applied | health   | message                  |
 * |-------------------------------------------------------|---------|----------|--------------------------|
 * | none                                                  | false   | Unknown  | no status reported yet   |
 * | applied another commit than the branch head           | false   | Unknown  | not yet applied: cluster at …, rendered … |
 * | without the object                                    | false   | Unknown  | not in the cluster's status |
 * | with the object, not applied                          | false   | Unknown  | the agent's error        |
 * | with the object, applied                              | true    | reported | (status: reflected fields) |
 *
 * sorted by cluster name. FullyApplied (`worksFullyApplied`, same file) is True iff there is at
 * least one target cluster and every target cluster has an applied status. A binding kept for the
 * check only (Binding.checkOnly) is never applied: each target says `checkedAtRender`, whatever
 * the agents report, and FullyApplied is False with a message saying so.
 */
export function aggregateBindingStatus(input: AggregateInput): BindingStatus {
  const { binding } = input;
  const scheduled = binding.schedule.type === 'Scheduled' ? binding.schedule.clusters : [];
  const targets = [...new Set(scheduled.map((c) => c.name))].sort();
  if (binding.checkOnly) return checkedAtRender(targets);
  const key = refKey(binding.resource);
  const aggregatedStatus = targets.map((cluster) => statusIn(cluster, input, key));
  return { aggregatedStatus, fullyApplied: fullyAppliedCondition(targets.length, aggregatedStatus) };
}

function statusIn(cluster: string, input: AggregateInput, key: string): AggregatedStatusItem {
  const report = input.reports.get(cluster);
  if (!report) return notApplied(cluster, `cluster ${cluster} has reported no status yet`);
  const rendered = input.renderedCommitOf?.(cluster);
  if (rendered !== undefined && report.appliedCommit !== rendered) {
    const at = report.appliedCommit ? report.appliedCommit.slice(0, 7) : 'none';
    return notApplied(cluster, `not yet applied: cluster at ${at}, rendered ${rendered.slice(0, 7)}`);
  }
  const record = input.recordOf
    ? input.recordOf(cluster, key)
    : report.objects.find((o) => refKey(o.ref) === key);
  if (!record) {
    return notApplied(
      cluster,
      `${refLabel(input.binding.resource)} is not in the status of cluster ${cluster}`,
    );
  }
  return fromRecord(cluster, record);
}

function fromRecord(cluster: string, record: ObjectStatusRecord): AggregatedStatusItem {
  if (!record.applied) return notApplied(cluster, record.message ?? 'not applied');
  return {
    clusterName: cluster,
    applied: true,
    health: record.health,
    ...(record.health !== 'Healthy' && record.healthMessage ? { healthMessage: record.healthMessage } : {}),
    ...(record.status ? { status: record.status } : {}),
  };
}

function notApplied(cluster: string, message: string): AggregatedStatusItem {
  return { clusterName: cluster, applied: false, appliedMessage: message, health: 'Unknown' };
}

/** The message of a check-only binding's clusters (its items and FullyApplied condition). */
export const checkedAtRenderMessage =
  'kept for the check only (gitfleet.io/admission: check-only): checked against the render, never applied on the cluster';

function checkedAtRender(targets: readonly string[]): BindingStatus {
  return {
    aggregatedStatus: targets.map((clusterName) => ({
      clusterName,
      applied: false,
      appliedMessage: checkedAtRenderMessage,
      health: 'Unknown',
      checkedAtRender: true,
    })),
    fullyApplied: { status: 'False', reason: 'FullyAppliedFailed', message: checkedAtRenderMessage },
  };
}

function fullyAppliedCondition(targets: number, statuses: AggregatedStatusItem[]): FullyAppliedCondition {
  const fully = targets > 0 && statuses.length === targets && statuses.every((s) => s.applied);
  return fully
    ? { status: 'True', reason: 'FullyAppliedSuccess', message: 'All works have been successfully applied' }
    : {
        status: 'False',
        reason: 'FullyAppliedFailed',
        message: 'Failed to apply all works, see status.aggregatedStatus for details',
      };
}
