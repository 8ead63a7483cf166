// One cluster branch in a pass: compare the render with the branch's current tree and, when
// they differ and the mass-deletion guard allows it, build the new tree from the current one
// (only the directories on changed paths are rewritten) and commit it on top.
import type { Diagnostic } from '../../core/model/diagnostic.js';
import type { FleetConfig } from '../../core/model/fleet-config.js';
import { renderCommitMessage, type RenderCommitInput } from '../../core/publish/commit-message.js';
import { endpointsFromOf } from '../../core/publish/endpoints-from.js';
import { planClusterUpdate, type BranchChange } from '../../core/publish/plan-cluster-update.js';
import { allowDeletionsTrailer } from '../../core/publish/commit-trailers.js';
import type { ClusterEvictions } from '../../core/failover/eviction-allowance.js';
import type { ClusterOutput } from '../../core/render/cluster-output.js';
import type { ClusterPassOutcome } from './hub-pass-result.js';
import type { SourceProvenance } from '../../core/model/source-provenance.js';
import { changedSources } from '../../core/sources/changed-sources.js';
import { templateSourceLines } from '../../core/sources/describe-provenance.js';
import {
  commitOfPass,
  needsSignature,
  newBlobs,
  treeOfPass,
  type BranchWrite,
  type PassContext,
} from './pass-context.js';

export interface ClusterBranchInput {
  cluster: string;
  ref: string;
  /** The branch's commit now; null when the branch does not exist yet. */
  head: string | null;
  /**
   * What the render is compared with and edited from: the tree and files of the hub's last
   * commit on the branch (the head's, unless someone else moved it; none for a new branch).
   */
  current: { tree: string | null; files: ReadonlyMap<string, string> };
  /** Someone else moved the branch from the hub's last commit: this pass puts the render back. */
  restore?: { lastWritten: string };
  /**
   * The branch moves here from another repository in this pass (place-cluster-branches.ts),
   * named as the commit's Gitfleet-Moved-From trailer names it: its first commit here continues
   * from the hub's last commit there (`restore`), and says so instead of "restored".
   */
  movedFrom?: string;
  output: ClusterOutput;
  guards: FleetConfig['guards'];
  deletionsAllowed: boolean;
  /** What this pass's evictions take off the cluster (core/failover/eviction-allowance.ts). */
  evictions?: ClusterEvictions;
  /** The Gitfleet-Rollout / Gitfleet-Rollback lines of the rollouts the cluster is in (hub-rollout.ts). */
  rolloutLines?: readonly string[];
  /** Rendered file → its template source (Fleet.sourceProvenance): the commit names the sources it changes. */
  sourceProvenance?: ReadonlyMap<string, SourceProvenance>;
}

export interface ClusterBranchPlan {
  outcome: ClusterPassOutcome;
  write?: BranchWrite;
  diagnostic?: Diagnostic;
  /** A refused update: the paths it would have changed, whose binding records must stay too. */
  refusedPaths?: readonly string[];
  /** An update: the paths it changes (a held cluster keeps their records: plan-render-writes.ts). */
  changedPaths?: readonly string[];
}

/** Returns what the pass does to one registered cluster's branch, with the objects to write. */
export async function planClusterBranch(
  ctx: PassContext,
  input: ClusterBranchInput,
): Promise<ClusterBranchPlan> {
  const { output } = input;
  const last = input.head === null ? undefined : ctx.cache.branches.get(input.ref);
  const holdsLast = last !== undefined && last.head === input.head;
  // A head signed with another key than the pass's gets the same tree again, signed (a rotation).
  const resign = input.head !== null && (await needsSignature(ctx, input.head));
  if (holdsLast && last.output === output && !resign) {
    ctx.branches.set(input.ref, last);
    ctx.blobs.carry(input.ref);
    return { outcome: { type: 'unchanged', objects: output.files.size } };
  }
  // The branch holds the render this output was derived from: only the changed paths can differ.
  const changedPaths = holdsLast && output.derived?.from === last.output ? output.derived.paths : undefined;
  const rendered = renderedBlobs(ctx, input, changedPaths);
  const plan = planClusterUpdate({
    cluster: input.cluster,
    current: input.current.files,
    rendered,
    ...(changedPaths ? { changedPaths } : {}),
    held: new Set(output.held.keys()),
    guards: input.guards,
    deletionsAllowed: input.deletionsAllowed,
    ...(input.evictions ? { evictedPaths: input.evictions.paths } : {}),
  });
  if (plan.type === 'unchanged' && (input.restore || resign)) {
    return commitFiles(ctx, input, { files: rendered, changes: [], whole: true });
  }
  if (plan.type === 'unchanged') {
    // A registered cluster with nothing placed on it still gets its branch (an empty tree),
    // so its agent can tell "run nothing" from "not rendered yet".
    if (input.head !== null) {
      ctx.branches.set(input.ref, { head: input.head, output });
      return { outcome: { type: 'unchanged', objects: output.files.size } };
    }
    return commitFiles(ctx, input, { files: rendered, changes: [], whole: true });
  }
  if (plan.type === 'refused') {
    return {
      outcome: { type: 'refused', reason: plan.reason, ...countChanges(plan.changes) },
      diagnostic: refusal(input, plan.reason),
      refusedPaths: plan.changes.map((c) => c.path),
    };
  }
  return commitFiles(ctx, input, { ...plan, whole: !changedPaths });
}

// The blob ids of the rendered files: only the changed paths' when the branch holds the render the
// output was derived from (the others carried), else every file's; what the branch holds is known.
function renderedBlobs(
  ctx: PassContext,
  input: ClusterBranchInput,
  changedPaths: ReadonlySet<string> | undefined,
): Map<string, string> {
  const { output } = input;
  const rendered = new Map<string, string>();
  if (changedPaths) {
    ctx.blobs.carry(input.ref);
    for (const path of changedPaths) {
      const held = input.current.files.get(path);
      if (held !== undefined) ctx.known.add(held);
      const text = output.files.get(path);
      if (text === undefined) ctx.blobs.forget(input.ref, path);
      else rendered.set(path, ctx.blobs.oidAt(input.ref, path, text));
    }
  } else {
    for (const oid of input.current.files.values()) ctx.known.add(oid);
    for (const [path, text] of output.files) rendered.set(path, ctx.blobs.oidAt(input.ref, path, text));
  }
  return rendered;
}

/**
 * Returns the Gitfleet-Endpoints-From values of a commit's changed EndpointSlices: an added or
 * changed slice from the render, a removed one from the render this pass last wrote, when the
 * hub still holds it (a hub that just started names the added and changed ones only).
 */
function endpointsFromOfChanges(
  ctx: PassContext,
  input: ClusterBranchInput,
  changes: readonly BranchChange[],
): { endpointsFrom?: string[] } {
  const before = ctx.cache.branches.get(input.ref)?.output.files;
  const texts: string[] = [];
  for (const c of changes) {
    if (!c.path.includes('/EndpointSlice.discovery.k8s.io/')) continue;
    const text = c.change === 'removed' ? before?.get(c.path) : input.output.files.get(c.path);
    if (text !== undefined) texts.push(text);
  }
  const endpointsFrom = texts.length > 0 ? endpointsFromOf(texts) : [];
  return endpointsFrom.length > 0 ? { endpointsFrom } : {};
}

/** Returns the Gitfleet-Template-Source lines of the sources whose objects the changes touch. */
function sourcesOfChanges(
  ctx: PassContext,
  input: ClusterBranchInput,
  changes: readonly BranchChange[],
): { templateSources?: string[] } {
  if (input.sourceProvenance === undefined) return {};
  const before = ctx.cache.branches.get(input.ref)?.output.files;
  const texts = changes.map((c) => (c.change === 'removed' ? before : input.output.files)?.get(c.path));
  const lines = templateSourceLines(changedSources(texts, input.sourceProvenance));
  return lines.length > 0 ? { templateSources: lines } : {};
}

/** Returns the commit that puts exactly `files` on the branch, on top of its head. */
async function commitFiles(
  ctx: PassContext,
  input: ClusterBranchInput,
  plan: {
    files: ReadonlyMap<string, string>;
    changes: BranchChange[];
    whole: boolean;
    evictionRemovals?: true;
  },
): Promise<ClusterBranchPlan> {
  const tree = await treeOfPass(ctx, {
    base: input.current.tree,
    files: plan.files,
    changes: treeChanges(input.current.files, plan),
  });
  const message = renderCommitMessage({
    sourceCommit: ctx.sourceCommit.commit,
    sourceRef: ctx.sourceCommit.ref,
    sourceSubject: ctx.sourceCommit.subject,
    changes: plan.changes,
    // Deletions the source commit allows, or an eviction of this pass explains, are passed on
    // to the agent's guard, which traces either back to the hub (judge-deletion-allowance.ts).
    ...((input.deletionsAllowed && plan.changes.some((c) => c.change === 'removed')) || plan.evictionRemovals
      ? { allowDeletionsOn: input.cluster }
      : {}),
    ...(input.evictions && plan.changes.length > 0 ? { evictions: input.evictions.trailers } : {}),
    ...(input.rolloutLines ? { rollout: input.rolloutLines } : {}),
    ...movedOrRestored(input),
    ...endpointsFromOfChanges(ctx, input, plan.changes),
    ...sourcesOfChanges(ctx, input, plan.changes),
  });
  // An empty change list leaves an empty body: no blank line doubled before the trailers.
  // On top of the head, even one someone else put there: a rendered branch only fast-forwards.
  const commit = await commitOfPass(ctx, {
    tree: tree.root,
    parent: input.head ?? input.restore?.lastWritten ?? null,
    message: message.replace(/\n{3,}/g, '\n\n'),
  });
  const added = plan.changes.filter((c) => c.change !== 'removed').map((c) => plan.files.get(c.path)!);
  ctx.branches.set(input.ref, { head: commit.oid, output: input.output });
  return {
    outcome: { type: 'updated', commit: commit.oid, objects: plan.files.size, ...countChanges(plan.changes) },
    write: {
      move: { ref: input.ref, oldOid: input.head, newOid: commit.oid },
      objects: [...newBlobs(ctx, added), ...tree.objects, commit],
    },
    changedPaths: plan.changes.map((c) => c.path),
  };
}

/** Returns the message's note of a branch moved here from another repository, or put back after another writer moved it. */
function movedOrRestored(input: ClusterBranchInput): Partial<RenderCommitInput> {
  const lastWritten = input.restore?.lastWritten ?? input.head;
  if (input.movedFrom !== undefined && lastWritten !== null)
    return { movedFrom: { from: input.movedFrom, lastWritten } };
  return input.restore ? { restoredFrom: { found: input.head, lastWritten: input.restore.lastWritten } } : {};
}

/**
 * Returns the tree edits that turn the current files into the planned ones: the plan's
 * changes, plus the removal of the hub's own files under `.gitfleet/` (a tombstone) that the
 * render no longer holds, which the plan does not list because they are not objects.
 */
function treeChanges(
  current: ReadonlyMap<string, string>,
  plan: { files: ReadonlyMap<string, string>; changes: readonly BranchChange[]; whole: boolean },
): { path: string; oid: string | null }[] {
  const { files } = plan;
  const edits = plan.changes.map((c) => ({
    path: c.path,
    oid: c.change === 'removed' ? null : files.get(c.path)!,
  }));
  // A branch planned at its changed paths holds the last render: no file of the hub's own.
  if (!plan.whole) return edits;
  for (const path of current.keys()) {
    if (path.startsWith('.gitfleet/') && !files.has(path)) edits.push({ path, oid: null });
  }
  return edits;
}

function countChanges(changes: readonly BranchChange[]): { added: number; changed: number; removed: number } {
  const counts = { added: 0, changed: 0, removed: 0 };
  for (const c of changes) counts[c.change]++;
  return counts;
}

function refusal(input: ClusterBranchInput, reason: string): Diagnostic {
  return {
    severity: 'error',
    code: 'DeletionRefused',
    subject: `Cluster/${input.cluster}`,
    cluster: input.cluster,
    message: `${reason.replace(`${input.cluster}: `, '')}; the branch keeps its last good commit. To allow it, push a source commit with the trailer '${allowDeletionsTrailer}: ${input.cluster}' (or 'all')`,
  };
}
