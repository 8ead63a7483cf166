import { strategyLabel, type RolloutState } from '../model/rollout.js';
import type { RolloutView } from './rollout-view.js';
import { columns } from '../status/text-columns.js';

const clusterHeaders = ['CLUSTER', 'STEP', 'STATE', 'COMMIT', 'MESSAGE'];

/**
 * Returns the "Rollouts" section of `gitfleet status`: per record, a line with the strategy, the
 * phase, the step in progress, the revision rolled out and since when the step runs, the
 * rollout's message (why it waits, what failed), then a table of its clusters (step, Held /
 * Moved / RolledBack, the source commit whose selected objects each runs, why); a record that
 * does not read is a line naming its path. '' when there is none.
 */
export function formatRolloutSection(views: readonly RolloutView[]): string {
  if (views.length === 0) return '';
  const blocks = views.map((v) => ('rollout' in v ? rolloutBlock(v.rollout) : `${v.path}: ${v.unreadable}`));
  return `Rollouts\n${blocks.join('\n\n')}`;
}

function rolloutBlock(r: RolloutState): string {
  const head = [
    `${strategyLabel(r.strategy)} (${r.strategy.kind})`,
    r.phase,
    `step ${r.step}/${r.steps}`,
    `revision ${short(r.revision)}`,
    `since ${r.stepStartedAt}`,
    ...(r.healthySince ? [`healthy since ${r.healthySince}`] : []),
  ].join('  ');
  const lines = [head];
  if (r.message) lines.push(`  ${oneLine(r.message)}`);
  if (r.clusters.length > 0) {
    const rows = r.clusters.map((c) => [
      c.name,
      `${c.step}/${r.steps}`,
      c.state,
      c.commit ? short(c.commit) : '-',
      oneLine(c.message ?? ''),
    ]);
    const table = columns([clusterHeaders, ...rows]);
    lines.push(...table.split('\n').map((l) => `  ${l}`));
  }
  return lines.join('\n');
}

function short(commit: string): string {
  return commit.slice(0, 7);
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}
