// What `gitfleet hub` prints about a pass: the JSON record, or a few lines of text.
import { formatLoadError } from '../../core/load/load-error.js';
import { formatDiagnostic } from '../../core/model/diagnostic.js';
import type { ClusterPassOutcome, HubPassResult } from '../../loops/hub/hub-pass-result.js';
import type { Io } from '../io.js';

/** Prints a pass's result; in JSON, one line per pass when the loop runs (a stream of records). */
export function printResult(result: HubPassResult, output: 'text' | 'json', io: Io, oneLine = false): void {
  if (output === 'json') return io.out(JSON.stringify(result, null, oneLine ? undefined : 2));
  const source = `${result.source.ref} ${result.source.commit.slice(0, 7)} (${result.source.subject})`;
  if (result.type === 'loadFailed') {
    io.err(`hub: ${source} does not load; nothing was written, every branch is as it was:`);
    for (const e of result.errors) io.err(`  ${formatLoadError(e)}`);
    return;
  }
  if (result.type === 'upToDate') {
    io.out(
      `hub: ${source} is rendered already (bindings at ${result.bindingsCommit.slice(0, 7)}); nothing to do`,
    );
  } else io.out(formatRendered(result, source));
  for (const [cluster, why] of Object.entries(result.statusUnreadable ?? {}))
    io.err(`  ${cluster}: status unreadable (not NotReady): ${why}`);
  // A rendered pass lists them among its diagnostics already.
  if (result.type === 'upToDate')
    for (const [cluster, why] of Object.entries(result.statusRefused ?? {}))
      io.err(`  warning: ${cluster}: status ignored: ${why}`);
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
    case 'tombstoned':
      return ['tombstoned', o.commit.slice(0, 7), 'no longer registered'];
    case 'retired':
      return ['retired', '', 'no longer registered (tombstoned earlier)'];
  }
}
