// The "Why" of a pull-request comment (docs/review.md#why): for the templates a change leaves
// placed nowhere, keeps off a cluster, or holds behind a rollout step, why, in the words
// `gitfleet status` uses (core/status/explain-template.ts explains the head side's binding as
// its record will read). A template the change does not concern is not listed: a ServiceImport
// placed nowhere before and after, for the same reasons, is the fleet's state, not the change's.
import type { Binding } from '../model/binding.js';
import { refLabel } from '../model/object-ref.js';
import { bindingRecord, parseBindingView } from '../publish/binding-record.js';
import { explainPlacement } from '../status/explain-template.js';
import type { ClusterExplanation, ExplanationReason } from '../status/explanation.js';
import type { RenderSide } from './diff-renders.js';
import type { RolloutPreview, StepPreview } from './preview-rollouts.js';

/** Why one template the change concerns is not (yet) where it goes. */
export interface PreviewWhy {
  /** `Kind/namespace/name`. */
  template: string;
  /** NoClusterFit / ScheduleFailed when placed nowhere; the clusters' reason otherwise; HeldByRollout. */
  reason: ExplanationReason;
  message: string;
  /** The clusters it is kept off, each explained (none for a rollout's hold). */
  clusters: ClusterExplanation[];
}

/** Returns why the change leaves templates unplaced or held, templates in label order, held ones last. */
export function explainPreview(input: {
  base: RenderSide;
  head: RenderSide;
  rollout?: RolloutPreview;
  /** The head side's registered clusters. */
  clusters: readonly string[];
}): PreviewWhy[] {
  const before = new Map(input.base.bindings.map((b) => [b.key, whyOf(b, input.clusters)]));
  const out: PreviewWhy[] = [];
  for (const binding of [...input.head.bindings].sort(byLabel)) {
    const why = whyOf(binding, input.clusters);
    if (!why || why.message === before.get(binding.key)?.message) continue;
    out.push(why);
  }
  for (const s of input.rollout?.strategies ?? []) out.push(...heldOf(s));
  return out;
}

// What the record of the binding will say: explained as `status` explains it.
function whyOf(binding: Binding, clusters: readonly string[]): PreviewWhy | undefined {
  const view = parseBindingView(bindingRecord(binding));
  if (!view) return undefined;
  const placement = explainPlacement(view, clusters);
  const template = refLabel(binding.resource);
  if (placement.reason !== undefined)
    return {
      template,
      reason: placement.reason,
      message: placement.message ?? '',
      clusters: placement.clusters,
    };
  // Placed somewhere: the clusters a fact about them keeps it off (not the affinity's choice).
  const kept = placement.clusters.filter((c) => c.filter !== undefined && c.reason !== 'ExcludedByAffinity');
  if (kept.length === 0) return undefined;
  return {
    template,
    reason: kept[0]!.reason,
    message: kept.map((c) => c.message).join('; '),
    clusters: kept,
  };
}

function heldOf(s: RolloutPreview['strategies'][number]): PreviewWhy[] {
  const later = s.steps.filter((step) => step.later.length > 0);
  if (later.length === 0) return [];
  const words = later.map((step) => `${step.later.join(', ')} in step ${step.step}${gateOf(s.steps, step)}`);
  const message = `reaches ${words.join('; ')} of rollout ${s.strategy}, not in the merge's own hub pass`;
  return s.templates.map((template) => ({ template, reason: 'HeldByRollout', message, clusters: [] }));
}

// What a later step waits for: the steps before it Healthy (and their soak), and its approval.
function gateOf(steps: readonly StepPreview[], step: StepPreview): string {
  const before = steps.filter((s) => s.step < step.step);
  const soak = before.reduce((n, s) => n + s.soakSeconds, 0);
  const parts = [
    ...(before.length > 0
      ? [
          `after step ${before.map((s) => s.step).join(', ')} runs it Healthy${soak > 0 ? ` and soaks ${soak}s` : ''}`,
        ]
      : []),
    ...(step.approval === 'Manual' ? ['once a person approves it with a Gitfleet-Approve trailer'] : []),
  ];
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

function byLabel(a: Binding, b: Binding): number {
  const x = refLabel(a.resource);
  const y = refLabel(b.resource);
  return x < y ? -1 : x > y ? 1 : 0;
}
