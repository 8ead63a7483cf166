// Which objects the agent deletes after an apply: only what it provably owns, right now
// (test/faults/README.md: prune only what is provably ours; Flux ssa/manager_delete.go, Argo CD's
// tracking rules). A candidate is an inventory entry whose object left the cluster branch. For each
// candidate:
//
// | live object                                        | action                                   | inventory entry |
// |----------------------------------------------------|------------------------------------------|-----------------|
// | its kind could not be listed this pass             | hold: nothing is known, nothing is done  | kept, retried   |
// | gone                                               | nothing to do                            | dropped         |
// | no marker, or another cluster's marker             | left alone (someone took it over)        | dropped         |
// | our cluster's marker naming another fleet (ownership.ts) | left alone, reported naming that fleet | dropped      |
// | annotated gitfleet.io/prune: disabled              | left alone                               | dropped         |
// | controlled by another object (ownerReference)      | left alone: its owner's garbage collection decides | dropped |
// | being deleted already (deletionTimestamp: a finalizer holds it) | hold: reported Terminating, not deleted again | kept until it is gone |
// | a Namespace holding objects the agent does not own | hold: reported NamespaceNotEmpty (deleting it would delete them) | kept, looked at again |
// | a Namespace whose contents could not be listed     | hold: nothing is known                   | kept, retried   |
// | a CRD with custom resources the agent does not own | hold: reported CustomResourcesExist (deleting a CRD deletes every resource of its kinds), unless annotated gitfleet.io/prune-crd-with-resources: "true" | kept, looked at again |
// | a CRD whose custom resources could not be listed   | hold: nothing is known (unless opted in as above) | kept, retried |
// | annotated gitfleet.io/preserve-on-deletion: "true" | orphan: our marker is removed, the object stays (Karmada's preserveResourcesOnDeletion) | dropped once done |
// | otherwise                                          | delete                                   | dropped once confirmed; a failure keeps it |
//
// The mass-deletion guard (the hub's rule, docs/architecture.md#mass-deletion-guard) then looks at
// the deletions: deleting every object of a non-empty inventory, or more than `maxDeleteFraction`
// of one holding more than `minObjects`, is refused as a whole (every deletion held) unless
// deletions are allowed. While the cluster returns from being judged down (return-gate.ts),
// every deletion and orphaning left is held (WaitingForHub) until the hub has rendered for the
// return. The share is of the objects the inventory held before this pass added
// the branch's new ones (`existing`): a thousand new objects must not make room for deleting
// everything that was there. Deletions come in prune order (apply-order.ts): custom resources before
// CRDs, Namespaces last.
import { groupOf, refLabel, type ObjectRef } from '../model/object-ref.js';
import { preserveAnnotation } from '../model/gitfleet-keys.js';
import { clusterLabel, pruneAnnotation, pruneCrdWithResourcesAnnotation } from './agent-keys.js';
import { describeOwner, ownershipOf } from './ownership.js';
import { comparePruneOrder, isCrd } from './apply-order.js';
import type { Inventory } from './inventory.js';
import { judgeMassDeletion, type DeletionGuard } from '../model/mass-deletion-guard.js';

/** What the agent read of a candidate's live object. */
export interface PruneLiveFacts {
  exists: boolean;
  labels?: Readonly<Record<string, string>>;
  annotations?: Readonly<Record<string, string>>;
  /** `Kind/name` of an ownerReference with controller: true. */
  controller?: string;
  /** Set when the object is being deleted (metadata.deletionTimestamp), with its finalizers. */
  terminating?: { finalizers: readonly string[] };
  /**
   * For a Namespace: the objects in it the agent does not own (`Kind/namespace/name`, sorted),
   * or why they could not be listed; for a CRD, the same of the custom resources of its kinds.
   * A Namespace or CRD without this is not deleted.
   */
  contents?: { foreign: readonly string[] } | { unknown: string };
}

/** The agent's thresholds: the same guard as the hub's. */
export type PruneGuard = DeletionGuard;

export interface PlanPruneInput {
  cluster: string;
  /** Our fleet's identity: an object marked for another fleet is never pruned. */
  fleet: string;
  inventory: Inventory;
  /** How many entries the inventory held before this pass added the branch's new objects (default: its size). */
  existing?: number;
  /** refKeys of every object in the cluster branch, parsed or not. */
  desired: ReadonlySet<string>;
  /** Live facts per candidate refKey; a candidate without facts counts as not listed. */
  live: ReadonlyMap<string, PruneLiveFacts>;
  /** `group/Kind` of every kind listed successfully this pass. */
  listedKinds: ReadonlySet<string>;
  guard: PruneGuard;
  allowDeletions: boolean;
  /** Why the branch head's Gitfleet-Allow-Deletions trailer was not honoured, when it was not. */
  allowanceIgnored?: string;
  /** Set while the cluster returns (return-gate.ts): why every deletion waits for the hub. */
  waitForHub?: string;
}

export type LeaveReason = 'Gone' | 'NotOwned' | 'Kept' | 'Controlled';
export type HoldReason =
  | 'NotListed'
  | 'MassDeletionGuard'
  | 'Terminating'
  | 'NamespaceNotEmpty'
  | 'CustomResourcesExist'
  | 'WaitingForHub';

/** Holds that wait on the cluster, not on the agent: the pass did all it may, so they do not make it incomplete. */
export const waitingHolds: ReadonlySet<HoldReason> = new Set([
  'Terminating',
  'NamespaceNotEmpty',
  'CustomResourcesExist',
]);

/** Returns the message of an object of ours being deleted, the same on the pass that deleted it and the ones after. */
export function terminatingMessage(ref: ObjectRef, finalizers: readonly string[]): string {
  const held = finalizers.length > 0 ? ` (finalizers: ${finalizers.join(', ')})` : '';
  return `${refLabel(ref)}: deleted, still terminating${held}; kept in the inventory until it is gone`;
}

export interface PrunePlan {
  /** Objects to delete, in prune order. */
  deletions: ObjectRef[];
  /** Objects to keep without our marker (preserve-on-deletion), in prune order. */
  orphans: ObjectRef[];
  /** Entries to drop without touching the object, and why. */
  left: { ref: ObjectRef; reason: LeaveReason; message: string }[];
  /** Entries to keep and retry next pass, and why. */
  held: { ref: ObjectRef; reason: HoldReason; message: string }[];
  /** Set when the mass-deletion guard refused the deletions. */
  guardRefusal?: string;
}

/** Returns the `group/Kind` key listedKinds is made of. */
export function kindKeyOf(ref: Pick<ObjectRef, 'apiVersion' | 'kind'>): string {
  return `${groupOf(ref.apiVersion)}/${ref.kind}`;
}

/** Returns what to delete, orphan, leave and hold among the inventory entries that left the branch. */
export function planPrune(input: PlanPruneInput): PrunePlan {
  const plan: PrunePlan = { deletions: [], orphans: [], left: [], held: [] };
  for (const [key, { ref }] of input.inventory) {
    if (input.desired.has(key)) continue;
    classify(input, key, ref, plan);
  }
  plan.deletions.sort(comparePruneOrder);
  plan.orphans.sort(comparePruneOrder);
  const refusal = guardRefusal(input, plan.deletions.length);
  if (refusal !== undefined) {
    plan.held.push(
      ...plan.deletions.map((ref) => ({ ref, reason: 'MassDeletionGuard' as const, message: refusal })),
    );
    plan.deletions = [];
    plan.guardRefusal = refusal;
  }
  if (input.waitForHub !== undefined) {
    const message = input.waitForHub;
    const waiting = [...plan.deletions, ...plan.orphans].map((ref) => ({
      ref,
      reason: 'WaitingForHub' as const,
      message,
    }));
    plan.held.push(...waiting);
    plan.deletions = [];
    plan.orphans = [];
  }
  return plan;
}

function classify(input: PlanPruneInput, key: string, ref: ObjectRef, plan: PrunePlan): void {
  const facts = input.live.get(key);
  const subject = refLabel(ref);
  if (!input.listedKinds.has(kindKeyOf(ref)) || facts === undefined) {
    const message = `${subject}: not pruned: its kind could not be listed in this pass; retried next pass`;
    plan.held.push({ ref, reason: 'NotListed', message });
    return;
  }
  const leave = (reason: LeaveReason, why: string): void => {
    plan.left.push({ ref, reason, message: `${subject}: ${why}` });
  };
  if (!facts.exists) return leave('Gone', 'already gone');
  const self = { cluster: input.cluster, fleet: input.fleet };
  const owner = ownershipOf(facts.labels, self, true);
  if (owner.type === 'otherFleet') {
    return leave(
      'NotOwned',
      `not pruned: conflict: it belongs to ${describeOwner(owner, self)}; left in place`,
    );
  }
  if (owner.type !== 'ours') {
    return leave(
      'NotOwned',
      `not pruned: it no longer carries ${clusterLabel}=${input.cluster} (${describeOwner(owner, self)}); left in place`,
    );
  }
  if (facts.annotations?.[pruneAnnotation] === 'disabled') {
    return leave('Kept', `not pruned: annotated ${pruneAnnotation}: disabled; left in place`);
  }
  if (facts.controller !== undefined) {
    return leave(
      'Controlled',
      `not pruned: controlled by ${facts.controller}; left to its garbage collection`,
    );
  }
  const hold = (reason: HoldReason, message: string): void => {
    plan.held.push({ ref, reason, message });
  };
  if (facts.terminating) return hold('Terminating', terminatingMessage(ref, facts.terminating.finalizers));
  const held = containerHold(ref, facts);
  if (held !== undefined) return hold(held.reason, held.message);
  if (facts.annotations?.[preserveAnnotation] === 'true') plan.orphans.push(ref);
  else plan.deletions.push(ref);
}

/**
 * Returns why a Namespace or a CRD is not deleted, if it is not: deleting either deletes what it
 * holds (a Namespace's objects, a CRD's custom resources), so each goes only when all of that is
 * the agent's, or, for a CRD, when it is annotated to go anyway.
 */
function containerHold(
  ref: ObjectRef,
  facts: PruneLiveFacts,
): { reason: HoldReason; message: string } | undefined {
  const subject = refLabel(ref);
  const namespace = ref.kind === 'Namespace' && groupOf(ref.apiVersion) === '';
  const crd = isCrd(ref) && facts.annotations?.[pruneCrdWithResourcesAnnotation] !== 'true';
  if (!namespace && !crd) return undefined;
  const contents = facts.contents ?? { unknown: 'not looked at' };
  if ('unknown' in contents) {
    const what = namespace ? 'what it holds' : 'its custom resources';
    return {
      reason: 'NotListed',
      message: `${subject}: not pruned: ${what} could not be listed (${contents.unknown}); retried next pass`,
    };
  }
  if (contents.foreign.length === 0) return undefined;
  const count = contents.foreign.length;
  if (namespace) {
    return {
      reason: 'NamespaceNotEmpty',
      message: `${subject}: not pruned: it holds ${count} object(s) the agent does not own (${shown(contents.foreign)}); kept until they are gone`,
    };
  }
  return {
    reason: 'CustomResourcesExist',
    message: `${subject}: not pruned: ${count} custom resource(s) of its kinds are not the agent's (${shown(contents.foreign)}); deleting the CRD would delete them; kept until they are gone, or annotate it ${pruneCrdWithResourcesAnnotation}: "true"`,
  };
}

/** Returns the first five names and how many more. */
function shown(names: readonly string[]): string {
  const more = names.length > 5 ? `, … ${names.length - 5} more` : '';
  return `${names.slice(0, 5).join(', ')}${more}`;
}

function guardRefusal(input: PlanPruneInput, deleting: number): string | undefined {
  if (deleting === 0 || input.allowDeletions) return undefined;
  const total = input.existing ?? input.inventory.size;
  const cluster = input.cluster;
  const how =
    input.allowanceIgnored === undefined
      ? 'allow it with a Gitfleet-Allow-Deletions trailer'
      : `the Gitfleet-Allow-Deletions trailer on the branch's head was not honoured: ${input.allowanceIgnored}; allow it with that trailer on a source commit the hub renders`;
  const verdict = judgeMassDeletion(total, deleting, input.guard);
  if (verdict.type === 'all') {
    return `${cluster}: pruning refused: it would delete all ${total} objects the agent applied (mass-deletion guard); ${how}`;
  }
  if (verdict.type === 'share') {
    return `${cluster}: pruning refused: it would delete ${deleting} of ${total} objects the agent applied (more than ${verdict.percent}%, mass-deletion guard); ${how}`;
  }
  return undefined;
}
