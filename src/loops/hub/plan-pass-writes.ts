// Step 5 of a pass: what to write on every branch, as objects and ref moves.
import { assignStatusRepository, assignedUrl } from '../../core/model/assign-status-repository.js';
import { statusRepositoryPath } from '../../core/model/status-repository.js';
import { withHubFile } from './with-hub-file.js';
import {
  branchCustomizationsPath,
  branchCustomizationsText,
} from '../../core/interpret/branch-customizations.js';
import {
  branchExportsPath,
  branchExportsText,
  providedServices,
  type ProvidedService,
} from '../../core/mcs/provider-exports.js';
import type { GitObject } from '../../adapters/git/git-object.js';
import type { Diagnostic } from '../../core/model/diagnostic.js';
import type { Fleet } from '../../core/model/fleet.js';
import { deletionsAllowedBy } from '../../core/publish/commit-trailers.js';
import { evictionsByCluster, type ClusterEvictions } from '../../core/failover/eviction-allowance.js';
import type { RenderResult } from '../../core/render/render-fleet.js';
import type { ClusterOutput } from '../../core/render/cluster-output.js';
import type { BindingsOutcome, ClusterPassOutcome } from './hub-pass-result.js';
import type { RefMove } from '../../core/model/ref-move.js';
import { clusterRef, clusterRefPrefix } from '../../core/publish/hub-refs.js';
import type { BranchWrite, PassContext } from './pass-context.js';
import type { AgentReport } from '../../core/status/status-branch.js';
import { planBindingsBranch, type FailoverWrites } from './plan-bindings-branch.js';
import { planClusterBranch, type ClusterBranchInput, type ClusterBranchPlan } from './plan-cluster-branch.js';
import { planTombstone } from './plan-tombstone.js';
import type { RenderPlacement } from './place-cluster-branches.js';
import { holdPlan, planStrayTombstones } from './plan-render-writes.js';
import { locationName } from '../../core/publish/render-move.js';
import { quotaStatusFiles } from '../../core/quota/quota-status.js';
import type { RolloutStage } from './hub-rollout.js';
import type { HubState } from './read-hub-state.js';
import { clusterBase } from './cluster-base.js';
import { provenanceByTemplate } from '../../core/sources/provenance-by-template.js';
import type { RefusedDeletion } from '../../core/publish/refusal-trailers.js';

export interface PassWrites {
  clusters: Record<string, ClusterPassOutcome>;
  bindings: BindingsOutcome;
  /** The guard's refusals. */
  diagnostics: Diagnostic[];
  objects: GitObject[];
  /** Cluster branches by name, then the bindings branch. */
  moves: RefMove[];
}

/** What a pass writes from: the fleet, its render, the hub's branches, the reports and the stages' records. */
export interface PassWritesInput {
  fleet: Fleet;
  render: RenderResult;
  state: HubState;
  reports: ReadonlyMap<string, AgentReport>;
  failover?: FailoverWrites;
  /** The rollout stage's records and trailer lines (hub-rollout.ts). */
  rollout?: Pick<RolloutStage, 'files' | 'lines' | 'clusterLines'>;
  /** Where each cluster branch is written, with render repositories (place-cluster-branches.ts). */
  placement?: RenderPlacement;
}

/** Returns every branch's outcome and the objects and ref moves that carry them out. */
export async function planPassWrites(ctx: PassContext, input: PassWritesInput): Promise<PassWrites> {
  const { names, bases } = await readBases(ctx, input);
  const planned = await planClusterWrites(ctx, input, names, bases);
  const { writes } = planned;
  const bindings = await planBindingsWrite(ctx, input, planned);
  if (bindings.write) writes.push(bindings.write);
  return {
    clusters: planned.clusters,
    bindings: bindings.outcome,
    diagnostics: planned.diagnostics,
    objects: writes.flatMap((w) => w.objects),
    moves: writes.map((w) => w.move),
  };
}

// Every cluster with a render or a branch, sorted, and what its branch holds now.
async function readBases(
  ctx: PassContext,
  input: PassWritesInput,
): Promise<{ names: string[]; bases: Awaited<ReturnType<typeof clusterBase>>[] }> {
  const { render, state } = input;
  const names = [...new Set([...render.clusters.keys(), ...state.clusterHeads.keys()])].sort();
  const bases = await Promise.all(
    names.map((name) => clusterBase(ctx, state, name, render.clusters.has(name))),
  );
  const currents = bases.map((b) => b.current);
  // Every blob the branches hold now is in the repository: never written again. A cluster
  // branch planned at its changed paths only adds the blobs it holds there (plan-cluster-branch.ts).
  for (const [i, name] of names.entries()) {
    if (!input.render.clusters.has(name)) for (const oid of currents[i]!.files.values()) ctx.known.add(oid);
  }
  for (const oid of state.bindings.current.files.values()) ctx.known.add(oid);
  return { names, bases };
}

/** The cluster branches' writes and outcomes, and what the bindings branch must keep of them. */
interface ClusterWrites {
  writes: BranchWrite[];
  clusters: Record<string, ClusterPassOutcome>;
  diagnostics: Diagnostic[];
  /** The paths a refused cluster still runs: the bindings branch keeps their records. */
  keep: Set<string>;
  refusedNow: RefusedDeletion[];
}

// Each cluster's branch planned (held where its render repository refused), in name order.
async function planClusterWrites(
  ctx: PassContext,
  input: PassWritesInput,
  names: readonly string[],
  bases: readonly Awaited<ReturnType<typeof clusterBase>>[],
): Promise<ClusterWrites> {
  const out: ClusterWrites = { writes: [], clusters: {}, diagnostics: [], keep: new Set(), refusedNow: [] };
  // A refused cluster keeps its last good commit, so the records of what it runs stay as well:
  // the bindings branch must not say a template left a cluster that still runs it.
  const provided = providedServices(input.fleet);
  const evictions = evictionsByCluster(input.failover?.decisions ?? [], input.render.bindings);
  const placement = input.placement;
  for (const [i, cluster] of names.entries()) {
    const moved = placement?.moved.has(cluster)
      ? { movedFrom: locationName(placement.moved.get(cluster)) }
      : {};
    const planned = await planBranchOf(
      ctx,
      { ...input, provided, evictions },
      {
        cluster,
        current: bases[i]!.current,
        ...(bases[i]!.restore ? { restore: bases[i]!.restore } : {}),
        ...moved,
      },
    );
    const held = placement?.held.get(cluster);
    const plan = held === undefined ? planned : holdPlan(cluster, planned, held);
    out.clusters[cluster] = plan.outcome;
    const at = placement?.location.get(cluster);
    if (plan.write)
      out.writes.push(
        at === undefined ? plan.write : { ...plan.write, move: { ...plan.write.move, repository: at } },
      );
    if (plan.diagnostic) out.diagnostics.push(plan.diagnostic);
    for (const path of plan.refusedPaths ?? []) out.keep.add(path);
    if (plan.outcome.type === 'refused' && plan.diagnostic)
      out.refusedNow.push({ cluster, message: plan.diagnostic.message });
  }
  return out;
}

// The bindings branch over the cluster heads as this pass leaves them (stray tombstones added to `writes`).
async function planBindingsWrite(
  ctx: PassContext,
  input: PassWritesInput,
  planned: ClusterWrites,
): ReturnType<typeof planBindingsBranch> {
  const { render, state, placement } = input;
  const { writes } = planned;
  const heads = new Map(state.clusterHeads);
  for (const w of writes)
    heads.set(w.move.ref.slice(clusterRefPrefix(input.fleet.config.branchPrefix).length), w.move.newOid);
  if (placement)
    writes.push(
      ...(await planStrayTombstones(ctx, placement.strays, (c) =>
        clusterRef(input.fleet.config.branchPrefix, c),
      )),
    );
  return planBindingsBranch(ctx, {
    ...state.bindings,
    ...(placement ? { render: { files: placement.files, held: placement.held } } : {}),
    clusterHeads: heads,
    bindings: render.bindings,
    placements: render.placements,
    reports: input.reports,
    statusHeads: state.statusHeads,
    quotas: quotaStatusFiles(render.quotas ?? [], input.reports),
    ...(input.fleet.sourceProvenance ? { provenance: provenanceByTemplate(input.fleet) } : {}),
    keep: planned.keep,
    refusedNow: planned.refusedNow,
    ...(input.failover ? { failover: input.failover } : {}),
    ...(input.rollout ? { rollout: { files: input.rollout.files, lines: input.rollout.lines } } : {}),
    ...(input.fleet.interpreter
      ? {
          interpreter: input.fleet.interpreter,
          templates: new Map(input.fleet.templates.map((t) => [t.key, t])),
        }
      : {}),
  });
}

/**
 * Returns what a registered cluster's branch holds after a pass: its render plus the hub's own
 * files under `.gitfleet/` (the interpreter customizations, the Services to export), each
 * written when there is something to say or the branch holds one already.
 */
export function clusterBranchOutput(input: {
  fleet: Fleet;
  cluster: string;
  rendered: ClusterOutput;
  provided: readonly ProvidedService[];
  /** The branch's current files (path → anything). */
  current: ReadonlyMap<string, unknown>;
}): ClusterOutput {
  const { rendered, current } = input;
  const customizations = branchCustomizationsText(
    input.fleet.interpreterCustomizations ?? [],
    rendered.files.keys(),
    current.has(branchCustomizationsPath),
  );
  const exports = branchExportsText(input.provided, current.has(branchExportsPath));
  const statusRepository = statusRepositoryText(
    input.fleet,
    input.cluster,
    current.has(statusRepositoryPath),
  );
  return withHubFile(
    withHubFile(withHubFile(rendered, branchCustomizationsPath, customizations), branchExportsPath, exports),
    statusRepositoryPath,
    statusRepository,
  );
}

/**
 * Returns the text of the cluster's `.gitfleet/status-repository`: the URL of the status
 * repository it is assigned (assign-status-repository.ts), so its agent learns where to write
 * without a flag. A cluster on the fleet repository gets no file, or an empty one when its
 * branch held a file before (moved back to the fleet repository).
 */
function statusRepositoryText(fleet: Fleet, cluster: string, hadFile: boolean): string | undefined {
  const registered = fleet.clusters.find((c) => c.name === cluster);
  const url = registered
    ? assignedUrl(assignStatusRepository(registered, fleet.config.statusRepositories))
    : undefined;
  if (url !== undefined) return `${url}\n`;
  return hadFile ? '' : undefined;
}

/** A registered cluster's branch follows its render; an unregistered one's gets its tombstone. */
function planBranchOf(
  ctx: PassContext,
  input: {
    fleet: Fleet;
    render: RenderResult;
    state: HubState;
    reports: ReadonlyMap<string, AgentReport>;
    provided: ReadonlyMap<string, readonly ProvidedService[]>;
    evictions: ReadonlyMap<string, ClusterEvictions>;
    rollout?: Pick<RolloutStage, 'clusterLines'>;
  },
  branch: {
    cluster: string;
    current: ClusterBranchInput['current'];
    restore?: { lastWritten: string };
    movedFrom?: string;
  },
): Promise<ClusterBranchPlan> {
  const { cluster, current } = branch;
  const { config } = input.fleet;
  const head = input.state.clusterHeads.get(cluster) ?? null;
  const evictions = input.evictions.get(cluster);
  const rolloutLines = input.rollout?.clusterLines.get(cluster);
  const ref = clusterRef(config.branchPrefix, cluster);
  const rendered = input.render.clusters.get(cluster);
  if (!rendered) return planTombstone(ctx, { cluster, ref, head: head! });
  const output = clusterBranchOutput({
    fleet: input.fleet,
    cluster,
    rendered,
    provided: input.provided.get(cluster) ?? [],
    current: current.files,
  });
  return planClusterBranch(ctx, {
    cluster,
    ref,
    head,
    current,
    output,
    guards: config.guards,
    deletionsAllowed: deletionsAllowedBy(ctx.sourceCommit.message)(cluster),
    ...(evictions ? { evictions } : {}),
    ...(branch.restore ? { restore: branch.restore } : {}),
    ...(branch.movedFrom !== undefined ? { movedFrom: branch.movedFrom } : {}),
    ...(rolloutLines ? { rolloutLines } : {}),
    ...(input.fleet.sourceProvenance ? { sourceProvenance: input.fleet.sourceProvenance } : {}),
  });
}
