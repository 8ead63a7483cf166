// Messages of the agent's status commits. The trailer names the cluster-branch commit the
// cluster runs in full; a commit that did not fully apply carries no trailer and lists what
// failed instead (each object by its cluster-branch path), so `git log --grep` on the trailer
// finds exactly the complete applies:
//
//   status member1: applied 1a2b3c4          status member1: 2 failed at 1a2b3c4 (40 objects)
//
//   Gitfleet-Applied-Commit: 1a2b3c4d…       shop/Deployment.apps/web: 422 …: spec.selector: …
//                                            shop/ConfigMap/x: 403 Forbidden: …
//
// After the failures come the drift lines (drift-report-lines.ts): the corrections since the
// last status commit, summed per object, and the objects whose correction is paused; field
// paths only, never a value.
import { appliedCommitTrailer } from '../status/status-branch.js';
import { driftReportLines, type DriftNote } from './drift-report-lines.js';

export interface StatusCommitInput {
  cluster: string;
  /** The cluster-branch commit the pass worked on; null when the branch does not exist. */
  commit: string | null;
  /** Every object of the commit applied and nothing failed. */
  fullyApplied: boolean;
  tombstoned: boolean;
  /** Set when the head is not signed by a trusted key: the verdict in words (nothing was applied). */
  unverified?: string;
  objects: number;
  /** `Kind/namespace/name: message` of each failure (applies and deletions). */
  failures: readonly string[];
  /** Set when the cluster did not answer: why (the body's first line). */
  clusterUnreachable?: string;
  /** Other lines for the body (prune summary, Git outage). */
  notes: readonly string[];
  /** The drift corrections since the last status commit, per object. */
  drift?: readonly DriftNote[];
  /** `Kind/namespace/name` of the objects whose drift correction is paused (a fight backed off). */
  driftPaused?: readonly string[];
  /** Lists longer than this are cut with a count. */
  maxListed?: number;
}

/** Returns the message of a status commit: subject, body and, for a full apply, the applied-commit trailer. */
export function statusCommitMessage(input: StatusCommitInput): string {
  const short = input.commit?.slice(0, 7) ?? 'no branch';
  const max = input.maxListed ?? 50;
  const failures = input.failures.slice(0, max);
  if (input.failures.length > max) failures.push(`… and ${input.failures.length - max} more`);
  const subject = input.tombstoned
    ? `status ${input.cluster}: branch tombstoned at ${short}; applying stopped, nothing deleted`
    : input.unverified !== undefined
      ? `status ${input.cluster}: refused ${short}: not signed by a trusted key; nothing applied, nothing deleted`
      : input.clusterUnreachable !== undefined
        ? `status ${input.cluster}: the cluster does not answer at ${short}; reported NotReady`
        : input.fullyApplied && input.commit !== null
          ? `status ${input.cluster}: applied ${short}`
          : `status ${input.cluster}: ${input.failures.length} failed at ${short} (${input.objects} objects)`;
  const lines = [subject];
  const body = [
    ...(input.unverified !== undefined ? [input.unverified] : []),
    ...(input.clusterUnreachable ? [input.clusterUnreachable] : []),
    ...input.notes,
    ...failures,
    ...driftReportLines(input.drift ?? [], input.driftPaused ?? [], max),
  ];
  if (body.length > 0) lines.push('', ...body);
  if (input.fullyApplied && input.commit !== null && !input.tombstoned) {
    lines.push('', `${appliedCommitTrailer}: ${input.commit}`);
  }
  return `${lines.join('\n')}\n`;
}
