import type { RolloutPreview, StepPreview } from './preview-rollouts.js';

/**
 * Returns a rollout preview in words, one line per strategy, then a line for what is not held:
 *
 *   rollout shop/web: step 1 member1 first (soak 300s), then step 2 member2, member3 (approval: Manual)
 *   not held: the other changes reach member1, member2, member3 at once (objects no rollout strategy selects, new placements, removals, replica counts)
 *
 * `maxNames` cuts each list of clusters with a count of the rest (a pull-request comment has a
 * size limit); absent, every name is listed.
 */
export function rolloutLines(preview: RolloutPreview, opts: { maxNames?: number } = {}): string[] {
  const names = (list: readonly string[]) => listOf(list, opts.maxNames);
  const lines = preview.strategies.map(({ strategy, steps }) => {
    const parts = steps.map((s, i) => {
      const first = i === 0 && steps.length > 1 ? ' first' : '';
      return `step ${s.step} ${names(s.clusters)}${first}${gateOf(s)}`;
    });
    return `rollout ${strategy}: ${parts.join(', then ')}`;
  });
  if (preview.atOnce.length > 0) {
    lines.push(
      `not held: the other changes reach ${names(preview.atOnce)} at once ` +
        '(objects no rollout strategy selects, new placements, removals, replica counts)',
    );
  }
  return lines;
}

// `(soak 300s, 2 at a time, approval: Manual)`, or '' for an Auto step without soak or limit.
function gateOf(step: StepPreview): string {
  const gate = [
    ...(step.soakSeconds > 0 ? [`soak ${step.soakSeconds}s`] : []),
    ...(step.maxUnavailable !== undefined && step.maxUnavailable < step.clusters.length
      ? [`${step.maxUnavailable} at a time`]
      : []),
    ...(step.approval === 'Manual' ? ['approval: Manual'] : []),
  ];
  return gate.length > 0 ? ` (${gate.join(', ')})` : '';
}

function listOf(names: readonly string[], max: number | undefined): string {
  if (max === undefined || names.length <= max) return names.join(', ');
  return `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}
