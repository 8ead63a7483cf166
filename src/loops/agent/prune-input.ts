// What the agent's prune step is given (prune-objects.ts): the inventory, the desired objects,
// the guard, and whether deletions are allowed, by the flag or by the head's deletion allowance
// proven to come from the hub (read-deletion-allowance.ts).
import type { Inventory } from '../../core/apply-plan/inventory.js';
import { defaultHubIdentity } from '../../core/apply-plan/hub-identity.js';
import { homeOf, type AgentPassOptions } from './agent-pass-options.js';
import type { PruneInput } from './prune-objects.js';
import { readDeletionAllowance } from './read-deletion-allowance.js';
import type { BranchRead } from './read-cluster-branch.js';
import { describeUnsigned } from './verify-branch-head.js';

/** Returns what prune needs; the head's deletion allowance counts only when proven to come from the hub. */
export async function pruneInput(
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
