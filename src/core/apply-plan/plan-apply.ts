// What the agent does with one desired object, given what is live (Flux's shouldSkipApply and
// hasDrifted, fluxcd/pkg ssa/manager_apply.go, with Karmada's conflict resolution):
//
// | live object                          | manifest vs last applied | drift (server dry-run) | decision                         |
// |--------------------------------------|--------------------------|------------------------|----------------------------------|
// | absent                               | any                      | -                      | apply (create)                   |
// | exists without any marker, applied by us before (inventory digest) | same / changed | - | apply with force (correct drift / update): someone removed the marker by hand |
// | exists without our marker            | any                      | -                      | refuse, unless conflict resolution is overwrite: apply with force (take over) |
// | our cluster's marker, another fleet's (ownership.ts) | any        | -                      | refuse, whatever the conflict resolution: a fleet never takes over another's |
// | ours, marked before fleet identities (no gitfleet.io/fleet) | any | -                      | apply with force (update): re-marked with our fleet |
// | ours                                 | changed                  | -                      | apply with force (update)        |
// | ours, not written since we saw it clean | same                  | -                      | skip (no request at all)         |
// | ours, written since                  | same                     | not checked yet        | check drift (dry-run apply)      |
// | ours, written since                  | same                     | clean                  | skip                             |
// | ours, written since                  | same                     | drifted                | apply with force (correct drift) |
//
// Why force on our own objects: a hand edit (`kubectl edit`, `kubectl patch`) moves the fields
// it changed to its own field manager, and a non-forced apply then fails with a conflict, so
// drift could never be corrected. Force only takes the fields our manifest sets; fields it
// does not set (an HPA's spec.replicas, which the hub drops from HPA targets) stay with their
// managers. Force on an object we do not own is a takeover and needs Karmada's conflict
// resolution Overwrite (Karmada: conflictResolution defaults to Abort, pkg/apis/policy/v1alpha1/propagation_types.go).
import { conflictResolutionAnnotation } from '../model/gitfleet-keys.js';
import type { KubeObject } from '../model/kube-object.js';
import { clusterLabel, fleetLabel } from './agent-keys.js';
import { describeOwner, ownershipOf, type OwnerIdentity } from './ownership.js';

/** What is live for a desired object, as far as the decision needs it. */
export type LiveState =
  | { type: 'absent' }
  /**
   * Carries our marker; `settled`: its resourceVersion is one the agent saw match the manifest;
   * `remark`: the marker names no fleet yet (an older agent's), so it is applied again to name ours.
   */
  | { type: 'ours'; settled: boolean; remark?: true }
  /** Exists without our marker; `owner` is another cluster's marker value, if any. */
  | { type: 'foreign'; owner?: string }
  /** Carries our cluster's marker for another fleet (`fleet`: its identity, undefined when it names none). */
  | { type: 'otherFleet'; fleet?: string };

export interface PlanApplyInput {
  cluster: string;
  /** Our fleet's identity, for the message of a refusal. */
  fleet: string;
  /** Digest of the manifest to apply. */
  digest: string;
  /** Digest recorded in the inventory when it was last applied ('' when never). */
  lastAppliedDigest: string;
  live: LiveState;
  conflictResolution: ConflictResolution;
  /** The result of a server dry-run, once one was made. */
  drift?: 'clean' | 'drifted';
}

export type ConflictResolution = 'overwrite' | 'abort';

export type ApplyReason = 'create' | 'update' | 'driftCorrection' | 'takeOver';

export type ApplyDecision =
  | { type: 'skip' }
  | { type: 'checkDrift' }
  | { type: 'apply'; force: boolean; reason: ApplyReason }
  | { type: 'refuse'; message: string };

/** Returns whether an object can be left alone: its manifest is the one last applied and it has not drifted. */
export function shouldSkipApply(input: {
  digest: string;
  lastAppliedDigest: string;
  drifted: boolean;
}): boolean {
  return input.digest !== '' && input.digest === input.lastAppliedDigest && !input.drifted;
}

/** Returns what to do with one desired object (see the table above). */
export function planApply(input: PlanApplyInput): ApplyDecision {
  const live = input.live;
  if (live.type === 'absent') {
    // A manifest we applied before that is gone was deleted by hand: putting it back is drift correction.
    const again = input.digest === input.lastAppliedDigest && input.digest !== '';
    return { type: 'apply', force: false, reason: again ? 'driftCorrection' : 'create' };
  }
  if (live.type === 'otherFleet') {
    const self = { cluster: input.cluster, fleet: input.fleet };
    const owner = describeOwner({ type: 'otherFleet', fleet: live.fleet }, self);
    return {
      type: 'refuse',
      message: `already exists in the cluster and is managed by another fleet's agent (${owner}); left alone: an agent never takes over another fleet's objects`,
    };
  }
  if (live.type === 'foreign') {
    // The inventory says the agent applied it, and no other cluster claims it: the marker was
    // removed by hand, which is drift like any other edit (else it would be "not ours" for good).
    if (live.owner === undefined && input.lastAppliedDigest !== '') {
      const same = input.digest === input.lastAppliedDigest;
      return { type: 'apply', force: true, reason: same ? 'driftCorrection' : 'update' };
    }
    if (input.conflictResolution === 'overwrite') return { type: 'apply', force: true, reason: 'takeOver' };
    return { type: 'refuse', message: foreignMessage(input.cluster, live.owner) };
  }
  if (input.digest !== input.lastAppliedDigest || live.remark)
    return { type: 'apply', force: true, reason: 'update' };
  if (live.settled) return { type: 'skip' };
  if (input.drift === undefined) return { type: 'checkDrift' };
  const drifted = input.drift === 'drifted';
  if (shouldSkipApply({ digest: input.digest, lastAppliedDigest: input.lastAppliedDigest, drifted })) {
    return { type: 'skip' };
  }
  return { type: 'apply', force: true, reason: 'driftCorrection' };
}

function foreignMessage(cluster: string, owner: string | undefined): string {
  const who =
    owner === undefined
      ? `is not managed by gitfleet (no ${clusterLabel} label)`
      : `is managed by the gitfleet agent of cluster ${owner} (${clusterLabel}=${owner}), not ${cluster}`;
  return (
    `already exists in the cluster and ${who}; left alone. To take it over, set the annotation ` +
    `${conflictResolutionAnnotation}: overwrite on the template or conflictResolution: Overwrite in its policy`
  );
}

/** Returns the live state of a desired object from the live object (undefined: absent), the settled flag and whether our inventory holds it. */
export function liveStateOf(
  self: OwnerIdentity,
  live: KubeObject | undefined,
  settled: boolean,
  inInventory: boolean,
): LiveState {
  if (live === undefined) return { type: 'absent' };
  const labels = live.metadata.labels;
  const owner = ownershipOf(labels, self, inInventory);
  switch (owner.type) {
    case 'ours':
      return labels?.[fleetLabel] === self.fleet
        ? { type: 'ours', settled }
        : { type: 'ours', settled, remark: true };
    case 'unmarked':
      return { type: 'foreign' };
    case 'otherCluster':
      return { type: 'foreign', owner: owner.cluster };
    case 'otherFleet':
      return owner.fleet === undefined ? { type: 'otherFleet' } : { type: 'otherFleet', fleet: owner.fleet };
  }
}

/** Returns the conflict resolution a manifest asks for (Karmada's annotation; the hub writes the policy's there). */
export function conflictResolutionOf(manifest: KubeObject): ConflictResolution {
  const value = manifest.metadata.annotations?.[conflictResolutionAnnotation];
  return value?.toLowerCase() === 'overwrite' ? 'overwrite' : 'abort';
}
