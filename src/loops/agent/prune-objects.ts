// Carries out the prune plan (core/apply-plan/plan-prune.ts): reads the live facts of each
// inventory entry that left the branch, plans, then deletes in prune order and removes the
// marker from objects preserved on deletion. A Namespace's and a CRD's contents are read first:
// deleting either deletes what it holds. Entries confirmed gone, left or orphaned leave the
// inventory; a failed deletion stays and is retried by the next pass.
import {
  terminatingMessage,
  planPrune,
  type PruneGuard,
  type PruneLiveFacts,
  type PrunePlan,
} from '../../core/apply-plan/plan-prune.js';
import { clusterLabel } from '../../core/apply-plan/agent-keys.js';
import type { Inventory } from '../../core/apply-plan/inventory.js';
import { applyAsAnnotation, managedLabel } from '../../core/model/gitfleet-keys.js';
import { getPath, type KubeObject } from '../../core/model/kube-object.js';
import { refKey, refLabel, type ObjectRef } from '../../core/model/object-ref.js';
import type { ApplyContext } from './apply-context.js';
import { readNamespaceContents } from './read-namespace-contents.js';
import { readCrdContents } from './read-crd-contents.js';
import { ownershipOf } from '../../core/apply-plan/ownership.js';
import { isCrd } from '../../core/apply-plan/apply-order.js';
import { reviewDeletesAs } from './check-permissions.js';

export interface PruneOutcome {
  plan: PrunePlan;
  deleted: ObjectRef[];
  orphaned: ObjectRef[];
  /** Objects of ours being deleted but still there (finalizers): they stay in the inventory until gone. */
  terminating: { ref: ObjectRef; message: string }[];
  /** Deletions and marker removals that failed (they stay in the inventory). */
  failed: { ref: ObjectRef; message: string }[];
  /** refKeys that leave the inventory. */
  removed: string[];
}

export interface PruneInput {
  inventory: Inventory;
  /** How many entries the inventory held before the pass added the branch's new objects: the guard's base. */
  existing?: number;
  desired: ReadonlySet<string>;
  guard: PruneGuard;
  allowDeletions: boolean;
  allowanceIgnored?: string;
  /** Set while the cluster returns (core/apply-plan/return-gate.ts): every deletion waits for the hub. */
  waitForHub?: string;
  /** refKey → why the agent may not delete it (check-permissions.ts): reported, not sent. */
  undeletable?: ReadonlyMap<string, string>;
}

/** Prunes what left the branch, as far as the plan allows, and returns what happened. */
export async function pruneObjects(ctx: ApplyContext, input: PruneInput): Promise<PruneOutcome> {
  const live = await liveCandidates(ctx, input);
  const plan = planPrune({
    cluster: ctx.cluster,
    fleet: ctx.fleet,
    inventory: input.inventory,
    ...(input.existing === undefined ? {} : { existing: input.existing }),
    desired: input.desired,
    live,
    listedKinds: await ctx.live.listedKinds(),
    guard: input.guard,
    allowDeletions: input.allowDeletions,
    ...(input.allowanceIgnored === undefined ? {} : { allowanceIgnored: input.allowanceIgnored }),
    ...(input.waitForHub === undefined ? {} : { waitForHub: input.waitForHub }),
  });
  const outcome: PruneOutcome = {
    plan,
    deleted: [],
    orphaned: [],
    terminating: plan.held
      .filter((h) => h.reason === 'Terminating')
      .map(({ ref, message }) => ({ ref, message })),
    failed: [],
    removed: plan.left.map((l) => refKey(l.ref)),
  };
  await deletePlanned(ctx, input, live, outcome);
  await unmarkOrphans(ctx, outcome);
  return outcome;
}

/** Returns what prune needs to know of each inventory entry that left the branch and can be read live. */
async function liveCandidates(ctx: ApplyContext, input: PruneInput): Promise<Map<string, PruneLiveFacts>> {
  const candidates: ObjectRef[] = [];
  for (const [key, entry] of input.inventory) if (!input.desired.has(key)) candidates.push(entry.ref);
  const live = new Map<string, PruneLiveFacts>();
  for (const ref of candidates) {
    const facts = await factsOf(ctx, ref);
    if (facts) live.set(refKey(ref), facts);
  }
  return live;
}

/** Sends the plan's deletions the agent may make, each as its object was applied, into `outcome`. */
async function deletePlanned(
  ctx: ApplyContext,
  input: PruneInput,
  live: Map<string, PruneLiveFacts>,
  outcome: PruneOutcome,
): Promise<void> {
  const { deletions } = outcome.plan;
  // A tenant's deletions are asked about as the tenant before any is sent (check-permissions.ts).
  const asTenant = await reviewDeletesAs(
    ctx.client,
    deletions.flatMap((ref) => {
      const as = applyAsOf(live.get(refKey(ref)));
      return as ? [{ ref, as }] : [];
    }),
  );
  for (const ref of deletions) {
    const forbidden = input.undeletable?.get(refKey(ref)) ?? asTenant.get(refKey(ref));
    if (forbidden !== undefined) {
      outcome.failed.push({ ref, message: forbidden });
      continue;
    }
    // Deleted as it was applied: a tenant's object as the tenant (docs/tenants.md#impersonation).
    const as = applyAsOf(live.get(refKey(ref)));
    const result = await ctx.client.delete(ref, as ? { as } : {});
    if (result.type === 'refused')
      outcome.failed.push({ ref, message: `${refLabel(ref)}: delete failed: ${result.refusal.message}` });
    else if (result.type === 'deleted' && result.live) {
      // Still there, held by finalizers: deleted, but not gone, so it stays in the inventory.
      outcome.deleted.push(ref);
      outcome.terminating.push({ ref, message: terminatingMessage(ref, finalizersOf(result.live)) });
    } else done(ctx, outcome, outcome.deleted, ref);
  }
}

/** Removes gitfleet's marker from the plan's orphans, into `outcome`. */
async function unmarkOrphans(ctx: ApplyContext, outcome: PruneOutcome): Promise<void> {
  for (const ref of outcome.plan.orphans) {
    const result = await ctx.client.mergePatch(ref, {
      metadata: { labels: { [clusterLabel]: null, [managedLabel]: null } },
    });
    if (result.type === 'refused')
      outcome.failed.push({
        ref,
        message: `${refLabel(ref)}: removing the marker failed: ${result.refusal.message}`,
      });
    else done(ctx, outcome, outcome.orphaned, ref);
  }
}

function done(ctx: ApplyContext, outcome: PruneOutcome, list: ObjectRef[], ref: ObjectRef): void {
  const key = refKey(ref);
  list.push(ref);
  outcome.removed.push(key);
  ctx.memory.settled.delete(key);
  ctx.memory.corrections.delete(key);
}

/** Returns what prune needs to know of a candidate's live object; undefined when it cannot be read. */
async function factsOf(ctx: ApplyContext, ref: ObjectRef): Promise<PruneLiveFacts | undefined> {
  const listing = await ctx.live.ours(ref);
  if (listing.type === 'error') return undefined;
  let live: KubeObject | undefined = listing.byKey.get(refKey(ref));
  if (!live) {
    // Not among ours: gone, or someone removed or changed the marker. Look it up by name.
    try {
      live = await ctx.client.get(ref);
    } catch {
      return undefined;
    }
  }
  if (!live) return { exists: false };
  const facts: PruneLiveFacts = {
    exists: true,
    ...(live.metadata.labels ? { labels: live.metadata.labels } : {}),
    ...(live.metadata.annotations ? { annotations: live.metadata.annotations } : {}),
    ...controllerOf(live),
    ...(live.metadata['deletionTimestamp'] ? { terminating: { finalizers: finalizersOf(live) } } : {}),
  };
  // What goes with a Namespace or a CRD is looked at only when the agent would delete it.
  const ours = ownershipOf(facts.labels, ctx, true).type === 'ours' && !facts.terminating;
  if (ours && isNamespace(ref)) {
    facts.contents = await readNamespaceContents({
      client: ctx.client,
      self: ctx,
      inventory: ctx.inventory,
      namespace: ref.name,
      concurrency: 8,
    });
  }
  if (ours && isCrd(ref)) {
    facts.contents = await readCrdContents({
      client: ctx.client,
      crd: live,
      self: ctx,
      inventory: ctx.inventory,
    });
  }
  return facts;
}

// Whom the live object says it was applied as: the render's gitfleet.io/apply-as, which the agent
// applied (a template cannot set it: the render strips it). Only a tenant's ServiceAccount is
// taken, so an annotation edited on the cluster can lower the agent's rights, never change whom
// it may act as beyond what its RBAC lets it impersonate.
function applyAsOf(facts: PruneLiveFacts | undefined): string | undefined {
  const as = facts?.annotations?.[applyAsAnnotation];
  return typeof as === 'string' && as.startsWith('system:serviceaccount:') ? as : undefined;
}

function isNamespace(ref: ObjectRef): boolean {
  return ref.kind === 'Namespace' && ref.apiVersion === 'v1';
}

/** Returns the finalizers holding an object: metadata.finalizers, and a Namespace's spec.finalizers. */
function finalizersOf(live: KubeObject): string[] {
  const own = getPath(live, ['metadata', 'finalizers']);
  const spec = getPath(live, ['spec', 'finalizers']);
  return [...(Array.isArray(own) ? own : []), ...(Array.isArray(spec) ? spec : [])].map(String);
}

function controllerOf(live: KubeObject): { controller?: string } {
  const owners = getPath(live, ['metadata', 'ownerReferences']);
  if (!Array.isArray(owners)) return {};
  const owner = owners.find((o) => getPath(o, ['controller']) === true);
  return owner
    ? { controller: `${String(getPath(owner, ['kind']))}/${String(getPath(owner, ['name']))}` }
    : {};
}
