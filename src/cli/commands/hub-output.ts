// What `gitfleet hub` prints about a pass: the JSON record, or a few lines of text. The loop
// prints each pass's text as a log record (stamped, levelled: observability.ts); a pass that
// changed nothing since the one printed before (no cluster branch written, no decision, the
// same source commit and diagnostics) is one short line at debug level, so a hub at the default
// level says nothing while agents push status (docs/production.md#logs).
import { formatLoadError } from '../../core/load/load-error.js';
import { formatDiagnostic } from '../../core/model/diagnostic.js';
import type { ClusterPassOutcome, HubPassResult } from '../../loops/hub/hub-pass-result.js';
import type { LogLevel } from '../../loops/runtime/logger.js';
import type { Io } from '../io.js';

/** A pass's text: what goes on stdout, and what on stderr (a failure, status that does not read). */
export interface PassText {
  out?: string;
  err?: string;
}

/** Prints a pass's result; in JSON, one line per pass when the loop runs (a stream of records). */
export function printResult(result: HubPassResult, output: 'text' | 'json', io: Io, oneLine = false): void {
  if (output === 'json') return io.out(JSON.stringify(result, null, oneLine ? undefined : 2));
  const text = formatResult(result);
  if (text.out !== undefined) io.out(text.out);
  if (text.err !== undefined) io.err(text.err);
}

/** Returns a pass's text: the render table, `rendered already`, or why the source does not load. */
export function formatResult(result: HubPassResult): PassText {
  const source = sourceOf(result);
  if (result.type === 'loadFailed') {
    const lines = [`hub: ${source} does not load; nothing was written, every branch is as it was:`];
    for (const e of result.errors) lines.push(`  ${formatLoadError(e)}`);
    return { err: lines.join('\n') };
  }
  const refused = refusalLine(result);
  if (result.type === 'sourceRefused') return { err: refused ?? '' };
  const out =
    result.type === 'upToDate'
      ? `hub: ${source} is rendered already (bindings at ${result.bindingsCommit.slice(0, 7)}); nothing to do`
      : formatRendered(result, source);
  const unreadable = Object.entries(result.statusUnreadable ?? {}).map(
    ([cluster, why]) => `hub: ${cluster}: status unreadable (not NotReady): ${why}`,
  );
  // A rendered pass lists the ignored status heads among its diagnostics already.
  const ignored =
    result.type === 'upToDate'
      ? Object.entries(result.statusRefused ?? {}).map(
          ([cluster, why]) => `hub: warning: ${cluster}: status ignored: ${why}`,
        )
      : [];
  const err = [...(refused !== undefined ? [refused] : []), ...unreadable, ...ignored];
  return { out, ...(err.length > 0 ? { err: err.join('\n') } : {}) };
}

// A source head the hub's verification refused: which, why, and what the pass did instead.
function refusalLine(result: HubPassResult): string | undefined {
  if (!result.refused) return undefined;
  const { reason, recorded, head } = result.refused;
  const kept =
    result.type === 'sourceRefused'
      ? 'nothing rendered, every branch keeps the last good render'
      : `rendering the last verified commit ${result.source.commit.slice(0, 7)} instead`;
  const where = recorded ? `; recorded on the bindings branch (${recorded.slice(0, 7)})` : '';
  return `hub: refused ${result.source.ref} ${head.slice(0, 7)}: ${reason}; ${kept}${where}`;
}

/** How the loop prints its passes, and what it printed last. */
export interface LoopReporter {
  output: 'text' | 'json';
  /** For JSON: stdout. */
  io: Io;
  /** Prints one pass's text (observability.ts: stamped, levelled). */
  report(text: string, opts: { level: LogLevel; failed?: boolean }): void;
  /** What identifies the last pass printed in full; cleared when a new term starts. */
  last?: { commit: string; key: string };
}

/**
 * Prints a pass of the loop. JSON: one record per rendered pass, a failing or up-to-date source
 * once. Text: in full at info (a failure at error), or, when it says nothing the pass printed
 * before did not, one line at debug.
 */
export function reportLoopPass(result: HubPassResult, reporter: LoopReporter): void {
  const commit = result.source.commit;
  if (reporter.output === 'json') {
    const key = result.type;
    if (key !== 'rendered' && key === reporter.last?.key && commit === reporter.last.commit) return;
    reporter.last = { commit, key };
    return printResult(result, 'json', reporter.io, true);
  }
  const key = passKey(result);
  if (isQuiet(result, reporter.last, key)) {
    reporter.report(quietLine(result), { level: 'debug' });
    return;
  }
  reporter.last = { commit, key };
  const text = formatResult(result);
  if (text.out !== undefined) reporter.report(text.out, { level: 'info' });
  if (text.err !== undefined)
    reporter.report(text.err, {
      level: result.type === 'loadFailed' || result.type === 'sourceRefused' ? 'error' : 'warn',
      failed: true,
    });
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
function isQuiet(result: HubPassResult, last: LoopReporter['last'], key: string): boolean {
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

function quietLine(result: HubPassResult): string {
  const source = sourceOf(result);
  if (result.type === 'loadFailed') return `hub: ${source} still does not load; nothing written`;
  if (result.type === 'upToDate') return `hub: ${source} is rendered already; nothing to do`;
  if (result.type === 'sourceRefused')
    return `hub: ${result.source.ref} ${result.refused.head.slice(0, 7)} is still refused; nothing rendered`;
  const b = result.bindings;
  const bindings =
    b.type === 'updated'
      ? `bindings ${b.commit.slice(0, 7)} (${b.changes} records changed)`
      : 'bindings unchanged';
  return `hub: rendered ${source} in ${result.timings.totalMs} ms: no cluster branch changed; ${bindings}`;
}

function sourceOf(result: HubPassResult): string {
  return `${result.source.ref} ${result.source.commit.slice(0, 7)} (${result.source.subject})`;
}

const maxDiagnosticLines = 50;

function formatRendered(result: Extract<HubPassResult, { type: 'rendered' }>, source: string): string {
  const lines = [`hub: rendered ${source} in ${result.timings.totalMs} ms`];
  const rows = Object.entries(result.clusters).map(([name, o]) => [name, ...describeOutcome(o)] as const);
  const b = result.bindings;
  rows.push([
    'bindings',
    b.type,
    b.commit?.slice(0, 7) ?? '',
    b.type === 'updated' ? `${b.records} records, ${b.changes} changed` : '',
  ]);
  const width = Math.max(...rows.map((r) => r[0].length));
  for (const [name, type, commit, detail] of rows) {
    lines.push(`  ${name.padEnd(width)}  ${type.padEnd(10)} ${commit.padEnd(7)}  ${detail}`.trimEnd());
  }
  const count = (s: string) => result.diagnostics.filter((d) => d.severity === s).length;
  lines.push(`diagnostics: ${count('error')} errors, ${count('warning')} warnings, ${count('info')} info`);
  for (const d of result.diagnostics.slice(0, maxDiagnosticLines)) lines.push(`  ${formatDiagnostic(d)}`);
  if (result.diagnostics.length > maxDiagnosticLines) {
    lines.push(
      `  … and ${result.diagnostics.length - maxDiagnosticLines} more (--output json lists them all)`,
    );
  }
  return lines.join('\n');
}

function describeOutcome(o: ClusterPassOutcome): [string, string, string] {
  switch (o.type) {
    case 'unchanged':
      return ['unchanged', '', `${o.objects} objects`];
    case 'updated':
      return [
        'updated',
        o.commit.slice(0, 7),
        `${o.objects} objects (+${o.added} ~${o.changed} -${o.removed})`,
      ];
    case 'refused':
      return ['refused', '', `kept its last good commit (+${o.added} ~${o.changed} -${o.removed} refused)`];
    case 'held':
      return [
        'held',
        '',
        `kept its last published commit (+${o.added} ~${o.changed} -${o.removed} not published)`,
      ];
    case 'tombstoned':
      return ['tombstoned', o.commit.slice(0, 7), 'no longer registered'];
    case 'retired':
      return ['retired', '', 'no longer registered (tombstoned earlier)'];
  }
}
