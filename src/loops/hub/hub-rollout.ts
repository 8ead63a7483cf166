// The rollout stage of a pass (docs/rollout.md), between the render and the branch plans: it
// reads what the pure planner needs from the repository (the texts the clusters run of the
// selected objects, the rollout records, the approvals on the source branch), runs
// core/rollout/plan-rollouts.ts, and turns its answer into the cluster outputs the branches are
// planned from: a held cluster keeps the selected objects it runs (with the scheduler's
// replicas), a rolled back one gets its last good objects, a moved one the render.
import type { Fleet } from '../../core/model/fleet.js';
import type { Diagnostic } from '../../core/model/diagnostic.js';
import type { PreviousBinding } from '../../core/model/binding.js';
import type { RolloutDecision, RolloutState, RolloutStrategy } from '../../core/model/rollout.js';
import type { RolloutInput } from '../../core/rollout/rollout-input.js';
import { verifyApprovals } from './verify-approvals.js';
import type { ClusterOutput } from '../../core/render/cluster-output.js';
import type { RenderResult } from '../../core/render/render-fleet.js';
import type { AgentReport } from '../../core/status/status-branch.js';
import { objectPath } from '../../core/format/object-path.js';
import {
  classifyChange,
  digestHex,
  emptyDigest,
  entryDigest,
  heldText,
  xorInto,
} from '../../core/rollout/held-objects.js';
import { planRollouts, type ClusterView } from '../../core/rollout/plan-rollouts.js';
import { templatesByStrategy } from '../../core/rollout/rollout-steps.js';
import { parseRolloutRecord } from '../../core/rollout/rollout-record.js';
import { strategyLabel } from '../../core/model/rollout.js';
import { clusterRolloutLine, rolloutDecisionLines } from '../../core/rollout/rollout-trailers.js';
import { clusterRef } from '../../core/publish/hub-refs.js';
import { RolloutMemo, noEdits, type ClusterLook } from './rollout-memo.js';
import { readApprovals, readRecords, readText, recordedRevisions } from './read-rollout-inputs.js';
import { readCommitFiles, type ReadContext } from './read-git-state.js';
import { clusterBase, type ClusterBase } from './cluster-base.js';
import type { CommitSigner } from '../../adapters/signing/commit-signer.js';
import type { HubState } from './read-hub-state.js';

/** What the rollout stage gives the rest of the pass. */
export interface RolloutStage {
  /** The render's cluster outputs, with the held and rolled back objects in place. */
  clusters: Map<string, ClusterOutput>;
  /** Files under `.gitfleet/rollouts/` of the bindings branch (every one it keeps). */
  files: Map<string, string>;
  /** The bindings commit's Gitfleet-Rollout lines. */
  lines: string[];
  decisions: RolloutDecision[];
  /** Cluster → the trailer lines its commit carries (the rollouts it is in). */
  clusterLines: Map<string, string[]>;
  diagnostics: Diagnostic[];
  wakeAt?: Date;
  /** Every strategy's rollout after this pass, by strategy label (which clusters it holds). */
  states: ReadonlyMap<string, RolloutState>;
}

/** Returns the stage's outcome, or undefined when the fleet has no strategy and the branch no record. */
export async function planRolloutStage(
  ctx: ReadContext & { signer?: CommitSigner },
  input: {
    now: Date;
    fleet: Fleet;
    render: RenderResult;
    state: HubState;
    reports: ReadonlyMap<string, AgentReport>;
    previous: ReadonlyMap<string, PreviousBinding>;
    sourceCommit: string;
  },
): Promise<RolloutStage | undefined> {
  const strategies = input.fleet.rolloutStrategies ?? [];
  const recorded = await readRecords(ctx, input.state.bindings.current.files);
  if (strategies.length === 0 && recorded.size === 0) {
    delete ctx.cache.rollout;
    return undefined;
  }
  const memo = new RolloutMemo(ctx.cache.rollout);
  const selected = selectedPaths({ ...input, recorded });
  const { looks, views } = await lookAtClusters(ctx, input, memo, selected);
  const planned = planRollouts({
    now: input.now,
    sourceCommit: input.sourceCommit,
    lastSource: input.state.bindings.lastSource,
    strategies,
    clusters: input.fleet.clusters,
    views,
    newObjects: new Map(
      [...selected].map(([label, paths]) => [
        label,
        [...paths].filter(([, existed]) => !existed).map(([p]) => p),
      ]),
    ),
    clusterHeads: input.state.clusterHeads,
    reports: input.reports,
    recorded,
    ...(await approvalsOf(ctx, { ...input, strategies, recorded })),
  });
  const clusters = new Map(input.render.clusters);
  const edits = await editsOf(ctx, planned.actions, looks, input.render);
  // A cluster edited last pass goes through the memo this pass too (with no edits once nothing is
  // held), so its output stays derived from what its branch was planned from.
  for (const cluster of new Set([...edits.keys(), ...memo.lastEdited()])) {
    const output = input.render.clusters.get(cluster);
    if (!output) continue;
    const planned = ctx.cache.branches.get(clusterRef(input.fleet.config.branchPrefix, cluster))?.output;
    clusters.set(cluster, memo.edited(cluster, output, edits.get(cluster) ?? noEdits, planned));
  }
  ctx.cache.rollout = memo.next;
  return {
    clusters,
    files: planned.files,
    lines: rolloutDecisionLines(planned.decisions),
    decisions: planned.decisions,
    clusterLines: clusterLinesOf(planned),
    diagnostics: planned.diagnostics,
    ...(planned.wakeAt ? { wakeAt: planned.wakeAt } : {}),
    states: planned.states,
  };
}

/**
 * Returns, per strategy and cluster, what the cluster runs of the selected objects, read from the
 * commit the hub wrote there and never from a head pushed by hand (cluster-base.ts): the hub
 * signs what it writes.
 */
async function lookAtClusters(
  ctx: ReadContext & { signer?: CommitSigner },
  input: { render: RenderResult; state: HubState },
  memo: RolloutMemo,
  selected: ReadonlyMap<string, ReadonlyMap<string, boolean>>,
): Promise<{ looks: Map<string, Map<string, ClusterLook>>; views: Map<string, Map<string, ClusterView>> }> {
  const bases = new Map<string, ClusterBase>();
  for (const name of input.render.clusters.keys()) {
    bases.set(name, await clusterBase(ctx, input.state, name, true));
  }
  const looks = new Map<string, Map<string, ClusterLook>>();
  const views = new Map<string, Map<string, ClusterView>>();
  for (const [label, paths] of selected) {
    const byCluster = new Map<string, ClusterLook>();
    const viewed = new Map<string, ClusterView>();
    const pathsKey = [...paths].map(([path, existed]) => `${path}${existed ? '+' : '-'}`).join('\n');
    // Every cluster at once: a look that reads blobs waits on the disk, not on the others.
    const clusterLooks = await Promise.all(
      [...input.render.clusters].map(async ([name, output]) => {
        const base = bases.get(name)!;
        const look = await memo.look({ label, pathsKey, cluster: name, output, head: base.commit }, (since) =>
          lookAt(ctx, memo, paths, output, base.current.files, since),
        );
        return [name, look] as const;
      }),
    );
    for (const [name, look] of clusterLooks) {
      if (!look) continue;
      byCluster.set(name, look);
      viewed.set(name, look.view);
    }
    looks.set(label, byCluster);
    views.set(label, viewed);
  }
  return { looks, views };
}

/** Returns, per cluster, the edits of the planner's hold and rollback actions to its rendered output. */
async function editsOf(
  ctx: ReadContext,
  actions: ReturnType<typeof planRollouts>['actions'],
  looks: ReadonlyMap<string, ReadonlyMap<string, ClusterLook>>,
  render: RenderResult,
): Promise<Map<string, Map<string, string | undefined>>> {
  const edits = new Map<string, Map<string, string | undefined>>();
  for (const [label, byCluster] of actions) {
    for (const [cluster, action] of byCluster) {
      if (action.type === 'move') continue;
      const look = looks.get(label)?.get(cluster);
      const output = render.clusters.get(cluster);
      if (!look || !output) continue;
      const edit = edits.get(cluster) ?? new Map<string, string | undefined>();
      edits.set(cluster, edit);
      if (action.type === 'hold') holdEdits(look, output, edit);
      else await rollbackEdits(ctx, action.lastGood, look, output, edit);
    }
  }
  return edits;
}

/** Returns the approvals on the source branch, with their signature verdicts and the revisions' makers, when a strategy has a Manual step. */
async function approvalsOf(
  ctx: ReadContext,
  input: {
    now: Date;
    sourceCommit: string;
    strategies: readonly RolloutStrategy[];
    recorded: ReadonlyMap<string, string>;
  },
): Promise<Pick<RolloutInput, 'approvals' | 'changes'>> {
  if (!input.strategies.some((s) => s.steps.some((step) => step.approval === 'Manual')))
    return { approvals: [] };
  const revisions = recordedRevisions(input.recorded);
  return verifyApprovals(ctx, {
    strategies: input.strategies,
    sourceCommit: input.sourceCommit,
    approvals: await readApprovals(ctx, input.sourceCommit, revisions),
    revisions: [...revisions, input.sourceCommit],
    now: input.now,
  });
}

/**
 * Strategy label → the paths of the templates it selects, with whether the template existed
 * before: it has a binding, and it was not new to the fleet when the rollout in progress began
 * (that rollout's own first pass gave it a binding).
 */
function selectedPaths(input: {
  fleet: Fleet;
  previous: ReadonlyMap<string, PreviousBinding>;
  recorded: ReadonlyMap<string, string>;
}): Map<string, Map<string, boolean>> {
  const newInRollout = new Map<string, ReadonlySet<string>>();
  for (const text of input.recorded.values()) {
    const state = parseRolloutRecord(text);
    if (state && state.phase !== 'Complete' && state.newObjects)
      newInRollout.set(strategyLabel(state.strategy), new Set(state.newObjects));
  }
  const by = new Map<string, Map<string, boolean>>();
  for (const [label, templates] of templatesByStrategy(
    input.fleet.templates,
    input.fleet.rolloutStrategies ?? [],
  )) {
    const paths = new Map<string, boolean>();
    const fresh = newInRollout.get(label);
    for (const t of templates) {
      const path = objectPath(t.ref);
      paths.set(path, input.previous.has(t.key) && !fresh?.has(path));
    }
    by.set(label, paths);
  }
  return by;
}

/**
 * Returns what the render changes of a strategy's objects on one cluster, path by path; `since`
 * is the last pass's look when only some paths can have changed (the render derived from the
 * one it looked at, the same head), which is then updated at those paths only.
 */
async function lookAt(
  ctx: ReadContext,
  memo: RolloutMemo,
  paths: ReadonlyMap<string, boolean>,
  output: ClusterOutput,
  base: ReadonlyMap<string, string>,
  since?: { look: ClusterLook | undefined; paths: ReadonlySet<string> },
): Promise<ClusterLook | undefined> {
  const look: ClusterLook = since?.look
    ? {
        view: since.look.view,
        paths: new Map(since.look.paths),
        rendered: new Map(since.look.rendered),
        acc: since.look.acc.slice(),
      }
    : {
        view: { pending: false, digest: '', paths: [] },
        paths: new Map(),
        rendered: new Map(),
        acc: emptyDigest(),
      };
  const visit = since ? [...since.paths].filter((p) => paths.has(p)) : paths.keys();
  for (const path of visit) {
    const old = look.rendered.get(path);
    if (old) xorInto(look.acc, old);
    look.rendered.delete(path);
    look.paths.delete(path);
    const text = output.files.get(path);
    const beforeOid = base.get(path);
    if (text === undefined && beforeOid === undefined) continue;
    if (text !== undefined) {
      const entry = entryDigest(path, memo.digestOf(path, text));
      xorInto(look.acc, entry);
      look.rendered.set(path, entry);
    }
    if (text !== undefined && beforeOid !== undefined && memo.oidOf(text) === beforeOid) {
      look.paths.set(path, { change: 'same' });
      continue;
    }
    const before = beforeOid === undefined ? undefined : await readText(ctx, beforeOid);
    const change = classifyChange(path, before, text, paths.get(path)!);
    look.paths.set(path, { change, ...(before !== undefined ? { before } : {}) });
  }
  if (look.paths.size === 0) return undefined;
  let pending = false;
  for (const p of look.paths.values()) if (p.change === 'content') pending = true;
  look.view = { pending, digest: digestHex(look.acc), paths: [...look.rendered.keys()].sort() };
  return look;
}

/** A held cluster keeps what it runs of a changed object (with the render's replicas); a new template stays away. */
function holdEdits(look: ClusterLook, output: ClusterOutput, edit: Map<string, string | undefined>): void {
  for (const [path, p] of look.paths) {
    if (p.change !== 'content') continue;
    edit.set(path, p.before === undefined ? undefined : heldText(path, p.before, output.files.get(path)));
  }
}

/** A rolled back cluster gets the selected objects of its last good commit (with the render's replicas). */
async function rollbackEdits(
  ctx: ReadContext,
  lastGood: string,
  look: ClusterLook,
  output: ClusterOutput,
  edit: Map<string, string | undefined>,
): Promise<void> {
  const good = (await readCommitFiles(ctx, lastGood)).files;
  for (const path of look.paths.keys()) {
    const rendered = output.files.get(path);
    if (rendered === undefined) continue;
    const oid = good.get(path);
    edit.set(path, oid === undefined ? undefined : heldText(path, await readText(ctx, oid), rendered));
  }
}

function clusterLinesOf(planned: ReturnType<typeof planRollouts>): Map<string, string[]> {
  const lines = new Map<string, string[]>();
  const completedNow = new Set(planned.decisions.filter((d) => d.type === 'Complete').map((d) => d.strategy));
  for (const [label, state] of planned.states) {
    if (state.phase === 'Complete' && !completedNow.has(label)) continue;
    for (const c of state.clusters) {
      const list = lines.get(c.name) ?? [];
      list.push(clusterRolloutLine(state, c));
      lines.set(c.name, list);
    }
  }
  return lines;
}
