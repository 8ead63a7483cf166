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
import { KubeApiError } from '../../adapters/kube/kube-error.js';
import type { RequestCounts } from '../../adapters/kube/kube-http.js';
import { describeVerdict } from '../../core/model/signature-verdict.js';
import { homeOf, type AgentPassOptions } from './agent-pass-options.js';
import { clusterBranchRef, statusBranchRef } from './agent-repo.js';
import { applyBranch, type AppliedBranch } from './apply-branch.js';
import type { ObjectResult } from './object-result.js';
import type { PruneOutcome } from './prune-objects.js';
import { readClusterBranch, type BranchRead } from './read-cluster-branch.js';
import { refreshRepo } from './refresh-repo.js';
import { reportPass, type StatusOutcome } from './report-pass.js';
import { noteClusterUnreachable, settleReturn } from './return-handshake.js';
import { resolveStatusTarget, type StatusTarget } from './status-target.js';
import { exportedServices, type ExportedService } from './collect-exports.js';
import { stopIfLost, untilLost } from './until-lost.js';
import { verifyBranchHead } from './verify-branch-head.js';
import { decryptBranch } from './decrypt-branch.js';
import { redactSecrets } from './redact-secrets.js';

export type { AgentPassOptions };

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
  const opts = guardedOptions(given);
  const started = opts.clock.now();
  const countsBefore = opts.client.requestCounts();
  const gitDownSince = opts.memory.git.downSinceMs;
  const gitReachable = await refreshRepo(opts.repo, opts.memory, opts.clock);
  const gitDownMs = gitReachable && gitDownSince !== undefined ? opts.clock.now() - gitDownSince : undefined;
  const branch = await readBranch(opts);
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
  const target = await statusTargetOf(opts, branch, gitReachable);
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
  const requests = diffCounts(countsBefore, opts.client.requestCounts());
  const pass = { branch, gitReachable, status, requests, totalMs: opts.clock.now() - started };
  return passResult(opts, {
    ...pass,
    ...(applied ? { applied } : {}),
    ...(clusterUnreachable ? { clusterUnreachable } : {}),
  });
}

// The pass's client: it stops at the Lease's loss (`signal`), and no Secret's value it reads is kept.
function guardedOptions(given: AgentPassOptions): AgentPassOptions {
  const guarded = given.signal
    ? { ...given, client: untilLost(given.client, given.signal, given.cluster) }
    : given;
  return guarded.secrets ? { ...guarded, client: redactSecrets(guarded.client, guarded.secrets) } : guarded;
}

// Step 2: the cluster branch's head, read through the pass memory, verified and decrypted.
async function readBranch(opts: AgentPassOptions): Promise<BranchRead> {
  const read = await readClusterBranch({
    gitdir: opts.repo.gitdir,
    ref: clusterBranchRef(opts.branchPrefix, opts.cluster),
    parsed: opts.memory.parsed,
    ...(opts.memory.branch ? { last: opts.memory.branch } : {}),
  });
  opts.memory.branch = read;
  return decryptBranch(await verifyBranchHead({ ...opts, gitdir: opts.repo.gitdir }, read), opts.secrets);
}

// Where the status goes: resolved when Git answers, else where the last pass wrote it.
async function statusTargetOf(
  opts: AgentPassOptions,
  branch: BranchRead,
  gitReachable: boolean,
): Promise<StatusTarget> {
  const home = homeOf(opts);
  if (!gitReachable) return opts.memory.statusTarget ?? { repo: home };
  return resolveStatusTarget({
    ...opts,
    repo: home,
    ...(opts.statusRepos ? { repos: opts.statusRepos } : {}),
    branch,
  });
}

// What the pass did, as the loop and --once print it.
function passResult(
  opts: AgentPassOptions,
  pass: {
    branch: BranchRead;
    gitReachable: boolean;
    applied?: AppliedBranch;
    clusterUnreachable?: string;
    status: StatusOutcome;
    requests: RequestCounts;
    totalMs: number;
  },
): AgentPassResult {
  const { branch, applied, clusterUnreachable } = pass;
  const returnNotice = applied?.gate?.type === 'wait' ? applied.gate.message : applied?.gate?.note;
  return {
    type: clusterUnreachable ? 'clusterUnreachable' : passType[branch.type],
    cluster: opts.cluster,
    commit: branch.type === 'missing' ? null : branch.commit,
    gitReachable: pass.gitReachable,
    fullyApplied: pass.status.fullyApplied,
    objects: applied?.objects ?? [],
    unparsed: branch.type === 'objects' ? branch.errors : [],
    ...(applied?.prune ? { prune: applied.prune } : {}),
    ...(applied?.inventoryProblem ? { inventoryProblem: applied.inventoryProblem } : {}),
    ...(returnNotice !== undefined ? { returnNotice } : {}),
    ...(branch.type === 'unverified' ? { unverified: describeVerdict(branch.verdict) } : {}),
    status: pass.status,
    exportedServices: branch.type === 'objects' ? exportedServices(branch.objects, branch.exports) : [],
    requests: pass.requests,
    totalMs: pass.totalMs,
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
): Promise<{ applied?: AppliedBranch; clusterUnreachable?: string }> {
  if (branch.type !== 'objects') return {};
  try {
    return { applied: await applyBranch(opts, branch, gitReachable, interpreter, gitDownMs) };
  } catch (error) {
    if (!(error instanceof KubeApiError) || error.refusal.code !== 0) throw error;
    return { clusterUnreachable: error.message };
  }
}

function diffCounts(a: RequestCounts, b: RequestCounts): RequestCounts {
  return { total: b.total - a.total, mutating: b.mutating - a.mutating, dryRun: b.dryRun - a.dryRun };
}
