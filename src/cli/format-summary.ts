import { formatDiagnostic, type Diagnostic } from '../core/model/diagnostic.js';
import type { RenderResult } from '../core/render/render-fleet.js';

/** The machine-readable summary of a render. */
export interface RenderSummary {
  source: string;
  commit?: string;
  stats: RenderResult['stats'];
  clusters: Record<string, { objects: number; held: number }>;
  diagnostics: Diagnostic[];
}

/** Returns the JSON-ready summary of a render. */
export function summarize(result: RenderResult, source: string, commit?: string): RenderSummary {
  const clusters: RenderSummary['clusters'] = {};
  for (const [name, out] of result.clusters)
    clusters[name] = { objects: out.files.size, held: out.held.size };
  return {
    source,
    ...(commit ? { commit } : {}),
    stats: result.stats,
    clusters,
    diagnostics: result.diagnostics,
  };
}

/** Returns the human summary of a render, one fact per line. */
export function formatSummary(summary: RenderSummary): string {
  const s = summary.stats;
  const lines = [
    `source: ${summary.source}`,
    `templates: ${s.templates} (${s.claimed} claimed by a policy, ${s.followers} following, ${s.skipped} skipped, ${s.unmatched} unmatched)`,
    `clusters: ${Object.keys(summary.clusters).length}`,
  ];
  const width = Math.max(0, ...Object.keys(summary.clusters).map((n) => n.length));
  for (const [name, c] of Object.entries(summary.clusters)) {
    lines.push(
      `  ${name.padEnd(width)}  ${c.objects} objects${c.held ? `, ${c.held} failed (previous content kept)` : ''}`,
    );
  }
  const count = (sev: Diagnostic['severity']) => summary.diagnostics.filter((d) => d.severity === sev).length;
  lines.push(`diagnostics: ${count('error')} errors, ${count('warning')} warnings, ${count('info')} info`);
  for (const d of summary.diagnostics) lines.push(`  ${formatDiagnostic(d)}`);
  return lines.join('\n');
}
