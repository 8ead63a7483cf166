// Whose a live object is, from its ownership labels (agent-keys.ts). The marker names the cluster
// whose agent applied it and, since fleets have identities, the fleet that agent serves: two
// fleet repositories may both have a cluster called member1 on the same API server, and neither
// may touch the other's objects.
//
// | gitfleet.io/cluster | gitfleet.io/fleet | in our inventory | whose                                    |
// |---------------------|-------------------|------------------|------------------------------------------|
// | absent              | any               | any              | nobody's (unmarked)                      |
// | another cluster     | any               | any              | that cluster's agent's                   |
// | ours                | ours              | any              | ours                                     |
// | ours                | another fleet     | any              | that fleet's: never pruned, never taken over |
// | ours                | absent            | yes              | ours: marked by an agent from before fleet identities; re-marked on the next apply |
// | ours                | absent            | no               | unknown fleet's: left alone as another fleet's |
import { clusterLabel, fleetLabel } from './agent-keys.js';

/** The agent asking: its cluster and its fleet's identity. */
export interface OwnerIdentity {
  cluster: string;
  fleet: string;
}

export type Ownership =
  | { type: 'ours' }
  | { type: 'unmarked' }
  | { type: 'otherCluster'; cluster: string }
  /** `fleet` is undefined for a marker without a fleet that our inventory does not hold. */
  | { type: 'otherFleet'; fleet: string | undefined };

/** Returns whose an object is (see the table above); `inInventory`: our inventory holds it. */
export function ownershipOf(
  labels: Readonly<Record<string, string>> | undefined,
  self: OwnerIdentity,
  inInventory: boolean,
): Ownership {
  const cluster = labels?.[clusterLabel];
  if (cluster === undefined) return { type: 'unmarked' };
  if (cluster !== self.cluster) return { type: 'otherCluster', cluster };
  const fleet = labels?.[fleetLabel];
  if (fleet === self.fleet) return { type: 'ours' };
  if (fleet === undefined && inInventory) return { type: 'ours' };
  return { type: 'otherFleet', fleet };
}

/** Returns a few words naming the owner of an object that is not ours, for messages. */
export function describeOwner(owner: Exclude<Ownership, { type: 'ours' }>, self: OwnerIdentity): string {
  switch (owner.type) {
    case 'unmarked':
      return `no ${clusterLabel} label`;
    case 'otherCluster':
      return `${clusterLabel}=${owner.cluster}`;
    case 'otherFleet':
      return owner.fleet === undefined
        ? `${clusterLabel}=${self.cluster} without ${fleetLabel}, and not in this agent's inventory: another fleet's`
        : `${clusterLabel}=${self.cluster} of another fleet (${fleetLabel}=${owner.fleet}, this agent serves ${self.fleet})`;
  }
}
