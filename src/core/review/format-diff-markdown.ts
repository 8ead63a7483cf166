// A render diff as a pull-request comment: a summary table, the placement and diagnostics
// changes, then one collapsed section per cluster with its diff. GitHub refuses comments over
// 65,536 characters, so the output stays within a budget: lists are cut with a count, and the
// diffs that do not fit are left out with a note saying how many.
import { formatDiagnostic } from '../model/diagnostic.js';
import { describePlacement } from './describe-placement.js';
import type { ClusterDiff, RenderDiff } from './diff-renders.js';
import type { RolloutPreview } from './preview-rollouts.js';
import type { PreviewWhy } from './explain-preview.js';
import { rolloutLines } from './rollout-lines.js';
import { describeSourceChange } from './diff-sources.js';

export interface MarkdownOptions {
  /** The heading, e.g. `gitfleet diff main → feature`. */
  title?: string;
  /** The most characters to return; default 60,000, leaving room for a marker or a footer. */
  maxChars?: number;
  /** The most rows of the table and items of each list; default 100. */
  maxItems?: number;
  /** How the head side's rollout strategies roll the change out (preview-rollouts.ts). */
  rollout?: RolloutPreview;
  /** The verdict line (judge-verdict.ts): the first line of the comment. */
  verdict?: string;
  /** Which hub state the sides were rendered with, said under the heading. */
  state?: string;
  /** Why the change leaves templates unplaced or held (explain-preview.ts). */
  why?: readonly PreviewWhy[];
  /** Loud warnings shown under the heading, diff or no diff: the head's Secrets committed in plaintext (docs/secrets.md). */
  warnings?: readonly string[];
}

// Room kept for closing a cut cluster section and the truncation note.
const RESERVE = 600;

/** Returns a render diff as GitHub-flavoured markdown for a pull-request comment, within `maxChars`. */
export function formatDiffMarkdown(diff: RenderDiff, options: MarkdownOptions = {}): string {
  const maxChars = options.maxChars ?? 60_000;
  const maxItems = options.maxItems ?? 100;
  const parts = [
    ...(options.verdict !== undefined ? [`**${capitalize(escapeMarkdown(options.verdict))}**`, ''] : []),
    `### ${options.title ?? 'gitfleet diff'}`,
    '',
    ...(options.state !== undefined ? [`_State: ${escapeMarkdown(options.state)}_`, ''] : []),
    ...warningLines(options.warnings ?? [], maxItems),
    ...sourcesSection(diff, maxItems),
  ];
  if (!diff.changed) {
    parts.push("No change: every cluster's rendered manifests, placement and diagnostics stay the same.");
    return `${parts.join('\n')}\n`;
  }
  parts.push(...summaryTable(diff.clusters, maxItems), ...placementSection(diff, maxItems));
  if (options.rollout) parts.push(...rolloutSection(options.rollout, maxItems, maxChars));
  if (options.why) parts.push(...whySection(options.why, maxItems, maxChars));
  parts.push(...diagnosticsSection(diff, maxItems));
  let text = `${parts.join('\n')}\n`;
  let omitted = { files: 0, clusters: 0 };
  for (const [i, cluster] of diff.clusters.entries()) {
    const budget = maxChars - RESERVE - text.length;
    const section = clusterSection(cluster, budget);
    text += section.text;
    if (section.omitted > 0) {
      omitted = { files: section.omitted, clusters: 1 };
      for (const rest of diff.clusters.slice(i + 1)) {
        omitted.files += rest.files.length;
        omitted.clusters++;
      }
      break;
    }
  }
  if (omitted.files > 0) text += truncationNote(omitted);
  return text;
}

// The template sources that change (a chart bump, a new tool version), shown diff or no diff.
function sourcesSection(diff: RenderDiff, maxItems: number): string[] {
  const sources = diff.sources ?? [];
  if (sources.length === 0) return [];
  const lines = sources.slice(0, maxItems).map((s) => `- ${escapeMarkdown(describeSourceChange(s))}`);
  if (sources.length > maxItems) lines.push(`- … and ${sources.length - maxItems} more`);
  return ['**Template sources**', '', ...lines, ''];
}

function summaryTable(clusters: readonly ClusterDiff[], maxItems: number): string[] {
  if (clusters.length === 0) return [];
  const rows = ['| cluster | added | changed | removed |', '|:--|--:|--:|--:|'];
  for (const c of clusters.slice(0, maxItems)) {
    const note = c.presence === 'added' ? ' (new)' : c.presence === 'removed' ? ' (removed)' : '';
    rows.push(`| \`${c.cluster}\`${note} | ${c.added} | ${c.changed} | ${c.removed} |`);
  }
  if (clusters.length > maxItems) rows.push(`| … and ${clusters.length - maxItems} more clusters | | | |`);
  return [...rows, ''];
}

function placementSection(diff: RenderDiff, maxItems: number): string[] {
  const lines = describePlacement(diff.placement);
  if (lines.length === 0) return [];
  const items = lines.slice(0, maxItems).map((l) => `- ${l.kind} \`${l.template}\`: ${l.text}`);
  if (lines.length > maxItems) items.push(`- … and ${lines.length - maxItems} more`);
  return ['**Placement**', '', ...items, ''];
}

// Each list of clusters is cut at MAX_NAMES, and the section at a quarter of the budget, so
// that a fleet of many clusters and strategies leaves room for the diffs.
const MAX_NAMES = 20;

function rolloutSection(rollout: RolloutPreview, maxItems: number, maxChars: number): string[] {
  const lines = rolloutLines(rollout, { maxNames: MAX_NAMES });
  if (lines.length === 0) return [];
  return ['**Rollouts**', '', ...budgeted(lines, maxItems, maxChars), ''];
}

// The list's items, cut at maxItems and at a quarter of the comment's budget, with a count of the rest.
function budgeted(lines: readonly string[], maxItems: number, maxChars: number): string[] {
  const items: string[] = [];
  let size = 0;
  for (const [i, line] of lines.entries()) {
    const item = `- ${line}`;
    if (i >= maxItems || size + item.length > maxChars / 4) {
      items.push(`- … and ${lines.length - i} more`);
      break;
    }
    items.push(item);
    size += item.length + 1;
  }
  return items;
}

// Like the rollouts, a quarter of the budget at most.
function whySection(why: readonly PreviewWhy[], maxItems: number, maxChars: number): string[] {
  if (why.length === 0) return [];
  const lines = why.map((w) => `\`${w.template}\`: ${escapeMarkdown(w.message)}`);
  return ['**Why**', '', ...budgeted(lines, maxItems, maxChars), ''];
}

function diagnosticsSection(diff: RenderDiff, maxItems: number): string[] {
  const lines = [
    ...diff.diagnostics.added.map((d) => `+ ${formatDiagnostic(d)}`),
    ...diff.diagnostics.removed.map((d) => `- ${formatDiagnostic(d)}`),
  ];
  if (lines.length === 0) return [];
  const shown = lines.slice(0, maxItems);
  if (lines.length > maxItems) shown.push(`… and ${lines.length - maxItems} more`);
  const fence = fenceFor(shown.join('\n'));
  return ['**Diagnostics** (+ new, - gone)', '', `${fence}text`, ...shown, fence, ''];
}

/** One cluster's collapsed section, cut to the budget; `omitted` counts the file diffs left out. */
function clusterSection(cluster: ClusterDiff, budget: number): { text: string; omitted: number } {
  const count = cluster.files.length;
  const presence =
    cluster.presence === 'both' ? '' : cluster.presence === 'added' ? 'new cluster, ' : 'removed cluster, ';
  const open = [
    `<details><summary>${cluster.cluster} (${presence}${count} file${count === 1 ? '' : 's'})</summary>`,
    '',
  ];
  for (const s of cluster.sources ?? []) open.push(`- source: ${escapeMarkdown(describeSourceChange(s))}`);
  for (const path of cluster.held) open.push(`- held: \`${path}\` fails to render; its last content is kept`);
  if (cluster.held.length > 0 || (cluster.sources ?? []).length > 0) open.push('');
  const close = '\n</details>\n\n';
  const fence = fenceFor(cluster.files.map((f) => f.diff).join(''));
  const head = `${open.join('\n')}\n${fence}diff\n`;
  const tail = `${fence}\n${close}`;
  let room = budget - head.length - tail.length;
  let body = '';
  let shown = 0;
  for (const file of cluster.files) {
    if (file.diff.length > room) break;
    body += file.diff;
    room -= file.diff.length;
    shown++;
  }
  if (shown === count) return { text: head + body + tail, omitted: 0 };
  const next = cluster.files[shown];
  const cutNote = next && `… (${next.path}: diff cut here)\n`;
  if (next !== undefined && cutNote !== undefined && room > 200 + cutNote.length) {
    body += cutLines(next.diff, room - cutNote.length) + cutNote;
  }
  if (budget < head.length + tail.length) return { text: '', omitted: count };
  return { text: head + body + tail, omitted: count - shown };
}

// Keeps whole lines only, so the cut never splits a line of YAML.
function cutLines(text: string, max: number): string {
  const end = text.lastIndexOf('\n', max);
  return end < 0 ? '' : text.slice(0, end + 1);
}

// A fence longer than any run of backticks in the content, so no content line can close it.
function fenceFor(content: string): string {
  const longest = (content.match(/`+/g) ?? []).reduce((max, run) => Math.max(max, run.length), 0);
  return '`'.repeat(Math.max(3, longest + 1));
}

function truncationNote(omitted: { files: number; clusters: number }): string {
  return (
    `> **Truncated:** ${omitted.files} file diff${omitted.files === 1 ? '' : 's'} in ` +
    `${omitted.clusters} cluster${omitted.clusters === 1 ? '' : 's'} not shown: a GitHub comment holds at most ` +
    '65,536 characters. Run `gitfleet diff` locally for the whole diff.\n'
  );
}

// A GitHub caution block a reviewer cannot miss, one warning a line (cut with a count).
function warningLines(warnings: readonly string[], maxItems: number): string[] {
  if (warnings.length === 0) return [];
  const lines = warnings.slice(0, maxItems).map((w) => `> **Warning:** ${escapeMarkdown(w)}`);
  if (warnings.length > maxItems) lines.push(`> …and ${warnings.length - maxItems} more`);
  return ['> [!CAUTION]', ...lines.flatMap((l) => ['>', l]), ''];
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// Cluster names and notes are plain text: characters markdown would read as emphasis or markup are escaped.
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_<>[\]|]/g, (c) => `\\${c}`);
}
