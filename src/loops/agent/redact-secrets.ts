// The API server's answers can quote what was sent (an invalid field's value): for a decrypted
// Secret that would be plaintext in a status commit or a log line. Every refusal and error
// message that comes back from the cluster is searched for the branch's decrypted values
// (decrypt-branch.ts) and each is replaced by a marker before anyone reads it.
import type { ApiRefusal } from '../../core/model/api-refusal.js';
import type { ClusterApi, WriteResult } from './cluster-api.js';
import type { AgentSecrets } from './decrypt-branch.js';

const MARKER = '<decrypted value hidden>';

/** Returns the text with every decrypted value of the branch replaced by a marker. */
export function redactPlaintext(text: string, plaintexts: ReadonlySet<string>): string {
  let out = text;
  // Longest first, so a value containing another is hidden whole.
  for (const value of [...plaintexts].sort((a, b) => b.length - a.length)) {
    if (value.length >= 4 && out.includes(value)) out = out.split(value).join(MARKER);
  }
  return out;
}

/** Returns `client` with the refusals and errors of its writes cleared of decrypted values. */
export function redactSecrets(client: ClusterApi, secrets: AgentSecrets): ClusterApi {
  const clean = (text: string) => redactPlaintext(text, secrets.plaintexts);
  const cleanRefusal = (refusal: ApiRefusal): ApiRefusal => ({
    ...refusal,
    message: clean(refusal.message),
    ...(refusal.causes
      ? {
          causes: refusal.causes.map((c) =>
            c.message === undefined ? c : { ...c, message: clean(c.message) },
          ),
        }
      : {}),
  });
  const cleanResult = (result: WriteResult): WriteResult =>
    result.type === 'refused' ? { ...result, refusal: cleanRefusal(result.refusal) } : result;
  const cleanThrown = (error: unknown): never => {
    if (error instanceof Error) error.message = clean(error.message);
    throw error;
  };
  return {
    ...bound(client),
    apply: (manifest, opts) => client.apply(manifest, opts).then(cleanResult, cleanThrown),
    mergePatch: (ref, patch) => client.mergePatch(ref, patch).then(cleanResult, cleanThrown),
  };
}

function bound(client: ClusterApi): ClusterApi {
  const out: ClusterApi = {
    get: (ref) => client.get(ref),
    list: (kind, opts) => client.list(kind, opts),
    apply: (manifest, opts) => client.apply(manifest, opts),
    mergePatch: (ref, patch) => client.mergePatch(ref, patch),
    delete: (ref, opts) => client.delete(ref, opts),
    collectionVersion: (kind, opts) => client.collectionVersion(kind, opts),
    watch: (kind, opts) => client.watch(kind, opts),
    served: () => client.served(),
    refreshDiscovery: () => client.refreshDiscovery(),
    readFacts: () => client.readFacts(),
    requestCounts: () => client.requestCounts(),
  };
  const review = client.reviewAccess?.bind(client);
  if (review) out.reviewAccess = review;
  return out;
}
