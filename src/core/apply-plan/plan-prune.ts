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
// | annotated gitfleet.io/prune: disabled              | left alone                               | dropped         |
// | controlled by another object (ownerReference)      | left alone: its owner's garbage collection decides | dropped |
// | being deleted already (deletionTimestamp: a finalizer holds it) | hold: reported Terminating, not deleted again | kept until it is gone |
// | a Namespace holding objects the agent does not own | hold: reported NamespaceNotEmpty (deleting it would delete them) | kept, looked at again |
// | a Namespace whose contents could not be listed     | hold: nothing is known                   | kept, retried   |
// | annotated gitfleet.io/preserve-on-deletion: "true" | orphan: our marker is removed, the object stays (Karmada's preserveResourcesOnDeletion) | dropped once done |
// | otherwise                                          | delete                                   | dropped once confirmed; a failure keeps it |
//
// The mass-deletion guard (the hub's rule, docs/architecture.md#mass-deletion-guard) then looks at
// the deletions: deleting every object of a non-empty inventory, or more than `maxDeleteFraction`
// of one holding more than `minObjects`, is refused as a whole (every deletion held) unless
// deletions are allowed. Deletions come in prune order (apply-order.ts): custom resources before
// CRDs, Namespaces last.
import { groupOf, refLabel, type ObjectRef } from '../model/object-ref.js';
import { preserveAnnotation } from '../model/gitfleet-keys.js';
import { clusterLabel, pruneAnnotation } from './agent-keys.js';
import { comparePruneOrder } from './apply-order.js';
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
   * or why they could not be listed. A Namespace without this is not deleted.
   */
  contents?: { foreign: readonly string[] } | { unknown: string };
}

/** The agent's thresholds: the same guard as the hub's. */
export type PruneGuard = DeletionGuard;

export interface PlanPruneInput {
  cluster: string;
  inventory: Inventory;
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
}

export type LeaveReason = 'Gone' | 'NotOwned' | 'Kept' | 'Controlled';
export type HoldReason = 'NotListed' | 'MassDeletionGuard' | 'Terminating' | 'NamespaceNotEmpty';

/** Holds that wait on the cluster, not on the agent: the pass did all it may, so they do not make it incomplete. */
export const waitingHolds: ReadonlySet<HoldReason> = new Set(['Terminating', 'NamespaceNotEmpty']);

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
  const marker = facts.labels?.[clusterLabel];
  if (marker !== input.cluster) {
    const now = marker === undefined ? `no ${clusterLabel} label` : `${clusterLabel}=${marker}`;
    return leave(
      'NotOwned',
      `not pruned: it no longer carries ${clusterLabel}=${input.cluster} (${now}); left in place`,
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
  if (ref.kind === 'Namespace' && groupOf(ref.apiVersion) === '') {
    const contents = facts.contents ?? { unknown: 'not looked at' };
    if ('unknown' in contents) {
      return hold(
        'NotListed',
        `${subject}: not pruned: what it holds could not be listed (${contents.unknown}); retried next pass`,
      );
    }
    if (contents.foreign.length > 0) {
      const shown = contents.foreign.slice(0, 5).join(', ');
      const more = contents.foreign.length > 5 ? `, … ${contents.foreign.length - 5} more` : '';
      return hold(
        'NamespaceNotEmpty',
        `${subject}: not pruned: it holds ${contents.foreign.length} object(s) the agent does not own (${shown}${more}); kept until they are gone`,
      );
    }
  }
  if (facts.annotations?.[preserveAnnotation] === 'true') plan.orphans.push(ref);
  else plan.deletions.push(ref);
}

function guardRefusal(input: PlanPruneInput, deleting: number): string | undefined {
  if (deleting === 0 || input.allowDeletions) return undefined;
  const total = input.inventory.size;
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
