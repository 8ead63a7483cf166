// What `gitfleet hub` prints about a pass: the JSON record, or a few lines of text. The loop
// prints each pass's text as a log record (stamped, levelled: observability.ts); a pass that
// changed nothing since the one printed before (loops/hub/pass-news.ts judges) is one short
// line at debug level, so a hub at the default level says nothing while agents push status
// (docs/production.md#logs).
import { formatLoadError } from '../../core/load/load-error.js';
import { formatDiagnostic } from '../../core/model/diagnostic.js';
import type { ClusterPassOutcome, HubPassResult } from '../../loops/hub/hub-pass-result.js';
import type { PassNews } from '../../loops/hub/pass-news.js';
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

/** How the loop prints its passes, and what it printed last (loops/hub/pass-news.ts decides). */
export interface LoopReporter {
  output: 'text' | 'json';
  /** For JSON: stdout. */
  io: Io;
  /** Prints one pass's text (observability.ts: stamped, levelled). */
  report(text: string, opts: { level: LogLevel; failed?: boolean }): void;
  /** What the loop reported last; forgotten when a new term starts. */
  news: PassNews;
}

/**
 * Prints a pass of the loop as PassNews judges it. JSON: one record per rendered pass, a failing
 * or up-to-date source once. Text: in full at info (a failure at error), or, when it says
 * nothing the pass printed before did not, one line at debug.
 */
export function reportLoopPass(result: HubPassResult, reporter: LoopReporter): void {
  const verdict = reporter.news.judge(result, reporter.output);
  if (verdict === 'none') return;
  if (reporter.output === 'json') return printResult(result, 'json', reporter.io, true);
  if (verdict === 'quiet') return reporter.report(quietLine(result), { level: 'debug' });
  const text = formatResult(result);
  if (text.out !== undefined) reporter.report(text.out, { level: 'info' });
  if (text.err !== undefined)
    reporter.report(text.err, {
      level: result.type === 'loadFailed' || result.type === 'sourceRefused' ? 'error' : 'warn',
      failed: true,
    });
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
