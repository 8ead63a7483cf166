// The hub's source verification (docs/security.md#source-commits): before a source commit is
// rendered, it is verified under the policy in force (source-policy.ts, verify-source.ts). The
// last verified commit is remembered on the bindings branch (Gitfleet-Source-Verified): the next
// verification reads the policy and the keys from it and, in strict mode, starts its walk there.
// A refused commit is not rendered: the branches keep the last good render, and the refusal is
// recorded once on the bindings branch (Gitfleet-Source-Refused: which commit, who signed it or
// that it is unsigned, and why), beside the log line and the metrics the pass result gives.
import { makeCommit } from '../../adapters/git/make-commit.js';
import { readRef } from '../../adapters/git/read-ref.js';
import { signCommit, type CommitSigner } from '../../adapters/signing/commit-signer.js';
import { isSignedBy } from '../../adapters/signing/is-signed-by.js';
import { readFleetConfig } from '../../core/load/load-fleet.js';
import type { Fleet } from '../../core/model/fleet.js';
import {
  sourceRefusedTrailer,
  sourceVerifiedTrailer,
  type SourceVerification,
} from '../../core/model/source-verification.js';
import { parseTrailers } from '../../core/publish/commit-trailers.js';
import { describeSigner } from '../../core/model/signature-verdict.js';
import type { Logger } from '../runtime/logger.js';
import type { HubRepo } from '../shared/hub-repo.js';
import { sourcePolicyOf, type SourceKeyFlags } from '../shared/source-policy.js';
import { sourceReader, type SourceReader } from '../shared/source-reader.js';
import { verifySource, type SourceVerdict } from '../shared/verify-source.js';
import type { HubPassResult, PassTimings, SourceCommit } from './hub-pass-result.js';
import { readCommitSourceFiles } from './read-source-commit.js';
import type { ReadContext } from './read-git-state.js';
import { moveRefsOfPass, writeObjectsOfPass } from './write-hub-pass.js';

/** What the hub's pass needs for source verification. */
export interface SourceGateOptions {
  repo: HubRepo;
  /** Keys and mode from the hub's flags (outside the repository); absent: the FleetConfig's alone. */
  sourceKeys?: SourceKeyFlags;
  signer?: CommitSigner;
  identity: { name: string; email: string };
  now: () => Date;
  log: Logger;
}

/** Whether the pass may render the source: `open` (nothing to verify), `verified` with the bindings trailer, or `refused`. */
export type SourceGate =
  | { type: 'open' }
  | { type: 'verified'; trailer: string }
  | { type: 'refused'; verdict: Extract<SourceVerdict, { type: 'refused' }>; recorded: string | null };

// Per repository, what the walks learned and the policies of last verified commits.
const memory = new Map<
  string,
  { covered: Set<string>; policies: Map<string, SourceVerification | undefined> }
>();
const warned = new Set<string>();

/** Returns whether the source commit may be rendered; on a refusal, the refusal is recorded on the bindings branch once. */
export async function gateSource(
  opts: SourceGateOptions,
  input: { read: ReadContext; source: SourceCommit; fleet: Fleet },
): Promise<SourceGate> {
  const { repo, log } = opts;
  const seen = memory.get(repo.gitdir) ?? { covered: new Set<string>(), policies: new Map() };
  memory.set(repo.gitdir, seen);
  const reader = sourceReader(repo.gitdir);
  const bindingsRef = `refs/heads/${input.fleet.config.branchPrefix}bindings`;
  const bindings = await bindingsHead(reader, repo.gitdir, bindingsRef, opts.signer, log);
  const anchor = bindings?.anchor;
  const policy =
    anchor === undefined
      ? input.fleet.config.sourceVerification
      : await policyAt(input.read, anchor, seen.policies);
  const resolved = await sourcePolicyOf({
    policy,
    flags: opts.sourceKeys ?? {},
    reader,
    keysCommit: anchor ?? input.source.commit,
  });
  if (resolved === undefined) {
    once(`${repo.gitdir} open`, () =>
      log.info(
        'source commits are not verified (no spec.sourceVerification in the FleetConfig, no --source-allowed-signers); see docs/security.md',
      ),
    );
    return { type: 'open' };
  }
  if (
    anchor === undefined &&
    opts.sourceKeys?.allowedSigners === undefined &&
    opts.sourceKeys?.openpgpKeys === undefined
  )
    once(`${repo.gitdir} tofu ${input.source.commit}`, () =>
      log.warn(
        `source verification starts: nothing was verified before, so the keys are read from ${resolved.keysFrom} itself (trust on first use); later commits are verified with the keys of the last verified one`,
      ),
    );
  const verdict = await verifySource({
    reader,
    policy: resolved,
    head: input.source.commit,
    ...(anchor ? { anchor } : {}),
    at: opts.now(),
    covered: seen.covered,
  });
  if (verdict.type === 'verified') {
    seen.policies.set(input.source.commit, input.fleet.config.sourceVerification);
    return { type: 'verified', trailer: `${verdict.head} by ${verdict.signer}` };
  }
  const line = `${verdict.head}: ${verdict.reason}`;
  if (bindings === undefined || bindings.refused === line)
    return { type: 'refused', verdict, recorded: null };
  return {
    type: 'refused',
    verdict,
    recorded: await recordRefusal(opts, {
      ref: bindingsRef,
      head: bindings.oid,
      message: bindings.message,
      tree: bindings.tree,
      line,
    }),
  };
}

interface BindingsHead {
  oid: string;
  message: string;
  tree: string;
  anchor?: string;
  refused?: string;
}

/** Returns the bindings head and what it records; its record of the last verified commit counts only when this hub signed it (when it signs). */
async function bindingsHead(
  reader: SourceReader,
  gitdir: string,
  ref: string,
  signer: CommitSigner | undefined,
  log: Logger,
): Promise<BindingsHead | undefined> {
  const oid = await readRef(gitdir, ref);
  if (oid === null) return undefined;
  const commit = await reader.commit(oid);
  const trailers = parseTrailers(commit.message);
  const anchor = trailers.get(sourceVerifiedTrailer)?.at(-1)?.split(' ')[0];
  const refused = trailers.get(sourceRefusedTrailer)?.at(-1);
  const head: BindingsHead = {
    oid,
    message: commit.message,
    tree: commit.tree,
    ...(refused ? { refused } : {}),
  };
  if (anchor === undefined) return head;
  if (signer !== undefined && !(await isSignedBy(commit.content, signer))) {
    once(`${gitdir} unsigned bindings ${oid}`, () =>
      log.warn(
        `${ref.replace('refs/heads/', '')} at ${oid.slice(0, 12)} is not signed by this hub's key: its record of the last verified source commit is not used`,
      ),
    );
    return head;
  }
  return { ...head, anchor };
}

async function policyAt(
  read: ReadContext,
  commit: string,
  known: Map<string, SourceVerification | undefined>,
): Promise<SourceVerification | undefined> {
  if (known.has(commit)) return known.get(commit);
  const policy = readFleetConfig((await readCommitSourceFiles(read, commit)).files).sourceVerification;
  known.set(commit, policy);
  return policy;
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

/** Returns the result of a pass whose source was refused. */
export function refusedResult(
  gate: Extract<SourceGate, { type: 'refused' }>,
  source: SourceCommit,
  timings: PassTimings,
): HubPassResult {
  const { verdict } = gate.verdict;
  const signer = verdict.signer ? describeSigner(verdict.signer) : undefined;
  return {
    type: 'sourceRefused',
    source,
    refused: { commit: verdict.commit, problem: verdict.problem, ...(signer ? { signer } : {}) },
    reason: gate.verdict.reason,
    recorded: gate.recorded,
    timings,
    attempts: 1,
  };
}

function once(key: string, say: () => void): void {
  if (warned.has(key)) return;
  if (warned.size > 1000) warned.clear();
  warned.add(key);
  say();
}
