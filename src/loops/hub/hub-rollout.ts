// The rollout stage of a pass (docs/rollout.md), between the render and the branch plans: it
// reads what the pure planner needs from the repository (the texts the clusters run of the
// selected objects, the rollout records, the approvals on the source branch), runs
// core/rollout/plan-rollouts.ts, and turns its answer into the cluster outputs the branches are
// planned from: a held cluster keeps the selected objects it runs (with the scheduler's
// replicas), a rolled back one gets its last good objects, a moved one the render.
import type { Fleet } from '../../core/model/fleet.js';
import type { Diagnostic } from '../../core/model/diagnostic.js';
import type { PreviousBinding } from '../../core/model/binding.js';
import type { RolloutDecision } from '../../core/model/rollout.js';
import type { ClusterOutput } from '../../core/render/cluster-output.js';
import type { RenderResult } from '../../core/render/render-fleet.js';
import type { AgentReport } from '../../core/status/status-branch.js';
import { objectPath } from '../../core/format/object-path.js';
import { classifyChange, contentDigest, heldText, type HeldChange } from '../../core/rollout/held-objects.js';
import { planRollouts, rolloutDir, type ClusterView } from '../../core/rollout/plan-rollouts.js';
import { templatesByStrategy } from '../../core/rollout/rollout-steps.js';
import {
  approvalsOf,
  clusterRolloutLine,
  rolloutDecisionLines,
} from '../../core/rollout/rollout-trailers.js';
import { hashObject } from '../../adapters/git/hash-object.js';
import { readStoredObject } from '../../adapters/git/object-store.js';
import { parseCommitParents } from '../../adapters/git/read-git-object.js';
import { readCommitFiles, readCommitInfo, type ReadContext } from './read-git-state.js';
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
}

/** How far back along the source branch's first parents approvals are looked for. */
const maxApprovalCommits = 200;

/** Returns the stage's outcome, or undefined when the fleet has no strategy and the branch no record. */
export async function planRolloutStage(
  ctx: ReadContext,
  input: {
    now: Date;
    fleet: Fleet;
    render: RenderResult;
    state: HubState;
    reports: ReadonlyMap<string, AgentReport>;
    previous: ReadonlyMap<string, PreviousBinding>;
    sourceCommit: string;
    /** Binding keys a failover decision of this pass moves or that have eviction tasks: never held. */
    exempt: ReadonlySet<string>;
  },
): Promise<RolloutStage | undefined> {
  const strategies = input.fleet.rolloutStrategies ?? [];
  const recorded = await readRecords(ctx, input.state.bindings.current.files);
  if (strategies.length === 0 && recorded.size === 0) return undefined;
  const selected = selectedPaths(input);
  const bases = new Map<string, ReadonlyMap<string, string>>();
  for (const name of input.render.clusters.keys()) {
    bases.set(name, (await readCommitFiles(ctx, input.state.clusterHeads.get(name) ?? null)).files);
  }
  const looks = new Map<string, Map<string, ClusterLook>>();
  const views = new Map<string, Map<string, ClusterView>>();
  for (const [label, paths] of selected) {
    const byCluster = new Map<string, ClusterLook>();
    const viewed = new Map<string, ClusterView>();
    for (const [name, output] of input.render.clusters) {
      const look = await lookAt(ctx, paths, output, bases.get(name)!);
      if (!look) continue;
      byCluster.set(name, look);
      viewed.set(name, look.view);
    }
    looks.set(label, byCluster);
    views.set(label, viewed);
  }
  const planned = planRollouts({
    now: input.now,
    sourceCommit: input.sourceCommit,
    lastSource: input.state.bindings.lastSource,
    strategies,
    clusters: input.fleet.clusters,
    views,
    clusterHeads: input.state.clusterHeads,
    reports: input.reports,
    recorded,
    approvals: strategies.some((s) => s.steps.some((step) => step.approval === 'Manual'))
      ? await readApprovals(ctx, input.sourceCommit, recordedRevisions(recorded))
      : [],
  });
  const clusters = new Map(input.render.clusters);
  const edits = new Map<string, Map<string, string | undefined>>();
  for (const [label, actions] of planned.actions) {
    for (const [cluster, action] of actions) {
      if (action.type === 'move') continue;
      const look = looks.get(label)?.get(cluster);
      const output = input.render.clusters.get(cluster);
      if (!look || !output) continue;
      const edit = edits.get(cluster) ?? new Map<string, string | undefined>();
      edits.set(cluster, edit);
      if (action.type === 'hold') holdEdits(look, output, edit);
      else await rollbackEdits(ctx, action.lastGood, look, output, edit);
    }
  }
  for (const [cluster, edit] of edits) {
    if (edit.size > 0) clusters.set(cluster, editedOutput(input.render.clusters.get(cluster)!, edit));
  }
  return {
    clusters,
    files: planned.files,
    lines: rolloutDecisionLines(planned.decisions),
    decisions: planned.decisions,
    clusterLines: clusterLinesOf(planned),
    diagnostics: planned.diagnostics,
    ...(planned.wakeAt ? { wakeAt: planned.wakeAt } : {}),
  };
}

/** One strategy's objects on one cluster: what the render changes, path by path. */
interface ClusterLook {
  view: ClusterView;
  paths: Map<string, { change: HeldChange; before?: string }>;
}

/** Strategy label → the paths of the templates it selects (with whether the template existed before), failover's left out. */
function selectedPaths(input: {
  fleet: Fleet;
  previous: ReadonlyMap<string, PreviousBinding>;
  exempt: ReadonlySet<string>;
}): Map<string, Map<string, boolean>> {
  const by = new Map<string, Map<string, boolean>>();
  for (const [label, templates] of templatesByStrategy(
    input.fleet.templates,
    input.fleet.rolloutStrategies ?? [],
  )) {
    const paths = new Map<string, boolean>();
    for (const t of templates)
      if (!input.exempt.has(t.key)) paths.set(objectPath(t.ref), input.previous.has(t.key));
    by.set(label, paths);
  }
  return by;
}

async function lookAt(
  ctx: ReadContext,
  paths: ReadonlyMap<string, boolean>,
  output: ClusterOutput,
  base: ReadonlyMap<string, string>,
): Promise<ClusterLook | undefined> {
  const look: ClusterLook = { view: { pending: false, digest: '', paths: [] }, paths: new Map() };
  const rendered: [string, string][] = [];
  for (const [path, existed] of paths) {
    const text = output.files.get(path);
    const beforeOid = base.get(path);
    if (text === undefined && beforeOid === undefined) continue;
    if (text !== undefined) rendered.push([path, text]);
    if (
      text !== undefined &&
      beforeOid !== undefined &&
      hashObject('blob', Buffer.from(text, 'utf8')) === beforeOid
    ) {
      look.paths.set(path, { change: 'same' });
      continue;
    }
    const before = beforeOid === undefined ? undefined : await readText(ctx, beforeOid);
    const change = classifyChange(path, before, text, existed);
    look.paths.set(path, { change, ...(before !== undefined ? { before } : {}) });
  }
  if (look.paths.size === 0) return undefined;
  look.view = {
    pending: [...look.paths.values()].some((p) => p.change === 'content'),
    digest: contentDigest(rendered),
    paths: rendered.map(([path]) => path),
  };
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

/** Returns the output with the edits (text, or undefined: absent) in place; the order of paths is kept. */
function editedOutput(output: ClusterOutput, edit: ReadonlyMap<string, string | undefined>): ClusterOutput {
  const files = new Map<string, string>();
  for (const [path, text] of output.files) {
    if (!edit.has(path)) files.set(path, text);
    else {
      const replaced = edit.get(path);
      if (replaced !== undefined) files.set(path, replaced);
    }
  }
  return { files, held: output.held };
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

async function readRecords(
  ctx: ReadContext,
  files: ReadonlyMap<string, string>,
): Promise<Map<string, string>> {
  const recorded = new Map<string, string>();
  for (const [path, oid] of files)
    if (path.startsWith(rolloutDir)) recorded.set(path, await readText(ctx, oid));
  return recorded;
}

async function readText(ctx: ReadContext, oid: string): Promise<string> {
  const object = await readStoredObject(ctx.store, oid);
  return Buffer.from(object.content).toString('utf8');
}

function recordedRevisions(recorded: ReadonlyMap<string, string>): Set<string> {
  const revisions = new Set<string>();
  for (const text of recorded.values()) {
    const m = /^revision: "?([0-9a-f]{40})"?$/m.exec(text);
    if (m) revisions.add(m[1]!);
  }
  return revisions;
}

/**
 * Returns the approvals on the source branch: from the rendered commit back along first
 * parents until every recorded revision was passed (or maxApprovalCommits), newest first.
 */
async function readApprovals(
  ctx: ReadContext,
  from: string,
  revisions: ReadonlySet<string>,
): Promise<{ commit: string; approvals: string[] }[]> {
  const found: { commit: string; approvals: string[] }[] = [];
  const unseen = new Set(revisions);
  let commit: string | undefined = from;
  for (let i = 0; commit && i < maxApprovalCommits; i++) {
    const { message } = await readCommitInfo(ctx, commit);
    found.push({ commit, approvals: approvalsOf(message) });
    unseen.delete(commit);
    if (unseen.size === 0) break;
    const object = await readStoredObject(ctx.store, commit);
    commit = parseCommitParents(object.content)[0];
  }
  return found;
}
