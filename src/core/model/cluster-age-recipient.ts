// Where a member cluster's registration holds the age recipient its agent decrypts with
// (docs/secrets.md): an annotation on the Cluster document,
//
//   metadata:
//     annotations:
//       gitfleet.io/age-recipient: age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p
//
// written by `gitfleet cluster join`. A SOPS-encrypted template placed on the cluster must name
// it among its recipients (core/secrets/check-recipient.ts).
import { clusterAnnotationOf } from './cluster-annotation.js';

/** The Cluster annotation holding the agent's age recipient. */
export const clusterAgeRecipientAnnotation = 'gitfleet.io/age-recipient';

/** Returns the recipient a Cluster document's annotation holds, or undefined when it has none. */
export function clusterAgeRecipientOf(document: unknown): string | undefined {
  return clusterAnnotationOf(document, clusterAgeRecipientAnnotation);
}

/** Returns why a recipient is not an age recipient (`age1…` in bech32), or undefined when it is. */
export function checkAgeRecipient(value: string): string | undefined {
  if (/^age1[02-9ac-hj-np-z]{20,}$/.test(value)) return undefined;
  // The value is never quoted: it may be an identity pasted by mistake.
  return value.startsWith('AGE-SECRET-KEY-')
    ? 'an age identity (a private key), which never belongs in the fleet repository'
    : 'not an age recipient (age1...)';
}
