// The human-readable forms of a benchmark run: a block per scenario, and the summary table
// (the one in the README's Performance section).
import type { Machine } from './machine.js';
import type { ContenderResult, ScenarioReport } from './report.js';

/** Returns `ms` as `850 ms` or `12.3 s`. */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** Returns the machine on one line. */
export function formatMachine(m: Machine): string {
  return (
    `${m.cpus} x ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}, ${m.os}; ` +
    `load average ${m.loadAverage.join(' ')} at the start`
  );
}

/** Returns a scenario's contenders, ratio and notes as text lines. */
export function formatScenario(report: ScenarioReport): string {
  const lines = [`== ${report.scenario}: ${JSON.stringify(report.parameters)}`];
  if (report.status !== 'ran') {
    const details = Object.entries(report.details ?? {}).map(
      ([key, value]) => `  ${key}: ${JSON.stringify(value)}`,
    );
    return [...lines, `  ${report.status}: ${report.note ?? ''}`, ...details].join('\n');
  }
  const width = Math.max(...report.contenders.map((c) => c.name.length));
  for (const c of report.contenders) {
    const rss = c.peakRssMiB === null ? '' : `  peak RSS ${c.peakRssMiB} MiB`;
    lines.push(
      `  ${c.name.padEnd(width)}  ${formatMs(c.medianMs).padStart(8)}  ` +
        `(${formatMs(c.minMs)} – ${formatMs(c.maxMs)}, ${c.runs} runs)${rss}`,
    );
  }
  for (const r of report.ratios) {
    const target = r.target === undefined ? '' : ` (target ${r.target}: ${r.met ? 'met' : 'NOT met'})`;
    lines.push(`  ratio, ${r.label}: ${r.alternative} / ${r.gitfleet} = ${r.value}x${target}`);
  }
  if (report.note) lines.push(`  note: ${report.note}`);
  for (const [key, value] of Object.entries(report.details ?? {}))
    lines.push(`  ${key}: ${JSON.stringify(value)}`);
  return lines.join('\n');
}

/** Returns the summary table in Markdown: scenario, gitfleet, alternative, ratio. */
export function formatSummaryTable(reports: readonly ScenarioReport[]): string {
  const rows = ['| scenario | gitfleet | alternative | ratio |', '|---|---|---|---|'];
  for (const report of reports) {
    if (report.status !== 'ran') {
      rows.push(`| ${report.scenario} | ${report.status}: ${report.note ?? ''} | | |`);
      continue;
    }
    for (const r of report.ratios) {
      const ours = report.contenders.find((c) => c.name === r.gitfleet);
      const theirs = report.contenders.find((c) => c.name === r.alternative);
      const label = r.label === report.scenario ? r.label : `${report.scenario}: ${r.label}`;
      const target = r.target === undefined ? '' : ` (target ${r.target})`;
      rows.push(
        `| ${label} | ${ours ? cell(ours) : ''} | ${theirs ? cell(theirs) : ''} | **${r.value}x**${target} |`,
      );
    }
    if (report.ratios.length > 0) continue;
    for (const c of report.contenders) rows.push(`| ${report.scenario} | ${cell(c)} | — | — |`);
  }
  return rows.join('\n');
}

function cell(c: ContenderResult): string {
  const rss = c.peakRssMiB === null ? '' : `, ${c.peakRssMiB} MiB`;
  return `${c.name}: ${formatMs(c.medianMs)} (${formatMs(c.minMs)}–${formatMs(c.maxMs)}${rss})`;
}
