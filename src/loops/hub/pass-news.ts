// Whether a pass of the running hub tells a reader anything the pass last reported in full did
// not. A pass that changed nothing since then (no cluster branch written, no decision, the same
// source commit and diagnostics) is reported as one quiet line, so a hub at the default log
// level says nothing while agents push status (docs/production.md#logs); in JSON, a failing or
// up-to-date source is one record until it changes. The CLI prints what this decides.
import { formatLoadError } from '../../core/load/load-error.js';
import { formatDiagnostic } from '../../core/model/diagnostic.js';
import type { HubPassResult } from './hub-pass-result.js';

/** How a pass is reported: in full, as one quiet line (text), or not at all (JSON). */
export type PassNewsVerdict = 'full' | 'quiet' | 'none';

/** What the running hub reported last, and how the next pass is to be reported beside it. */
export class PassNews {
  /** What identifies the last pass reported in full; none at the start of a term. */
  private last: { commit: string; key: string } | undefined;

  /** Returns how to report a pass in the given output, remembering it when it is reported in full. */
  judge(result: HubPassResult, output: 'text' | 'json'): PassNewsVerdict {
    const commit = result.source.commit;
    if (output === 'json') {
      const key = result.type;
      if (key !== 'rendered' && key === this.last?.key && commit === this.last.commit) return 'none';
      this.last = { commit, key };
      return 'full';
    }
    const key = passKey(result);
    if (isQuiet(result, this.last, key)) return 'quiet';
    this.last = { commit, key };
    return 'full';
  }

  /** Forgets the last pass: a new term of leadership reports its first pass in full. */
  forget(): void {
    this.last = undefined;
  }
}

// What makes two passes alike for a reader: the outcome, the source commit, what is unreadable,
// the load errors or the diagnostics (a new warning is news even when no branch moved).
function passKey(result: HubPassResult): string {
  const parts = [
    result.type,
    result.source.commit,
    JSON.stringify(result.statusUnreadable ?? {}),
    JSON.stringify(result.statusRefused ?? {}),
  ];
  if (result.refused) parts.push(`refused ${result.refused.head}`);
  if (result.type === 'rendered') parts.push(...result.diagnostics.map(formatDiagnostic));
  if (result.type === 'loadFailed') parts.push(...result.errors.map(formatLoadError));
  return parts.join('\n');
}

// A pass that tells a reader nothing new: the source printed already rendered (upToDate), the
// same load failure again, or a render like the one printed that wrote no cluster branch and
// decided nothing (its bindings may record new status).
function isQuiet(
  result: HubPassResult,
  last: { commit: string; key: string } | undefined,
  key: string,
): boolean {
  if (last === undefined) return false;
  // A refused head is news once per head (the last verified commit rendered again is not).
  if (result.type === 'upToDate')
    return (
      last.commit === result.source.commit &&
      (key === last.key || (!result.refused && result.statusRefused === undefined))
    );
  if (key !== last.key) return false;
  if (result.type === 'loadFailed' || result.type === 'sourceRefused') return true;
  if ((result.decisions?.length ?? 0) > 0 || (result.rolloutDecisions?.length ?? 0) > 0) return false;
  return Object.values(result.clusters).every((o) => o.type === 'unchanged' || o.type === 'retired');
}
