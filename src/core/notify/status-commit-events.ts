// The events of one status commit of a cluster's agent (core/apply-plan/status-commit-message.ts):
// a commit whose subject says `N failed at <commit>` lists each failure in its body as
// `Kind/namespace/name: why`. A failure its parent listed already is no new event: a status
// commit is written whenever the report changes, and a failure that lasts is told once.
import { fleetEvent, type FleetEvent } from './fleet-event.js';

/** A status commit as the notifier reads it. */
export interface StatusCommitFacts {
  cluster: string;
  commit: string;
  message: string;
  /** RFC 3339 committer time. */
  time: string;
}

/** Returns the ApplyFailed events of `now`, the status commit after `before` (null: none before). */
export function statusCommitEvents(
  now: StatusCommitFacts,
  before: StatusCommitFacts | null,
  sourceCommit: string,
): FleetEvent[] {
  const known = new Set(before ? failuresOf(before.message) : []);
  return failuresOf(now.message)
    .filter((line) => !known.has(line))
    .map((line, n) => {
      const at = line.indexOf(': ');
      const object = line.slice(0, at);
      const parts = object.split('/');
      return fleetEvent('ApplyFailed', {
        id: `${now.commit}:${n}`,
        time: now.time,
        sourceCommit,
        cluster: now.cluster,
        object,
        ...(parts.length === 3 ? { namespace: parts[1]! } : {}),
        message: `${object} @${now.cluster}: ${line.slice(at + 2)}`,
      });
    });
}

/** Returns the failure lines of a status commit message (none unless its subject says some failed). */
function failuresOf(message: string): string[] {
  const [subject = '', ...body] = message.split('\n');
  if (!/^status \S+: \d+ failed at /.test(subject)) return [];
  return body.filter((l) => /^[A-Za-z][\w.]*\/[^\s:]+(\/[^\s:]+)?: \S/.test(l));
}
