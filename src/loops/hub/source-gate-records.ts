// What the hub's source verification keeps on the bindings branch (docs/security.md#source-commits):
// the head's record of the last verified commit (counted only when this hub's key signed it) and
// of the last refusal, and the commit that records a new refusal (the same tree and trailers,
// and the refusal), written and moved as a pass writes.
import { makeCommit } from '../../adapters/git/make-commit.js';
import { readRef } from '../../adapters/git/read-ref.js';
import { signCommit } from '../../adapters/signing/commit-signer.js';
import { signerVerifier } from '../../adapters/signing/signer-verifier.js';
import { sourceRefusedTrailer, sourceVerifiedTrailer } from '../../core/model/source-verification.js';
import { parseTrailers } from '../../core/publish/commit-trailers.js';
import { describeSigner } from '../../core/model/signature-verdict.js';
import type { SourceReader } from '../source/source-reader.js';
import type { SourceVerdict } from '../source/verify-source.js';
import type { SourceRefusal } from './hub-pass-result.js';
import type { SourceGateOptions } from './source-gate-options.js';
import { moveRefsOfPass, writeObjectsOfPass } from './write-hub-pass.js';

const warned = new Set<string>();

/** Returns the refusal of a verdict, recorded on the bindings branch unless it records it already. */
export async function refusalOf(
  opts: SourceGateOptions,
  verdict: Extract<SourceVerdict, { type: 'refused' }>,
  bindings: (BindingsHead & { ref: string }) | undefined,
): Promise<SourceRefusal> {
  const line = `${verdict.head}: ${verdict.reason}`;
  const recorded =
    bindings === undefined || bindings.refused === line
      ? null
      : await recordRefusal(opts, {
          ref: bindings.ref,
          head: bindings.oid,
          message: bindings.message,
          tree: bindings.tree,
          line,
        });
  const signer = verdict.verdict.signer ? describeSigner(verdict.verdict.signer) : undefined;
  return {
    head: verdict.head,
    commit: verdict.verdict.commit,
    problem: verdict.verdict.problem,
    ...(signer ? { signer } : {}),
    reason: verdict.reason,
    recorded,
  };
}

export interface BindingsHead {
  oid: string;
  message: string;
  tree: string;
  anchor?: string;
  /** The whole Gitfleet-Source-Verified value. */
  verified?: string;
  refused?: string;
}

/**
 * Returns the bindings head and what it records; its record of the last verified commit counts
 * only when this hub's key signed that commit (when it signs): verified, since a signature copied
 * from another of its commits names the same key.
 */
export async function bindingsHead(
  reader: SourceReader,
  opts: Pick<SourceGateOptions, 'repo' | 'signer' | 'trustedKeys' | 'log' | 'now'> & { ref: string },
): Promise<BindingsHead | undefined> {
  const { ref, signer, log } = opts;
  const gitdir = opts.repo.gitdir;
  const oid = await readRef(gitdir, ref);
  if (oid === null) return undefined;
  const commit = await reader.commit(oid);
  const trailers = parseTrailers(commit.message);
  const verified = trailers.get(sourceVerifiedTrailer)?.at(-1);
  const anchor = verified?.split(' ')[0];
  const refused = trailers.get(sourceRefusedTrailer)?.at(-1);
  const head: BindingsHead = {
    oid,
    message: commit.message,
    tree: commit.tree,
    ...(refused ? { refused } : {}),
  };
  if (anchor === undefined) return head;
  let verdict = signer && (await (await signerVerifier(signer)).verify(commit, opts.now()));
  if (verdict && !verdict.ok && opts.trustedKeys) verdict = await opts.trustedKeys.verify(commit, opts.now());
  if (verdict && !verdict.ok) {
    once(`${gitdir} unsigned bindings ${oid}`, () =>
      log.warn(
        `${ref.replace('refs/heads/', '')} at ${oid.slice(0, 12)} is not signed by this hub's key: its record of the last verified source commit is not used`,
      ),
    );
    return head;
  }
  return { ...head, anchor, ...(verified ? { verified } : {}) };
}

/** Writes the bindings commit that records the refusal (the same tree and trailers, and the refusal); returns its id. */
async function recordRefusal(
  opts: SourceGateOptions,
  input: { ref: string; head: string; message: string; tree: string; line: string },
): Promise<string> {
  const kept = input.message
    .trimEnd()
    .split('\n')
    .filter((l) => !l.startsWith(`${sourceRefusedTrailer}:`));
  const author = { ...opts.identity, time: Math.floor(opts.now().getTime() / 1000), tzOffsetMinutes: 0 };
  const message = `${kept.join('\n')}\n${sourceRefusedTrailer}: ${input.line}\n`;
  const commit = await signCommit(
    makeCommit({ tree: input.tree, parents: [input.head], author, message }),
    opts.signer,
  );
  const write = {
    repo: opts.repo,
    objects: [commit],
    moves: [{ ref: input.ref, oldOid: input.head, newOid: commit.oid }],
    known: new Set<string>(),
  };
  await writeObjectsOfPass(write);
  await moveRefsOfPass(write);
  return commit.oid;
}

/** Says something once per key (a bounded memory: past 1,000 keys it starts again). */
export function once(key: string, say: () => void): void {
  if (warned.has(key)) return;
  if (warned.size > 1000) warned.clear();
  warned.add(key);
  say();
}
