// Karmada's WorkloadRebalancer controller (pkg/controllers/workloadrebalancer/
// workloadrebalancer_controller.go): a rebalancer in the fleet repo asks for a fresh schedule
// of the workloads it lists, once. Its status is recorded on the bindings branch at
// `.gitfleet/failover/rebalancers/<name>.yaml` (the fleet repo is the user's: the hub writes
// nothing there), in Karmada's shape:
//
//   metadata.creationTimestamp   when the hub first saw the rebalancer (a repo object has no
//                                creation time; this is the time every trigger of it carries)
//   status.observedWorkloads     one per workload: result Successful, or Failed with reason
//                                ReferencedBindingNotFound; none yet while undecided
//   status.finishTime            when the status last changed
//   gitfleet.io/expired: "true"  ttlSecondsAfterFinished ran out (annotation)
//
// Each pass, as Karmada's reconcile of a new or changed spec (it is a no-op when nothing changed):
//
// | step          | rule                                                                      |
// |---------------|---------------------------------------------------------------------------|
// | sync          | entries still in the spec keep their result; dropped ones stay only if Successful; new ones are added with no result; sorted by "apiVersion kind namespace name" |
// | each undecided | binding name from kind and name (the apiVersion is not used) in the workload's namespace (none: cluster-scoped); not found → Failed; found → its rescheduleTriggeredAt set to the first-seen time unless it is that late already → Successful |
// | finishTime    | now, when the status changed                                              |
// | TTL           | finishTime + ttl reached: recorded as expired and ignored from then on (Karmada deletes the object; the hub cannot delete a file of the user's repo); before that, the pass wakes at that time |
//
// So editing a rebalancer in Git does not reset it: workloads already decided keep their
// result and new ones are asked for at the same first-seen time, as Karmada's controller does
// with the object's unchanged creationTimestamp. To ask again, remove the rebalancer and add
// one (or add one under another name): a rebalancer whose file is gone loses its record.
import type { Binding, PreviousBinding } from '../model/binding.js';
import type { FailoverDecision, WorkloadRebalancer } from '../model/failover.js';
import { isMap } from '../model/kube-object.js';
import { formatTime, parseTime } from '../model/rfc3339.js';
import { emitYaml } from '../format/emit-yaml.js';
import { bindingName } from '../format/object-path.js';
import yaml from 'js-yaml';
import { failoverDir, type EvictionInput } from './failover-input.js';
import { earliestAfter } from './wake-time.js';

/** The directory of the rebalancers' status records on the bindings branch. */
export const rebalancersDir = `${failoverDir}rebalancers/`;

const expiredAnnotation = 'gitfleet.io/expired';

type WorkloadRef = WorkloadRebalancer['workloads'][number];

/** One status.observedWorkloads entry. */
export interface ObservedWorkload {
  workload: WorkloadRef;
  result?: 'Successful' | 'Failed';
  reason?: 'ReferencedBindingNotFound';
}

/** A rebalancer's record, as read back. */
export interface RebalancerRecord {
  name: string;
  /** RFC 3339: when the hub first saw it. */
  firstSeen: string;
  observedWorkloads: ObservedWorkload[];
  finishTime?: string;
  expired: boolean;
}

/** Returns the previous bindings with the fresh reschedules rebalancers ask for, and their records. */
export function planRebalancers(input: EvictionInput): {
  previous: Map<string, PreviousBinding>;
  changed: boolean;
  files: Map<string, string>;
  decisions: FailoverDecision[];
  wakeAt?: Date;
} {
  const nowMs = input.now.getTime();
  const now = formatTime(nowMs);
  const pass: RebalancePass = {
    previous: new Map(input.previous),
    bindings: bindingsByName(input.bindings),
    decisions: [],
    changed: false,
  };
  const files = new Map<string, string>();
  const wakes: number[] = [];
  for (const rebalancer of input.fleet.workloadRebalancers ?? []) {
    const path = `${rebalancersDir}${rebalancer.name}.yaml`;
    const text = input.recorded.get(path);
    const before = text === undefined ? undefined : parseRebalancerRecord(text);
    if (before?.expired) {
      files.set(path, text!);
      continue;
    }
    const firstSeen = before?.firstSeen ?? now;
    const observed = syncWorkloads(rebalancer.workloads, before?.observedWorkloads ?? []);
    for (const entry of observed)
      if (!entry.result) triggerReschedule(pass, rebalancer.name, firstSeen, entry);
    const statusChanged = !before || JSON.stringify(before.observedWorkloads) !== JSON.stringify(observed);
    const finishTime = statusChanged ? now : before.finishTime;
    const record: RebalancerRecord = {
      name: rebalancer.name,
      firstSeen,
      observedWorkloads: observed,
      ...(finishTime !== undefined ? { finishTime } : {}),
      expired: false,
    };
    const ttl = rebalancer.ttlSecondsAfterFinished;
    const finished = finishTime === undefined ? undefined : parseTime(finishTime);
    if (ttl !== undefined && finished !== undefined) {
      const expiresAt = finished + ttl * 1000;
      if (expiresAt <= nowMs) record.expired = true;
      else wakes.push(expiresAt);
    }
    files.set(path, rebalancerRecordText(record));
  }
  const wakeAt = earliestAfter(nowMs, wakes);
  const { previous, changed, decisions } = pass;
  return { previous, changed, files, decisions, ...(wakeAt ? { wakeAt } : {}) };
}

interface RebalancePass {
  previous: Map<string, PreviousBinding>;
  bindings: Map<string, Binding>;
  decisions: FailoverDecision[];
  changed: boolean;
}

/** Settles one workload of a rebalancer: its binding asks for a fresh schedule unless it already did. */
function triggerReschedule(
  pass: RebalancePass,
  rebalancer: string,
  firstSeen: string,
  entry: ObservedWorkload,
): void {
  const binding = pass.bindings.get(
    nameKey(entry.workload.namespace ?? '', bindingName(refOf(entry.workload))),
  );
  if (!binding) {
    entry.result = 'Failed';
    entry.reason = 'ReferencedBindingNotFound';
    return;
  }
  entry.result = 'Successful';
  const prior = pass.previous.get(binding.key);
  if (!prior || !needsTrigger(firstSeen, prior.rescheduleTriggeredAt)) return;
  pass.previous.set(binding.key, { ...prior, rescheduleTriggeredAt: firstSeen });
  pass.changed = true;
  pass.decisions.push({
    type: 'Rebalanced',
    binding: binding.key,
    reason: 'RescheduleTriggered',
    message: `${rebalancer}: ${binding.key}: a fresh schedule asked for at ${firstSeen} (WorkloadRebalancer/${rebalancer})`,
    policy: `WorkloadRebalancer/${rebalancer}`,
  });
}

// Karmada's needTriggerReschedule: never asked, or asked before this rebalancer was created.
function needsTrigger(firstSeen: string, triggeredAt: string | undefined): boolean {
  if (triggeredAt === undefined) return true;
  const asked = parseTime(triggeredAt);
  const seen = parseTime(firstSeen);
  return asked === undefined || (seen !== undefined && seen > asked);
}

// Karmada's syncWorkloadsFromSpecToStatus.
function syncWorkloads(
  spec: readonly WorkloadRef[],
  status: readonly ObservedWorkload[],
): ObservedWorkload[] {
  const wanted = new Map(spec.map((w) => [workloadKey(w), w]));
  const out: ObservedWorkload[] = [];
  for (const item of status) {
    const key = workloadKey(item.workload);
    if (wanted.has(key)) {
      out.push({ ...item });
      wanted.delete(key);
    } else if (item.result === 'Successful') out.push({ ...item });
  }
  for (const workload of wanted.values()) out.push({ workload });
  return out.sort((a, b) => (workloadKey(a.workload) < workloadKey(b.workload) ? -1 : 1));
}

function workloadKey(w: WorkloadRef): string {
  return `${w.apiVersion} ${w.kind} ${w.namespace ?? ''} ${w.name}`;
}

function refOf(w: WorkloadRef) {
  return { apiVersion: w.apiVersion, kind: w.kind, namespace: w.namespace ?? '', name: w.name };
}

function nameKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

function bindingsByName(bindings: readonly Binding[]): Map<string, Binding> {
  const byName = new Map<string, Binding>();
  for (const b of bindings) {
    const key = nameKey(b.resource.namespace, b.name);
    if (!byName.has(key) || b.policy) byName.set(key, b);
  }
  return byName;
}

/** Returns the record's text (canonical YAML). */
export function rebalancerRecordText(record: RebalancerRecord): string {
  return emitYaml({
    apiVersion: 'apps.karmada.io/v1alpha1',
    kind: 'WorkloadRebalancer',
    metadata: {
      name: record.name,
      creationTimestamp: record.firstSeen,
      ...(record.expired ? { annotations: { [expiredAnnotation]: 'true' } } : {}),
    },
    status: {
      observedWorkloads: record.observedWorkloads.map((o) => ({
        workload: {
          apiVersion: o.workload.apiVersion,
          kind: o.workload.kind,
          ...(o.workload.namespace ? { namespace: o.workload.namespace } : {}),
          name: o.workload.name,
        },
        ...(o.result ? { result: o.result } : {}),
        ...(o.reason ? { reason: o.reason } : {}),
      })),
      ...(record.finishTime !== undefined ? { finishTime: record.finishTime } : {}),
    },
  });
}

/** Returns a record read back, or undefined when the text is not one (then the rebalancer counts as new). */
export function parseRebalancerRecord(text: string): RebalancerRecord | undefined {
  let doc: unknown;
  try {
    doc = yaml.load(text, { schema: yaml.CORE_SCHEMA });
  } catch {
    return undefined;
  }
  if (!isMap(doc) || !isMap(doc.metadata) || typeof doc.metadata.name !== 'string') return undefined;
  const firstSeen = doc.metadata.creationTimestamp;
  if (typeof firstSeen !== 'string' || parseTime(firstSeen) === undefined) return undefined;
  const status = isMap(doc.status) ? doc.status : {};
  const annotations = isMap(doc.metadata.annotations) ? doc.metadata.annotations : {};
  const observed = Array.isArray(status.observedWorkloads) ? status.observedWorkloads : [];
  const observedWorkloads = observed.filter(isMap).flatMap((item): ObservedWorkload[] => {
    const w = item.workload;
    if (
      !isMap(w) ||
      typeof w.apiVersion !== 'string' ||
      typeof w.kind !== 'string' ||
      typeof w.name !== 'string'
    )
      return [];
    const workload: WorkloadRef = {
      apiVersion: w.apiVersion,
      kind: w.kind,
      name: w.name,
      ...(typeof w.namespace === 'string' && w.namespace ? { namespace: w.namespace } : {}),
    };
    const result = item.result === 'Successful' || item.result === 'Failed' ? item.result : undefined;
    const reason = item.reason === 'ReferencedBindingNotFound' ? item.reason : undefined;
    return [{ workload, ...(result ? { result } : {}), ...(reason ? { reason } : {}) }];
  });
  return {
    name: doc.metadata.name,
    firstSeen,
    observedWorkloads,
    ...(typeof status.finishTime === 'string' ? { finishTime: status.finishTime } : {}),
    expired: annotations[expiredAnnotation] === 'true',
  };
}
