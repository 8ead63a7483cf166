// The events of one bindings commit (docs/notifications.md#where-events-come-from), from what the
// hub wrote in it and in its parent: decisions are trailers of the pass that made them, and the
// state a commit records again at every pass while it lasts (a refused deletion, a refused source
// head, the monitor's verdicts) gives an event only where it differs from the parent's.
//
// | trailer (core/failover/failover-trailers.ts, …)     | event                                   |
// |------------------------------------------------------|-----------------------------------------|
// | Gitfleet-Source-Refused, new value                   | SourceRefused                           |
// | Gitfleet-Deletion-Refused, new `<cluster>: …`        | DeletionRefused                         |
// | Gitfleet-Cluster-Judged `c=Unknown`, new             | ClusterNotReady                         |
// | Gitfleet-Cluster-Judged `c=…`, gone                  | ClusterReady                            |
// | Gitfleet-Taint `c +taint: why` / `c -taint: why`     | ClusterTainted / ClusterUntainted       |
// | Gitfleet-Eviction `ns/Kind.group/name from c: why`   | ObjectEvicted                           |
// | the rollout records (rollout-record-events.ts)       | Rollout*                                |
//
// Each event's id is `<bindings commit>:<n>`, n counting the commit's events in this order: the
// same commit always gives the same events with the same ids.
import { parseTrailers, sourceCommitTrailer } from '../publish/commit-trailers.js';
import { deletionRefusedTrailer, parseRefusalTrailers } from '../publish/refusal-trailers.js';
import { clusterJudgedTrailer } from '../failover/failover-trailers.js';
import { sourceRefusedTrailer } from '../model/source-verification.js';
import type { RolloutState } from '../model/rollout.js';
import { fleetEvent, type FleetEvent, type FleetEventType } from './fleet-event.js';
import { rolloutRecordEvents } from './rollout-record-events.js';
import { objectOfPath } from './object-of-path.js';

/** A bindings commit as the notifier reads it. */
export interface BindingsCommitFacts {
  commit: string;
  message: string;
  /** RFC 3339 committer time. */
  time: string;
  /** The rollout records of its tree, by strategy label. */
  rollouts: ReadonlyMap<string, RolloutState>;
}

type Draft = Omit<FleetEvent, 'id' | 'time' | 'sourceCommit' | 'severity' | 'event'> & {
  type: FleetEventType;
};

/** Returns the events of `now`, the bindings commit after `before` (null: the branch's first commit). */
export function bindingsCommitEvents(
  now: BindingsCommitFacts,
  before: BindingsCommitFacts | null,
): FleetEvent[] {
  const trailers = parseTrailers(now.message);
  const was = before ? parseTrailers(before.message) : new Map<string, string[]>();
  const drafts: Draft[] = [
    ...newValues(trailers, was, sourceRefusedTrailer).map((v) => ({
      type: 'SourceRefused' as const,
      message: `source head ${v}`,
    })),
    ...refusals(trailers, was),
    ...judged(trailers, was),
    ...(trailers.get('Gitfleet-Taint') ?? []).flatMap(taintDraft),
    ...(trailers.get('Gitfleet-Eviction') ?? []).map(evictionDraft),
    ...rolloutRecordEvents(before?.rollouts ?? new Map(), now.rollouts),
  ];
  const sourceCommit = trailers.get(sourceCommitTrailer)?.[0] ?? '';
  return drafts.map(({ type, ...d }, n) =>
    fleetEvent(type, { ...d, id: `${now.commit}:${n}`, time: now.time, sourceCommit }),
  );
}

function newValues(now: Map<string, string[]>, was: Map<string, string[]>, key: string): string[] {
  const before = new Set(was.get(key) ?? []);
  return (now.get(key) ?? []).filter((v) => !before.has(v));
}

function refusals(now: Map<string, string[]>, was: Map<string, string[]>): Draft[] {
  return parseRefusalTrailers(newValues(now, was, deletionRefusedTrailer)).map((r) => ({
    type: 'DeletionRefused',
    cluster: r.cluster,
    message: `${r.cluster}: ${r.message}`,
  }));
}

function judged(now: Map<string, string[]>, was: Map<string, string[]>): Draft[] {
  const verdicts = (m: Map<string, string[]>): Map<string, string> =>
    new Map((m.get(clusterJudgedTrailer) ?? []).map((v) => [v.split('=')[0]!, v.split('=')[1] ?? '']));
  const after = verdicts(now);
  const before = verdicts(was);
  const out: Draft[] = [];
  for (const [cluster, status] of [...after].sort()) {
    if (before.get(cluster) === status) continue;
    out.push({
      type: 'ClusterNotReady',
      cluster,
      message: `${cluster}: Ready is ${status}: its agent stopped reporting`,
    });
  }
  for (const cluster of [...before.keys()].sort())
    if (!after.has(cluster))
      out.push({ type: 'ClusterReady', cluster, message: `${cluster}: its agent reports again` });
  return out;
}

// `member2 +cluster.karmada.io/unreachable:NoExecute: why`
function taintDraft(value: string): Draft[] {
  const m = /^(\S+) ([+-])(\S+?): (.*)$/.exec(value);
  if (!m) return [];
  const [, cluster, sign, taint, why] = m;
  return [
    {
      type: sign === '+' ? 'ClusterTainted' : 'ClusterUntainted',
      cluster: cluster!,
      message: `${cluster} ${sign === '+' ? 'tainted' : 'untainted'} ${taint}: ${why}`,
    },
  ];
}

// `shop/Deployment.apps/web from member2: why` (the object's cluster-branch path, failover-trailers.ts).
function evictionDraft(value: string): Draft {
  const m = /^(\S+) from ([^:\s]+): /.exec(value);
  if (!m) return { type: 'ObjectEvicted', message: value };
  const named = objectOfPath(m[1]!);
  return {
    type: 'ObjectEvicted',
    cluster: m[2]!,
    object: named.object,
    ...(named.namespace ? { namespace: named.namespace } : {}),
    message: value,
  };
}
