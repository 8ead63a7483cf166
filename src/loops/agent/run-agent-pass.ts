// One pass of the agent (docs/architecture.md#one-agent-pass), a list of steps that is safe to stop
// at any point:
//
//   1. refresh the repository; when Git cannot be reached, keep going on the branch as last
//      fetched (drift still gets corrected) but prune nothing and write no status;
//   2. read the cluster branch's head; a tombstone or no branch: apply nothing, delete nothing;
//   3. ask whether RBAC allows what the pass will do (check-permissions.ts): what it does not is
//      refused by name and reported; then extend the inventory with every desired object it
//      may apply BEFORE applying anything;
//   4. staged server-side apply (apply-staged.ts), each object's result as data;
//   5. prune what left the branch (prune-objects.ts), unless the cluster is returning from maybe
//      being judged down and the hub has not rendered for its return yet (return-handshake.ts);
//   6. record the applied digests and the pruned objects in the inventory;
//   7. collect the EndpointSlices of the Services the branch's ServiceExports name
//      (collect-exports.ts);
//   8. report every object's result and health, the cluster's status and the exported slices
//      on the status branch.
//
// In the loop, the pass is handed the agent's Lease term as `signal`: once it aborts (another
// agent took the Lease, or the renewal is overdue) the pass sends no further request and stops
// at the next object or step, writing no status (until-lost.ts).
import { BranchInterpreter } from '../../adapters/lua/branch-interpreter.js';
import type { ResourceInterpreter } from '../../core/model/resource-interpreter.js';
import { afterPass, sameInventory, withDesired, type Inventory } from '../../core/apply-plan/inventory.js';
import { kindKeyOf, type PruneGuard } from '../../core/apply-plan/plan-prune.js';
import { defaultHubIdentity } from '../../core/apply-plan/hub-identity.js';
import type { ClusterApi } from './cluster-api.js';
import { KubeApiError } from '../../adapters/kube/kube-error.js';
import type { RequestCounts } from '../../adapters/kube/kube-http.js';
import type { Clock } from '../runtime/clock.js';
import type { AgentMemory } from './agent-memory.js';
import { clusterBranchRef, statusBranchRef, type AgentRepo } from './agent-repo.js';
import type { ApplyContext } from './apply-context.js';
import type { Progress } from '../runtime/progress.js';
import type { ObjectResult } from './object-result.js';
import { applyStaged } from './apply-staged.js';
import { checkPermissions } from './check-permissions.js';
import { findUnchanged } from './find-unchanged.js';
import { writeInventory, type InventoryLocation } from './inventory-store.js';
import {
  appliedEntry,
  desiredKeys,
  knownInventory,
  leavingRefs,
  remember,
  seedSettled,
} from './pass-inventory.js';
import { LiveIndex } from './live-index.js';
import { locateInventory } from './inventory-location.js';
import { fleetIdentity } from './read-fleet-identity.js';
import { gateReturn, noteClusterUnreachable, settleReturn } from './return-handshake.js';
import type { ReturnGate } from '../../core/apply-plan/return-gate.js';
import { pruneObjects, type PruneInput, type PruneOutcome } from './prune-objects.js';
import { readDeletionAllowance } from './read-deletion-allowance.js';
import { readClusterBranch, type BranchRead } from './read-cluster-branch.js';
import { refreshRepo } from './refresh-repo.js';
import { resolveStatusTarget, type StatusRepos } from './status-target.js';
import { reportPass, type StatusOutcome } from './report-pass.js';
import type { PushPacer } from './push-pacer.js';
import type { ExportedSlice } from '../../core/model/exported-slice.js';
import { collectExports, exportedServices, type ExportedService } from './collect-exports.js';
import { stopIfLost, untilLost } from './until-lost.js';
import { describeUnsigned, verifyBranchHead } from './verify-branch-head.js';
import type { CommitVerifier } from '../../adapters/signing/commit-verifier.js';
import type { CommitSigner } from '../../adapters/signing/commit-signer.js';
import { describeVerdict } from '../../core/model/signature-verdict.js';

export interface AgentPassOptions {
  /** Where the cluster branch is read: the fleet repository, or a render repository (agent-branch-repo.ts). */
  repo: AgentRepo;
  /**
   * The fleet repository when `repo` reads the cluster branch from a render repository: where the
   * hub's bindings branch (deletion allowances, the hub's record) and, without a status
   * repository, the agent's status live. Absent: `repo` itself.
   */
  fleetRepo?: () => AgentRepo;
  client: ClusterApi;
  cluster: string;
  /** Prefix of gitfleet's branches (the FleetConfig's branchPrefix), e.g. `gitfleet/`. */
  branchPrefix: string;
  /** Name of the inventory ConfigMap (default gitfleet-inventory-<cluster>; inventory-location.ts). */
  inventoryName?: string;
  /** The fleet's identity (`--fleet`); default: the root commit of the cluster branch (read-fleet-identity.ts). */
  fleet?: string;
  memory: AgentMemory;
  clock: Clock;
  identity: { name: string; email: string };
  guard: PruneGuard;
  /** Whose commits' deletion allowances are honoured (default: the hub's default identity). */
  hubIdentity?: { name: string; email: string };
  /** How long deletions wait for the hub after a return (default 5 min; return-handshake.ts). */
  returnPruneTimeoutMs?: number;
  /** Whether the first pass of the process counts as a return (the loop: yes; `--once`: no). */
  returnOnStart?: boolean;
  /** The heartbeat lease: Git unreachable for longer than this starts a return (default 40 s). */
  leaseDurationMs?: number;
  /** Allow deletions past the guard (besides a Gitfleet-Allow-Deletions trailer on the branch's commit, proven to come from the hub). */
  allowDeletions: boolean;
  concurrency: number;
  crdTimeoutMs: number;
  /** Cluster facts older than this are read again. */
  factsMaxAgeMs: number;
  /** Told when writing the status branch recovered the ref locks a killed writer left (default: nobody). */
  warn?: (message: string) => void;
  /** Told of changes that are not problems (a status repository answering again). */
  info?: (message: string) => void;
  /** Status repositories (status-target.ts); absent: status and heartbeat go to `repo`. */
  statusRepos?: StatusRepos;
  /** Paces the status push (push-pacer.ts); absent: pushed at once (`--once`). */
  pacer?: PushPacer;
  /** Told as the objects are applied (a terminal shows it on long passes). */
  progress?: Progress;
  /**
   * Aborted when the agent stops holding its cluster's Lease: the pass then sends nothing more
   * and ends at the next object or step with NotLeading, without writing status. Absent: runs to the end.
   */
  signal?: AbortSignal;
  /** The keys the cluster branch's head must be signed with (`--trusted-keys`); absent: nothing is verified. */
  verifier?: CommitVerifier;
  /** Signs the status commits (`--signing-key`); absent: unsigned. */
  signer?: CommitSigner;
}

export interface AgentPassResult {
  type: 'applied' | 'tombstoned' | 'noBranch' | 'clusterUnreachable' | 'unverified';
  cluster: string;
  commit: string | null;
  gitReachable: boolean;
  fullyApplied: boolean;
  objects: ObjectResult[];
  unparsed: { path: string; message: string }[];
  prune?: PruneOutcome;
  /** Set when the stored inventory did not read: what was done about it (nothing was pruned). */
  inventoryProblem?: string;
  /** Set when the head is not signed by a trusted key: the verdict in words (nothing was applied or deleted). */
  unverified?: string;
  /** Set when deletions wait for the hub after a return, or stopped waiting in this pass: why. */
  returnNotice?: string;
  status: StatusOutcome;
  /** The Services the branch's ServiceExports name (the loop watches their EndpointSlices). */
  exportedServices: ExportedService[];
  /** Requests this pass made to the API server. */
  requests: RequestCounts;
  totalMs: number;
}

/** Runs one pass and returns what it did; throws only when the cluster or the inventory cannot be read. */
export async function runAgentPass(given: AgentPassOptions): Promise<AgentPassResult> {
  const opts = given.signal
    ? { ...given, client: untilLost(given.client, given.signal, given.cluster) }
    : given;
  const started = opts.clock.now();
  const countsBefore = opts.client.requestCounts();
  const gitDownSince = opts.memory.git.downSinceMs;
  const gitReachable = await refreshRepo(opts.repo, opts.memory, opts.clock);
  const gitDownMs = gitReachable && gitDownSince !== undefined ? opts.clock.now() - gitDownSince : undefined;
  const read = await readClusterBranch({
    gitdir: opts.repo.gitdir,
    ref: clusterBranchRef(opts.branchPrefix, opts.cluster),
    parsed: opts.memory.parsed,
    ...(opts.memory.branch ? { last: opts.memory.branch } : {}),
  });
  opts.memory.branch = read;
  const branch = await verifyBranchHead({ ...opts, gitdir: opts.repo.gitdir }, read);
  const interpreter =
    branch.type === 'objects'
      ? await (opts.memory.interpreter ??= new BranchInterpreter()).of(branch.customizations)
      : undefined;
  stopIfLost(opts.signal, opts.cluster, 'applied nothing, wrote no status');
  const { applied, clusterUnreachable } = await applyIfAnswering(
    opts,
    branch,
    gitReachable,
    interpreter,
    gitDownMs,
  );
  if (clusterUnreachable) noteClusterUnreachable(opts.memory, opts.clock.now());
  // Where the status goes is read after the apply: a status repository's round trip is not
  // part of push → applied.
  const home = homeOf(opts);
  const target = gitReachable
    ? await resolveStatusTarget({
        ...opts,
        repo: home,
        ...(opts.statusRepos ? { repos: opts.statusRepos } : {}),
        branch,
      })
    : (opts.memory.statusTarget ?? { repo: home });
  stopIfLost(opts.signal, opts.cluster, 'wrote no status');
  const status = await reportPass({
    ...opts,
    repo: target.repo,
    target,
    ...(interpreter ? { interpreter } : {}),
    statusRef: statusBranchRef(opts.branchPrefix, opts.cluster),
    branch,
    gitReachable,
    objects: applied?.objects ?? [],
    prune: applied?.prune,
    ...(applied ? { exports: applied.exports } : {}),
    ...(applied?.inventoryProblem ? { inventoryProblem: applied.inventoryProblem } : {}),
    ...(clusterUnreachable ? { clusterUnreachable } : {}),
  });
  settleReturn(opts.memory, applied?.gate, applied?.prune, status);
  const returnNotice = applied?.gate?.type === 'wait' ? applied.gate.message : applied?.gate?.note;
  return {
    type: clusterUnreachable ? 'clusterUnreachable' : passType[branch.type],
    cluster: opts.cluster,
    commit: branch.type === 'missing' ? null : branch.commit,
    gitReachable,
    fullyApplied: status.fullyApplied,
    objects: applied?.objects ?? [],
    unparsed: branch.type === 'objects' ? branch.errors : [],
    ...(applied?.prune ? { prune: applied.prune } : {}),
    ...(applied?.inventoryProblem ? { inventoryProblem: applied.inventoryProblem } : {}),
    ...(returnNotice !== undefined ? { returnNotice } : {}),
    ...(branch.type === 'unverified' ? { unverified: describeVerdict(branch.verdict) } : {}),
    status,
    exportedServices: branch.type === 'objects' ? exportedServices(branch.objects, branch.exports) : [],
    requests: diffCounts(countsBefore, opts.client.requestCounts()),
    totalMs: opts.clock.now() - started,
  };
}

const passType = {
  objects: 'applied',
  tombstoned: 'tombstoned',
  missing: 'noBranch',
  unverified: 'unverified',
} as const;

/**
 * Applies the branch when it holds objects. No answer at all means the cluster is down or cut
 * off: that is reported (the hub taints the cluster NotReady) instead of thrown, with the last
 * object records kept, and the loop retries with backoff.
 */
async function applyIfAnswering(
  opts: AgentPassOptions,
  branch: BranchRead,
  gitReachable: boolean,
  interpreter?: ResourceInterpreter,
  gitDownMs?: number,
): Promise<{ applied?: Awaited<ReturnType<typeof applyBranch>>; clusterUnreachable?: string }> {
  if (branch.type !== 'objects') return {};
  try {
    return { applied: await applyBranch(opts, branch, gitReachable, interpreter, gitDownMs) };
  } catch (error) {
    if (!(error instanceof KubeApiError) || error.refusal.code !== 0) throw error;
    return { clusterUnreachable: error.message };
  }
}

/** Steps 3 to 6: inventory first, staged apply, prune, inventory after. */
async function applyBranch(
  opts: AgentPassOptions,
  branch: Extract<BranchRead, { type: 'objects' }>,
  gitReachable: boolean,
  interpreter: ResourceInterpreter | undefined,
  gitDownMs: number | undefined,
): Promise<{
  objects: ObjectResult[];
  prune?: PruneOutcome;
  gate?: ReturnGate;
  inventoryProblem?: string;
  exports: ExportedSlice[];
}> {
  const { fleet, at } = await ownInventory(opts, branch.commit);
  const known = await knownInventory({ ...opts, fleet }, at);
  const desired = desiredKeys(branch);
  const access = await checkPermissions(opts.client, branch.objects, leavingRefs(known.inventory, desired));
  const before = withDesired(
    known.inventory,
    access.allowed.map((o) => o.ref),
  );
  if (known.writable && (known.unstamped || !sameInventory(before, known.stored)))
    remember(opts.memory, await writeInventory(opts.client, at, before, known));
  seedSettled(opts.memory, before);
  const ctx: ApplyContext = {
    client: opts.client,
    cluster: opts.cluster,
    fleet,
    live: new LiveIndex(opts.client, opts.cluster, access.listScope, observedKinds(opts.memory)),
    memory: opts.memory,
    inventory: before,
    clock: opts.clock,
    ...(interpreter ? { interpreter } : {}),
  };
  const split = await findUnchanged(ctx, access.allowed);
  const objects = [
    ...access.refused,
    ...split.unchanged,
    ...(await applyStaged(ctx, split.rest, {
      concurrency: opts.concurrency,
      crdTimeoutMs: opts.crdTimeoutMs,
      ...(opts.progress ? { progress: opts.progress } : {}),
      ...(opts.signal
        ? { stopIfLost: () => stopIfLost(opts.signal, opts.cluster, 'stopped applying, wrote no status') }
        : {}),
    })),
  ];
  stopIfLost(opts.signal, opts.cluster, 'pruned nothing, wrote no status');
  // Git unreachable: the branch may be stale, so nothing is deleted on its word; nor on the word
  // of an inventory that did not read.
  const mayPrune = gitReachable && known.problem === undefined;
  const gate = mayPrune ? await returnGate(opts, branch.commit, gitDownMs) : undefined;
  const prune = mayPrune
    ? await pruneObjects(ctx, {
        ...(await pruneInput(opts, branch, before, desired)),
        existing: known.inventory.size,
        undeletable: access.undeletable,
        ...(gate?.type === 'wait' ? { waitForHub: gate.message } : {}),
      })
    : undefined;
  const after = afterPass(before, {
    applied: objects.filter((o) => o.applied).map((o) => appliedEntry(o, before)),
    removed: prune?.removed ?? [],
  });
  if (known.writable && !sameInventory(after, before))
    remember(opts.memory, await writeInventory(opts.client, at, after, { exists: true }));
  const exports = await collectExports(
    opts.client,
    opts.cluster,
    exportedServices(branch.objects, branch.exports),
  );
  return {
    objects,
    exports,
    ...(prune ? { prune } : {}),
    ...(gate ? { gate } : {}),
    ...(known.problem === undefined ? {} : { inventoryProblem: known.problem }),
  };
}

/** Returns the fleet the agent serves and where its inventory lives (found once per process). */
async function ownInventory(
  opts: AgentPassOptions,
  head: string,
): Promise<{ fleet: string; at: InventoryLocation }> {
  const fleet = await fleetIdentity({
    given: opts.fleet,
    memory: opts.memory,
    gitdir: opts.repo.gitdir,
    cluster: opts.cluster,
    head,
  });
  const at = (opts.memory.inventoryAt ??= await locateInventory(opts.client, {
    cluster: opts.cluster,
    fleet,
    ...(opts.inventoryName ? { name: opts.inventoryName } : {}),
  }));
  return { fleet, at };
}

/** Returns whether this pass may prune after a return (return-handshake.ts). */
function returnGate(
  opts: AgentPassOptions,
  applied: string,
  gitDownMs: number | undefined,
): Promise<ReturnGate> {
  return gateReturn({
    gitdir: homeOf(opts).gitdir,
    branchGitdir: opts.repo.gitdir,
    statusGitdir: (opts.memory.statusTarget?.repo ?? homeOf(opts)).gitdir,
    branchPrefix: opts.branchPrefix,
    cluster: opts.cluster,
    memory: opts.memory,
    nowMs: opts.clock.now(),
    applied,
    statusRef: statusBranchRef(opts.branchPrefix, opts.cluster),
    ...(opts.returnOnStart !== undefined ? { returnOnStart: opts.returnOnStart } : {}),
    ...(gitDownMs !== undefined ? { gitDownMs } : {}),
    ...(opts.returnPruneTimeoutMs !== undefined ? { timeoutMs: opts.returnPruneTimeoutMs } : {}),
    ...(opts.leaseDurationMs !== undefined ? { leaseDurationMs: opts.leaseDurationMs } : {}),
  });
}

/** Returns the group/Kind of every kind the last report saw objects of in place. */
function observedKinds(memory: AgentMemory): Set<string> {
  const kinds = new Set<string>();
  for (const { record } of memory.observed.values()) kinds.add(kindKeyOf(record.ref));
  return kinds;
}

/** Returns what prune needs; the head's deletion allowance counts only when proven to come from the hub. */
async function pruneInput(
  opts: AgentPassOptions,
  branch: Extract<BranchRead, { type: 'objects' }>,
  inventory: Inventory,
  desired: ReadonlySet<string>,
): Promise<PruneInput> {
  const allowance = await readDeletionAllowance({
    gitdir: homeOf(opts).gitdir,
    branchGitdir: opts.repo.gitdir,
    branchPrefix: opts.branchPrefix,
    cluster: opts.cluster,
    commit: branch.commit,
    message: branch.message,
    hub: opts.hubIdentity ?? defaultHubIdentity,
    trusted: opts.memory.trustedAllowances,
    ...(opts.verifier ? { verify: describeUnsigned(opts.verifier, opts.repo.gitdir, opts.clock) } : {}),
  });
  return {
    inventory,
    desired,
    guard: opts.guard,
    allowDeletions: opts.allowDeletions || allowance.type === 'trusted',
    ...(allowance.type === 'untrusted' ? { allowanceIgnored: allowance.reason } : {}),
  };
}

/** Returns the fleet repository: where the bindings branch and the agent's own status live. */
function homeOf(opts: Pick<AgentPassOptions, 'repo' | 'fleetRepo'>): AgentRepo {
  return opts.fleetRepo?.() ?? opts.repo;
}

function diffCounts(a: RequestCounts, b: RequestCounts): RequestCounts {
  return { total: b.total - a.total, mutating: b.mutating - a.mutating, dryRun: b.dryRun - a.dryRun };
}
