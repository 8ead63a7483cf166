// Which clusters a merge reaches first (docs/rollout.md#reviewing-a-rollout): the head side's rollout
// strategies applied to what the diff changes. The hub rolls out the selected templates' files on
// each cluster as one unit (docs/rollout.md), so a cluster is in a strategy's preview when one of
// those files differs between base and head in content. What the hub does not hold reaches its
// clusters at once, and the preview says where:
//
// | a rendered file that differs                                  | reaches the cluster         |
// |---------------------------------------------------------------|-----------------------------|
// | selected, on the cluster in both, content changed             | in the cluster's step       |
// | selected, failed to render in base, renders in head           | in the cluster's step       |
// | selected, only its replica count changed                      | at once                     |
// | selected, a template new in head (no binding in base)         | in the cluster's step       |
// | selected, an existing template newly placed on the cluster    | at once                     |
// | selected, removed from the cluster                            | at once                     |
// | not selected by any strategy (followers and Namespaces too)   | at once                     |
// | fails to render in head (held: the last content is kept)      | not at all: no change       |
//
// Which changes are held is judged as the hub judges it (core/rollout/held-objects.ts), so
// replicas the scheduler moves between clusters are never held. The replica
// fields are those the render revises per cluster (override/revise-replicas.ts): spec.replicas of
// a Deployment, ReplicaSet or StatefulSet, a Job's parallelism and completions.
import { classifyChange } from '../rollout/held-objects.js';
import type { Cluster } from '../model/cluster.js';
import type { Template } from '../model/fleet.js';
import { strategyLabel, type RolloutStep, type RolloutStrategy } from '../model/rollout.js';
import { objectPath } from '../format/object-path.js';
import { stepOfCluster, templatesByStrategy } from '../rollout/rollout-steps.js';
import type { RenderSide } from './diff-renders.js';

/** One step of a strategy that a change reaches: its changed clusters and how the step is gated. */
export interface StepPreview extends Pick<RolloutStep, 'soakSeconds' | 'approval' | 'maxUnavailable'> {
  /** 1-based. */
  step: number;
  /** The clusters of the step whose selected objects change, by name. */
  clusters: string[];
  /** Those of them the merge's hub pass holds: the change reaches them in a later pass. */
  later: string[];
}

/** How a change rolls out: per strategy the steps it reaches, in order, and what is not held. */
export interface RolloutPreview {
  /** The strategies whose selected objects change on some cluster, by label. */
  strategies: { strategy: string; steps: StepPreview[] }[];
  /** The clusters that get changes no rollout holds, by name. */
  atOnce: string[];
  /** The clusters the merge's hub pass changes (at once, or moved by a rollout), by name. */
  now: string[];
  /** The clusters a rollout reaches only in a later pass, by name (some may get other changes now). */
  later: string[];
}

/**
 * Which clusters of a strategy the merge's hub pass holds, by strategy label: the hub's own
 * rollout stage run on its recorded state when the preview has it; without it, as a rollout that
 * starts with this change (every step but an Auto step 1 waits).
 */
export type RolloutHolds = ReadonlyMap<string, ReadonlySet<string>>;

/** Returns how the head side's strategies roll out the change from base to head; empty without strategies. */
export function previewRollouts(input: {
  strategies: readonly RolloutStrategy[];
  /** The head side's templates and clusters. */
  templates: readonly Template[];
  clusters: readonly Cluster[];
  base: RenderSide;
  /** The head side before any rollout holds (where the change goes once every step passed). */
  head: RenderSide;
  /** Which clusters the merge's pass holds (RolloutHolds); absent: judged from the steps. */
  holds?: RolloutHolds;
}): RolloutPreview {
  const preview: RolloutPreview = { strategies: [], atOnce: [], now: [], later: [] };
  if (input.strategies.length === 0) return preview;
  // As the hub tells them apart: a template bound in base that lands on another cluster was
  // placed there by the scheduler; a template with no binding in base is new content.
  const bound = new Set(input.base.bindings.map((b) => b.key));
  const strategyAt = new Map<string, Selected>();
  for (const [label, templates] of templatesByStrategy(input.templates, input.strategies))
    for (const t of templates) strategyAt.set(objectPath(t.ref), { label, existed: bound.has(t.key) });
  const { changed, atOnce } = sortChanges(input.base, input.head, strategyAt);
  const registered = new Map(input.clusters.map((c) => [c.name, c]));
  for (const strategy of [...input.strategies].sort(byLabel)) {
    const label = strategyLabel(strategy);
    const clusters = changed.get(label);
    if (!clusters) continue;
    const held = input.holds?.get(label);
    const isHeld = held ? (c: string) => held.has(c) : startsHeld(strategy);
    preview.strategies.push({ strategy: label, steps: stepsOf(strategy, clusters, registered, isHeld) });
  }
  preview.atOnce = [...atOnce];
  const steps = preview.strategies.flatMap((s) => s.steps);
  const later = new Set(steps.flatMap((s) => s.later));
  const now = new Set([...atOnce, ...steps.flatMap((s) => s.clusters.filter((c) => !s.later.includes(c)))]);
  preview.now = [...now].sort();
  preview.later = [...later].sort();
  return preview;
}

// A rollout that starts with the change moves an Auto step 1 at once and holds the rest.
function startsHeld(strategy: RolloutStrategy): (cluster: string, step: number) => boolean {
  return (_cluster, step) => step > 1 || strategy.steps[0]!.approval === 'Manual';
}

/** A selected template's path: the strategy's label, and whether the template was bound in base. */
interface Selected {
  label: string;
  existed: boolean;
}

/** Returns strategy label → the clusters its selected objects change on, and the clusters that get other changes. */
function sortChanges(
  base: RenderSide,
  head: RenderSide,
  strategyAt: ReadonlyMap<string, Selected>,
): { changed: Map<string, Set<string>>; atOnce: Set<string> } {
  const changed = new Map<string, Set<string>>();
  const atOnce = new Set<string>();
  const names = [...new Set([...base.clusters.keys(), ...head.clusters.keys()])].sort();
  for (const cluster of names) {
    const before = base.clusters.get(cluster);
    const after = head.clusters.get(cluster);
    const paths = new Set([...(before?.files.keys() ?? []), ...(after?.files.keys() ?? [])]);
    for (const path of paths) {
      const a = before?.files.get(path);
      const b = after?.files.get(path);
      if (a === b || (b === undefined && after?.held?.has(path))) continue;
      const selected = strategyAt.get(path);
      if (
        selected &&
        b !== undefined &&
        isHeldChange(path, selected, a, b, before?.held?.has(path) ?? false)
      ) {
        const clusters = changed.get(selected.label) ?? new Set<string>();
        changed.set(selected.label, clusters.add(cluster));
      } else atOnce.add(cluster);
    }
  }
  return { changed, atOnce };
}

function stepsOf(
  strategy: RolloutStrategy,
  clusters: ReadonlySet<string>,
  registered: ReadonlyMap<string, Cluster>,
  isHeld: (cluster: string, step: number) => boolean,
): StepPreview[] {
  const byStep = new Map<number, string[]>();
  for (const name of clusters) {
    const cluster = registered.get(name);
    // A cluster the head renders is registered in the head fleet; this only keeps the types honest.
    const step = cluster ? stepOfCluster(strategy, cluster) : strategy.steps.length;
    byStep.set(step, [...(byStep.get(step) ?? []), name]);
  }
  return [...byStep.keys()]
    .sort((x, y) => x - y)
    .map((step) => {
      const { soakSeconds, approval, maxUnavailable } = strategy.steps[step - 1]!;
      const names = byStep.get(step)!.sort();
      return {
        step,
        clusters: names,
        later: names.filter((c) => isHeld(c, step)),
        soakSeconds,
        approval,
        ...(maxUnavailable !== undefined ? { maxUnavailable } : {}),
      };
    });
}

/**
 * Whether a rollout holds the change of a selected file the head renders, as the hub's rollout
 * stage judges it (core/rollout/held-objects.ts: content): new content where the file was (a
 * path held in base failed to render there: the cluster runs its last content), or a template
 * new in head; not a replica count alone, nor an existing template newly placed.
 */
function isHeldChange(
  path: string,
  selected: Selected,
  a: string | undefined,
  b: string,
  heldInBase: boolean,
): boolean {
  if (a === undefined && heldInBase) return true;
  return classifyChange(path, a, b, selected.existed) === 'content';
}

function byLabel(x: RolloutStrategy, y: RolloutStrategy): number {
  const a = strategyLabel(x);
  const b = strategyLabel(y);
  return a < b ? -1 : a > b ? 1 : 0;
}
