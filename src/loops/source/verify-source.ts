// The verdict on a source commit before it is rendered. `head`: the commit itself must carry a
// good signature. `strict` (Argo CD's strict mode): every commit since the last verified one,
// first-parent and merged ones alike, must; a commit reachable from the last verified one was
// judged before and is not looked at again, and a good commit carrying the seal trailer vouches
// for its own ancestors, so a repository with unsigned history starts from a seal.
import { describeVerdict, type SignatureVerdict } from '../../core/model/signature-verdict.js';
import { parseTrailers } from '../../core/publish/commit-trailers.js';
import { sealTrailer, type SourceVerificationMode } from '../../core/model/source-verification.js';
import { describeSigner } from '../../core/model/signature-verdict.js';
import type { SourcePolicy } from './source-policy.js';
import type { SourceReader } from './source-reader.js';

/** What verification found. */
export type SourceVerdict =
  | { type: 'verified'; head: string; mode: SourceVerificationMode; checked: number; signer: string }
  | {
      type: 'refused';
      head: string;
      mode: SourceVerificationMode;
      checked: number;
      /** The verdict on the first commit that failed (the head, or one in its history). */
      verdict: SignatureVerdict & { ok: false };
      /** The verdict in words, commit first. */
      reason: string;
    };

/** How many commits a strict walk verifies at most before it gives up (and refuses). */
export const maxStrictCommits = 10_000;

/** Returns the verdict on `head` under the policy; `anchor` is the last verified commit, if any. */
export async function verifySource(input: {
  reader: SourceReader;
  policy: SourcePolicy;
  head: string;
  anchor?: string;
  at: Date;
  /** Commits known to be the anchor's ancestors (kept between calls; strict mode fills it). */
  covered?: Set<string>;
}): Promise<SourceVerdict> {
  const { reader, policy, head, at } = input;
  const verify = async (oid: string) => policy.verifier.verify(await reader.commit(oid), at);
  const headVerdict = await verify(head);
  if (!headVerdict.ok) return refused(input, headVerdict, 1);
  const signer = describeSigner(headVerdict.signer);
  if (policy.mode === 'head') return { type: 'verified', head, mode: 'head', checked: 1, signer };
  const covered = input.covered ?? new Set<string>();
  if (input.anchor !== undefined) await coverAncestors(reader, input.anchor, covered);
  const seen = new Set<string>([head]);
  let frontier = isSealed(await reader.commit(head)) ? [] : (await reader.commit(head)).parents;
  let checked = 1;
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const oid of frontier) {
      if (seen.has(oid) || covered.has(oid)) continue;
      seen.add(oid);
      if (++checked > maxStrictCommits) return refused(input, tooFar(oid), checked - 1, tooFar(oid).detail);
      const verdict = await verify(oid);
      if (!verdict.ok) return refused(input, verdict, checked);
      const commit = await reader.commit(oid);
      if (!isSealed(commit)) next.push(...commit.parents);
    }
    frontier = next;
  }
  return { type: 'verified', head, mode: 'strict', checked, signer };
}

function refused(
  input: { head: string; policy: SourcePolicy; anchor?: string },
  verdict: SignatureVerdict & { ok: false },
  checked: number,
  why = describeVerdict(verdict),
): SourceVerdict {
  const inHistory =
    verdict.commit === input.head
      ? ''
      : ` (in the history of ${input.head.slice(0, 12)}, since ${input.anchor ? `the last verified commit ${input.anchor.slice(0, 12)}` : 'the first commit or a seal'})`;
  return {
    type: 'refused',
    head: input.head,
    mode: input.policy.mode,
    checked,
    verdict,
    reason: `${why}${inHistory}`,
  };
}

function tooFar(oid: string): SignatureVerdict & { ok: false } {
  return {
    ok: false,
    commit: oid,
    problem: 'Unsigned',
    detail: `commit ${oid.slice(0, 12)}: more than ${maxStrictCommits} commits to verify; put a signed commit with a ${sealTrailer} trailer on the branch to start from`,
    signer: undefined,
  };
}

function isSealed(commit: { message: string }): boolean {
  return parseTrailers(commit.message).has(sealTrailer);
}

/** Adds every ancestor of `anchor` (itself included) to `covered`, reading only what is not there yet. */
async function coverAncestors(reader: SourceReader, anchor: string, covered: Set<string>): Promise<void> {
  let frontier = [anchor];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const oid of frontier) {
      if (covered.has(oid)) continue;
      covered.add(oid);
      next.push(...(await reader.commit(oid)).parents);
    }
    frontier = next;
  }
}
