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

/** The Cluster annotation holding the agent's public signing key. */
export const clusterSigningKeyAnnotation = 'gitfleet.io/signing-key';

/** Returns the public key line a Cluster document's annotation holds, or undefined when it has none. */
export function clusterSigningKeyOf(document: unknown): string | undefined {
  if (typeof document !== 'object' || document === null) return undefined;
  const metadata = (document as { metadata?: unknown }).metadata;
  if (typeof metadata !== 'object' || metadata === null) return undefined;
  const annotations = (metadata as { annotations?: unknown }).annotations;
  if (typeof annotations !== 'object' || annotations === null) return undefined;
  const value = (annotations as Record<string, unknown>)[clusterSigningKeyAnnotation];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
