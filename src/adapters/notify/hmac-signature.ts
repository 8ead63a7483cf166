// The signature of a webhook body, as GitHub and Flux sign theirs: `sha256=<hex HMAC-SHA256 of
// the exact body bytes>` under the receiver's key, in the X-Gitfleet-Signature header.
import { createHmac } from 'node:crypto';

/** The header a webhook delivery carries its signature in. */
export const signatureHeader = 'X-Gitfleet-Signature';

/** Returns `sha256=<hex>` of the body under the key. */
export function hmacSignature(key: string | Uint8Array, body: string): string {
  return `sha256=${createHmac('sha256', key).update(body, 'utf8').digest('hex')}`;
}
