import { formatDiagnostic } from '../model/diagnostic.js';
import { describePlacement } from './describe-placement.js';
import type { ClusterDiff, RenderDiff } from './diff-renders.js';
import type { RolloutPreview } from './preview-rollouts.js';
import type { PreviewWhy } from './explain-preview.js';
import { rolloutLines } from './rollout-lines.js';
import { describeSourceChange } from './diff-sources.js';

/** The lines a preview starts with: the verdict (judge-verdict.ts), then which hub state was used. */
export interface DiffTextHeader {
  verdict?: string;
  state?: string;
  /** Why the change leaves templates unplaced or held (explain-preview.ts). */
  why?: readonly PreviewWhy[];
}

/**
 * Returns a render diff as `git diff` would print it, after the header (`# verdict: …`,
 * `# state: …`) and a placement, rollout and diagnostics summary, with a `# cluster …` header
 * line before each cluster's files; only the header ('' without one) when nothing changed.
 * Every summary and header line is text `git apply` skips, so the whole output applies to a
 * `gitfleet render --out DIR` of the base inside DIR.
 */
export function formatDiffText(
  diff: RenderDiff,
  rollout?: RolloutPreview,
  header: DiffTextHeader = {},
): string {
  const top: string[] = [];
  if (header.verdict !== undefined) top.push(`# ${header.verdict}`);
  if (header.state !== undefined) top.push(`# state: ${header.state}`);
  // Shown even when no manifest changes: a new tool version alone changes the bindings records.
  if (diff.sources && diff.sources.length > 0) {
    top.push('# sources:');
    for (const s of diff.sources) top.push(`#   ${describeSourceChange(s)}`);
  }
  if (!diff.changed) return top.length > 0 ? `${top.join('\n')}\n` : '';
  const out: string[] = [...top];
  const placement = describePlacement(diff.placement);
  if (placement.length > 0) {
    out.push('# placement:');
    for (const p of placement) out.push(`#   ${p.kind.padEnd(8)} ${p.template}: ${p.text}`);
  }
  const rollouts = rollout ? rolloutLines(rollout) : [];
  if (rollouts.length > 0) {
    out.push('# rollouts:');
    for (const line of rollouts) out.push(`#   ${line}`);
  }
  if (header.why && header.why.length > 0) {
    out.push('# why:');
    for (const w of header.why) out.push(`#   ${w.template}: ${oneLine(w.message)}`);
  }
  const { added, removed } = diff.diagnostics;
  if (added.length + removed.length > 0) {
    out.push('# diagnostics:');
    for (const d of added) out.push(`#   + ${formatDiagnostic(d)}`);
    for (const d of removed) out.push(`#   - ${formatDiagnostic(d)}`);
  }
  for (const cluster of diff.clusters) {
    if (out.length > 0) out.push('');
    out.push(clusterHeader(cluster));
    for (const s of cluster.sources ?? []) out.push(`#   source: ${describeSourceChange(s)}`);
    for (const path of cluster.held)
      out.push(`#   held: ${path} (fails to render; its last content is kept)`);
    for (const file of cluster.files) out.push(file.diff.replace(/\n$/, ''));
  }
  return `${out.join('\n')}\n`;
}

/** Returns `# cluster NAME[ (new|removed)]: A added, C changed, R removed`. */
export function clusterHeader(cluster: ClusterDiff): string {
  const presence = cluster.presence === 'both' ? '' : cluster.presence === 'added' ? ' (new)' : ' (removed)';
  return `# cluster ${cluster.cluster}${presence}: ${cluster.added} added, ${cluster.changed} changed, ${cluster.removed} removed`;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}
