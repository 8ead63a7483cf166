// The events of one status commit of a cluster's agent (core/apply-plan/status-commit-message.ts):
//
// | body line                                        | event          | told                        |
// |--------------------------------------------------|----------------|-----------------------------|
// | `<path>: why` under a subject `N failed at …`    | ApplyFailed    | when the parent did not list it: a failure that lasts is told once |
// | `drift reverted: <object> (…)`                   | DriftReverted  | always: each line is the corrections since the last commit |
// | `drift reverted: N more objects [in ns] (M corrections)` | DriftReverted | always, with no object, `coalesced: M` |
// | `drift correction paused: <object>`              | DriftPaused    | when the parent did not list it |
//
// A failure names its object by its cluster-branch path (`shop/Deployment.apps/web`,
// `_cluster/Namespace/shop`); the event names it as `Deployment/shop/web`. A DriftReverted line
// that sums several corrections gives one event with `coalesced` counting them, so the
// coalescing of a flood (coalesce-events.ts) counts corrections, not lines. Ids are
// `<commit>:<n>`, n counting the commit's events in the order of the table.
import { parseDriftLine, type DriftLine } from '../apply-plan/drift-report-lines.js';
import { fleetEvent, type FleetEvent } from './fleet-event.js';
import { objectOfPath } from './object-of-path.js';

/** A status commit as the notifier reads it. */
export interface StatusCommitFacts {
  cluster: string;
  commit: string;
  message: string;
  /** RFC 3339 committer time. */
  time: string;
}

type Draft = Omit<FleetEvent, 'id' | 'time' | 'sourceCommit' | 'cluster' | 'severity'>;

/** Returns the ApplyFailed, DriftReverted and DriftPaused events of `now`, the status commit after `before` (null: none before). */
export function statusCommitEvents(
  now: StatusCommitFacts,
  before: StatusCommitFacts | null,
  sourceCommit: string,
): FleetEvent[] {
  const known = new Set(before ? failuresOf(before.message) : []);
  const failures = failuresOf(now.message).filter((line) => !known.has(line));
  const drift = driftLinesOf(now.message);
  const pausedBefore = new Set(before ? pausedOf(driftLinesOf(before.message)) : []);
  const drafts: Draft[] = [
    ...failures.map((line) => failureDraft(line, now.cluster)),
    ...drift.flatMap((line) => (line.type === 'paused' ? [] : [revertedDraft(line, now.cluster)])),
    ...pausedOf(drift)
      .filter((object) => !pausedBefore.has(object))
      .map((object) => pausedDraft(object, now.cluster)),
  ];
  return drafts.map((d, n) =>
    fleetEvent(d.event, {
      ...d,
      id: `${now.commit}:${n}`,
      time: now.time,
      sourceCommit,
      cluster: now.cluster,
    }),
  );
}

/** Returns the failure lines of a status commit message (none unless its subject says some failed). */
function failuresOf(message: string): string[] {
  const [subject = '', ...body] = message.split('\n');
  if (!/^status \S+: \d+ failed at /.test(subject)) return [];
  return body.filter((l) => /^[A-Za-z_][\w.-]*\/[^\s:]+(\/[^\s:]+)?: \S/.test(l));
}

function driftLinesOf(message: string): DriftLine[] {
  return message
    .split('\n')
    .slice(1)
    .map(parseDriftLine)
    .filter((l): l is DriftLine => l !== undefined);
}

function pausedOf(lines: readonly DriftLine[]): string[] {
  return lines.flatMap((l) => (l.type === 'paused' ? [l.object] : []));
}

function failureDraft(line: string, cluster: string): Draft {
  const at = line.indexOf(': ');
  const named = objectOfPath(line.slice(0, at));
  return {
    event: 'ApplyFailed',
    object: named.object,
    ...(named.namespace ? { namespace: named.namespace } : {}),
    message: `${named.object} @${cluster}: ${line.slice(at + 2)}`,
  };
}

function revertedDraft(line: Exclude<DriftLine, { type: 'paused' }>, cluster: string): Draft {
  if (line.type === 'more') {
    const where = line.namespace === undefined ? '' : ` in ${line.namespace}`;
    return {
      event: 'DriftReverted',
      ...(line.namespace === undefined ? {} : { namespace: line.namespace }),
      coalesced: line.count,
      message: `${line.objects} more objects${where} @${cluster}: changed by hand, put back (${line.count} corrections)`,
    };
  }
  const namespace = namespaceOf(line.object);
  return {
    event: 'DriftReverted',
    object: line.object,
    ...(namespace ? { namespace } : {}),
    ...(line.count > 1 ? { coalesced: line.count } : {}),
    message: `${line.object} @${cluster}: changed by hand, put back (${line.detail})`,
  };
}

function pausedDraft(object: string, cluster: string): Draft {
  const namespace = namespaceOf(object);
  return {
    event: 'DriftPaused',
    object,
    ...(namespace ? { namespace } : {}),
    message: `${object} @${cluster}: drift correction paused: something else keeps changing it back`,
  };
}

/** The namespace of `Kind/namespace/name` (none for `Kind/name`). */
function namespaceOf(object: string): string | undefined {
  const parts = object.split('/');
  return parts.length === 3 ? parts[1] : undefined;
}
