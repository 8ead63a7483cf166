// Step 5 of a pass: what to write on every branch, as objects and ref moves.
import type { GitObject } from '../../adapters/git/git-object.js';
import type { Diagnostic } from '../../core/model/diagnostic.js';
import type { Fleet } from '../../core/model/fleet.js';
import { deletionsAllowedBy } from '../../core/publish/commit-trailers.js';
import type { RenderResult } from '../../core/render/render-fleet.js';
import type { BindingsOutcome, ClusterPassOutcome } from './hub-pass-result.js';
import type { RefMove } from './hub-repo.js';
import { clusterRef } from './hub-refs.js';
import type { BranchWrite, PassContext } from './pass-context.js';
import type { AgentReport } from '../../core/status/status-branch.js';
import { planBindingsBranch } from './plan-bindings-branch.js';
import { planClusterBranch, type ClusterBranchInput, type ClusterBranchPlan } from './plan-cluster-branch.js';
import { planTombstone } from './plan-tombstone.js';
import type { HubState } from './read-hub-state.js';
import { readCommitFiles } from './read-git-state.js';

export interface PassWrites {
  clusters: Record<string, ClusterPassOutcome>;
  bindings: BindingsOutcome;
  /** The guard's refusals. */
  diagnostics: Diagnostic[];
  objects: GitObject[];
  /** Cluster branches by name, then the bindings branch. */
  moves: RefMove[];
}

/** Returns every branch's outcome and the objects and ref moves that carry them out. */
export async function planPassWrites(
  ctx: PassContext,
  input: { fleet: Fleet; render: RenderResult; state: HubState; reports: ReadonlyMap<string, AgentReport> },
): Promise<PassWrites> {
  const { render, state } = input;
  const names = [...new Set([...render.clusters.keys(), ...state.clusterHeads.keys()])].sort();
  const currents = await Promise.all(
    names.map((name) => readCommitFiles(ctx, state.clusterHeads.get(name) ?? null)),
  );
  // Every blob the branches hold now is in the repository: never written again. A cluster
  // branch planned at its changed paths only adds the blobs it holds there (plan-cluster-branch.ts).
  for (const [i, name] of names.entries()) {
    if (!input.render.clusters.has(name)) for (const oid of currents[i]!.files.values()) ctx.known.add(oid);
  }
  for (const oid of state.bindings.current.files.values()) ctx.known.add(oid);
  const writes: BranchWrite[] = [];
  const clusters: Record<string, ClusterPassOutcome> = {};
  const diagnostics: Diagnostic[] = [];
  // A refused cluster keeps its last good commit, so the records of what it runs stay as well:
  // the bindings branch must not say a template left a cluster that still runs it.
  const keep = new Set<string>();
  for (const [i, cluster] of names.entries()) {
    const plan = await planBranchOf(ctx, input, { cluster, current: currents[i]! });
    clusters[cluster] = plan.outcome;
    if (plan.write) writes.push(plan.write);
    if (plan.diagnostic) diagnostics.push(plan.diagnostic);
    for (const path of plan.refusedPaths ?? []) keep.add(path);
  }
  const bindings = await planBindingsBranch(ctx, {
    ...state.bindings,
    bindings: render.bindings,
    placements: render.placements,
    reports: input.reports,
    statusHeads: state.statusHeads,
    keep,
  });
  if (bindings.write) writes.push(bindings.write);
  return {
    clusters,
    bindings: bindings.outcome,
    diagnostics,
    objects: writes.flatMap((w) => w.objects),
    moves: writes.map((w) => w.move),
  };
}

/** A registered cluster's branch follows its render; an unregistered one's gets its tombstone. */
function planBranchOf(
  ctx: PassContext,
  input: { fleet: Fleet; render: RenderResult; state: HubState; reports: ReadonlyMap<string, AgentReport> },
  branch: { cluster: string; current: ClusterBranchInput['current'] },
): Promise<ClusterBranchPlan> {
  const { cluster, current } = branch;
  const { config } = input.fleet;
  const head = input.state.clusterHeads.get(cluster) ?? null;
  const ref = clusterRef(config.branchPrefix, cluster);
  const output = input.render.clusters.get(cluster);
  if (!output) return planTombstone(ctx, { cluster, ref, head: head! });
  return planClusterBranch(ctx, {
    cluster,
    ref,
    head,
    current,
    output,
    guards: config.guards,
    deletionsAllowed: deletionsAllowedBy(ctx.sourceCommit.message)(cluster),
  });
}
