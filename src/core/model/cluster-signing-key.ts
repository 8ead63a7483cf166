// Where a member cluster's registration holds the public half of its agent's signing key
// (docs/onboarding.md): an annotation on the Cluster document, one OpenSSH public key line,
//
//   metadata:
//     annotations:
//       gitfleet.io/signing-key: ssh-ed25519 AAAAC3Nz… gitfleet-agent@member1
//
// written by `gitfleet cluster join`, reviewed like any change to the fleet repository, and
// removed with the registration by `gitfleet cluster leave` (which revokes the key). The hub
// checks the cluster's status, heartbeat and endpoint reports against it (docs/security.md).
import { clusterAnnotationOf } from './cluster-annotation.js';

/** The Cluster annotation holding the agent's public signing key. */
export const clusterSigningKeyAnnotation = 'gitfleet.io/signing-key';

/** Returns the public key line a Cluster document's annotation holds, or undefined when it has none. */
export function clusterSigningKeyOf(document: unknown): string | undefined {
  return clusterAnnotationOf(document, clusterSigningKeyAnnotation);
}
