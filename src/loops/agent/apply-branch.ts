// Steps 3 to 7 of an agent pass (run-agent-pass.ts) on a branch that holds objects: the
// inventory extended before anything is applied, the staged apply, the prune (unless a return
// waits for the hub), the inventory after, and the exported EndpointSlices.
import type { ResourceInterpreter } from '../../core/model/resource-interpreter.js';
import { afterPass, sameInventory, withDesired } from '../../core/apply-plan/inventory.js';
import { kindKeyOf } from '../../core/apply-plan/plan-prune.js';
import type { ReturnGate } from '../../core/apply-plan/return-gate.js';
import type { ExportedSlice } from '../../core/model/exported-slice.js';
import type { AgentMemory } from './agent-memory.js';
import { homeOf, type AgentPassOptions } from './agent-pass-options.js';
import { statusBranchRef } from './agent-repo.js';
import type { ApplyContext } from './apply-context.js';
import { applyStaged } from './apply-staged.js';
import { checkPermissions } from './check-permissions.js';
import { collectExports, exportedServices } from './collect-exports.js';
import { findUnchanged } from './find-unchanged.js';
import { locateInventory } from './inventory-location.js';
import { writeInventory, type InventoryLocation } from './inventory-store.js';
import { LiveIndex } from './live-index.js';
import type { ObjectResult } from './object-result.js';
import {
  appliedEntry,
  desiredKeys,
  knownInventory,
  leavingRefs,
  remember,
  seedSettled,
} from './pass-inventory.js';
import { pruneInput } from './prune-input.js';
import { pruneObjects, type PruneOutcome } from './prune-objects.js';
import type { BranchRead } from './read-cluster-branch.js';
import { fleetIdentity } from './read-fleet-identity.js';
import { gateReturn } from './return-handshake.js';
import { stopIfLost } from './until-lost.js';

/** What applying a branch did. */
export interface AppliedBranch {
  objects: ObjectResult[];
  prune?: PruneOutcome;
  gate?: ReturnGate;
  inventoryProblem?: string;
  exports: ExportedSlice[];
}

/** Steps 3 to 7: inventory first, staged apply, prune, inventory after, exports; returns what each did. */
export async function applyBranch(
  opts: AgentPassOptions,
  branch: Extract<BranchRead, { type: 'objects' }>,
  gitReachable: boolean,
  interpreter: ResourceInterpreter | undefined,
  gitDownMs: number | undefined,
): Promise<AppliedBranch> {
  const first = await inventoryFirst(opts, branch);
  const { known, access, before } = first;
  const ctx: ApplyContext = {
    client: opts.client,
    cluster: opts.cluster,
    fleet: first.fleet,
    live: new LiveIndex(opts.client, opts.cluster, access.listScope, observedKinds(opts.memory)),
    memory: opts.memory,
    inventory: before,
    clock: opts.clock,
    ...(interpreter ? { interpreter } : {}),
  };
  const objects = await applyObjects(opts, ctx, access);
  stopIfLost(opts.signal, opts.cluster, 'pruned nothing, wrote no status');
  // Git unreachable: the branch may be stale, so nothing is deleted on its word; nor on the word
  // of an inventory that did not read.
  const mayPrune = gitReachable && known.problem === undefined;
  const gate = mayPrune ? await returnGate(opts, branch.commit, gitDownMs) : undefined;
  const prune = mayPrune
    ? await pruneObjects(ctx, {
        ...(await pruneInput(opts, branch, before, first.desired)),
        existing: known.inventory.size,
        undeletable: access.undeletable,
        ...(gate?.type === 'wait' ? { waitForHub: gate.message } : {}),
      })
    : undefined;
  await inventoryAfter(opts, first, objects, prune);
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

type InventoryFirst = Awaited<ReturnType<typeof inventoryFirst>>;

/** Step 3: the inventory read, the access checked, and the inventory extended before anything is applied. */
async function inventoryFirst(opts: AgentPassOptions, branch: Extract<BranchRead, { type: 'objects' }>) {
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
  return { fleet, at, known, desired, access, before };
}

/** Step 4: the refused and the unchanged objects as they are, the rest applied in stages. */
async function applyObjects(
  opts: AgentPassOptions,
  ctx: ApplyContext,
  access: InventoryFirst['access'],
): Promise<ObjectResult[]> {
  const split = await findUnchanged(ctx, access.allowed);
  return [
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
}

/** Step 6: the inventory after the pass, written when it changed. */
async function inventoryAfter(
  opts: AgentPassOptions,
  { known, at, before }: InventoryFirst,
  objects: ObjectResult[],
  prune: PruneOutcome | undefined,
): Promise<void> {
  const after = afterPass(before, {
    applied: objects.filter((o) => o.applied).map((o) => appliedEntry(o, before)),
    removed: prune?.removed ?? [],
  });
  if (known.writable && !sameInventory(after, before))
    remember(opts.memory, await writeInventory(opts.client, at, after, { exists: true }));
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
