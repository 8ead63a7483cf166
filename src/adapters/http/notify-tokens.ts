// The doorbell's per-cluster bearer tokens (`hub --notify-tokens FILE`): a YAML or JSON map of
// cluster name → token, or → `sha256:<64 hex digits>`, the digest of the token, so the file the
// hub reads need not hold the secret itself. A presented token is hashed and its digest compared
// with the cluster's in constant time; an unknown cluster is compared with a digest no token has,
// so the answer (and its time) does not say whether the cluster exists. No token value ever goes
// into an error message.
import { createHash, timingSafeEqual } from 'node:crypto';
import yaml from 'js-yaml';
import { GitfleetError } from '../../core/model/gitfleet-error.js';

/** Cluster name → sha256 digest of its token. */
export type NotifyTokens = ReadonlyMap<string, Buffer>;

/** The tokens file does not parse or holds something else than a map of strings. */
export class NotifyTokensError extends GitfleetError<'BadNotifyTokens'> {
  constructor(message: string) {
    super(message, { code: 'BadNotifyTokens', terminal: true });
  }
}

const digestForm = /^sha256:([0-9a-f]{64})$/;

/** Returns the tokens of a file's text (`file` names it in errors); throws NotifyTokensError. */
export function parseNotifyTokens(text: string, file: string): NotifyTokens {
  let parsed: unknown;
  try {
    // JSON is YAML: one parser reads both.
    parsed = yaml.load(text, { schema: yaml.JSON_SCHEMA });
  } catch (error) {
    throw new NotifyTokensError(
      `${file}: not YAML or JSON (${(error as Error).message.split('\n')[0] ?? ''})`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new NotifyTokensError(`${file}: must be a map of cluster name to token`);
  const tokens = new Map<string, Buffer>();
  for (const [cluster, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (typeof value !== 'string' || value.length === 0)
      throw new NotifyTokensError(`${file}: cluster ${cluster}: the token must be a non-empty string`);
    const digest = digestForm.exec(value)?.[1];
    tokens.set(cluster, digest !== undefined ? Buffer.from(digest, 'hex') : sha256(value));
  }
  return tokens;
}

/** A digest no token hashes to in practice: what an unknown cluster is compared with. */
const nobody = sha256('gitfleet doorbell: no such cluster');

/** Returns whether `presented` is the token of `cluster`, in time that does not depend on either. */
export function isTokenOf(tokens: NotifyTokens, cluster: string, presented: string | undefined): boolean {
  const want = tokens.get(cluster);
  const same = timingSafeEqual(sha256(presented ?? ''), want ?? nobody);
  return same && want !== undefined && presented !== undefined;
}

/** Returns the `sha256:<hex>` form of a token, as the tokens file may hold it. */
export function tokenDigestForm(token: string): string {
  return `sha256:${sha256(token).toString('hex')}`;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
