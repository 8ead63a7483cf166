// The hub's source verification (docs/security.md#source-commits): before a source commit is
// rendered, it is verified under the policy in force (source-policy.ts, verify-source.ts). The
// last verified commit is remembered on the bindings branch (Gitfleet-Source-Verified): the next
// verification reads the policy and the keys from it and, in strict mode, starts its walk there.
// A refused commit is not rendered: the pass renders the last verified commit again (so the
// branches keep the last good render while failover, rollouts and restores go on), and the
// refusal is recorded once on the bindings branch (Gitfleet-Source-Refused: which commit, who
// signed it or that it is unsigned, and why), beside the log line and the metrics the pass
// result gives. The record of the last verified commit counts only when the hub's key verifies it.
import { readFleetConfig } from '../../core/load/load-fleet.js';
import type { Fleet } from '../../core/model/fleet.js';
import type { SourceVerification } from '../../core/model/source-verification.js';
import { sourcePolicyOf, type SourcePolicy } from '../source/source-policy.js';
import { sourceReader, type SourceReader } from '../source/source-reader.js';
import { verifySource } from '../source/verify-source.js';
import { noTimings, type HubPassResult, type SourceCommit, type SourceRefusal } from './hub-pass-result.js';
import type { LoadResult, SourceFile } from '../../core/load/load-fleet.js';
import { subjectOf } from './read-git-state.js';
import { readCommitSourceFiles } from './read-source-commit.js';
import type { ReadContext } from './read-git-state.js';
import { bindingsHead, once, refusalOf } from './source-gate-records.js';
import type { SourceGateOptions } from './source-gate-options.js';

export type { SourceGateOptions };

/** What the pass renders: the source (the head, or the last verified commit when the head is refused) and its fleet, or a result when there is nothing it may render. */
export type GatedSource =
  | { type: 'render'; source: SourceCommit; fleet: Fleet; refused?: SourceRefusal }
  | { type: 'refused'; result: HubPassResult };

type Verdict =
  | { type: 'open' }
  | { type: 'verified'; trailer: string }
  | { type: 'refused'; refusal: SourceRefusal; anchor?: { commit: string; trailer: string } };

// Per repository, what the walks learned and the policies of last verified commits.
const memory = new Map<
  string,
  { covered: Set<string>; policies: Map<string, SourceVerification | undefined> }
>();

/**
 * Returns what the pass renders: the head when it passes source verification (or nothing is
 * verified); the last verified commit when the head is refused (the refusal recorded on the
 * bindings branch once, and carried on the pass's bindings commits); a refusal result when
 * nothing was verified before.
 */
export async function gateSource(
  opts: SourceGateOptions,
  input: { read: ReadContext; source: SourceCommit; fleet: Fleet; load: (files: SourceFile[]) => LoadResult },
): Promise<GatedSource> {
  const verdict = await judgeSource(opts, input);
  if (verdict.type === 'open') return { type: 'render', source: input.source, fleet: input.fleet };
  if (verdict.type === 'verified')
    return { type: 'render', source: { ...input.source, verified: verdict.trailer }, fleet: input.fleet };
  const { refusal, anchor } = verdict;
  const fallback = anchor ? await loadAnchor(input, anchor.commit) : undefined;
  if (anchor === undefined || fallback === undefined) {
    const timings = noTimings();
    return {
      type: 'refused',
      result: { type: 'sourceRefused', source: input.source, refused: refusal, timings, attempts: 1 },
    };
  }
  const line = `${input.source.commit}: ${refusal.reason}`;
  return {
    type: 'render',
    source: { ...fallback.source, verified: anchor.trailer, refused: line },
    fleet: fallback.fleet,
    refused: refusal,
  };
}

/** Returns the last verified commit as a source to render, undefined when it no longer loads. */
async function loadAnchor(
  input: { read: ReadContext; source: SourceCommit; load: (files: SourceFile[]) => LoadResult },
  commit: string,
): Promise<{ source: SourceCommit; fleet: Fleet } | undefined> {
  const { message, files } = await readCommitSourceFiles(input.read, commit);
  const loaded = input.load(files);
  if (!loaded.ok) return undefined;
  return {
    source: { ref: input.source.ref, commit, subject: subjectOf(message), message },
    fleet: loaded.fleet,
  };
}

async function judgeSource(
  opts: SourceGateOptions,
  input: { read: ReadContext; source: SourceCommit; fleet: Fleet },
): Promise<Verdict> {
  const { repo } = opts;
  const seen = memory.get(repo.gitdir) ?? { covered: new Set<string>(), policies: new Map() };
  memory.set(repo.gitdir, seen);
  const reader = sourceReader(repo.gitdir);
  const bindingsRef = `refs/heads/${input.fleet.config.branchPrefix}bindings`;
  const bindings = await bindingsHead(reader, { ...opts, ref: bindingsRef });
  const anchor = bindings?.anchor;
  const resolved = await policyInForce(opts, input, { reader, anchor, policies: seen.policies });
  if (resolved === undefined) return { type: 'open' };
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
  const refusal = await refusalOf(opts, verdict, bindings && { ...bindings, ref: bindingsRef });
  const fallback =
    anchor && bindings?.verified ? { anchor: { commit: anchor, trailer: bindings.verified } } : {};
  return { type: 'refused', refusal, ...fallback };
}

/**
 * Returns the policy in force with its keys: the last verified commit's, else the head's;
 * undefined when nothing is verified (said once). Warns once when verification starts on trust.
 */
async function policyInForce(
  opts: SourceGateOptions,
  input: { read: ReadContext; source: SourceCommit; fleet: Fleet },
  at: {
    reader: SourceReader;
    anchor: string | undefined;
    policies: Map<string, SourceVerification | undefined>;
  },
): Promise<SourcePolicy | undefined> {
  const { repo, log } = opts;
  const { anchor } = at;
  const policy =
    anchor === undefined
      ? input.fleet.config.sourceVerification
      : await policyAt(input.read, anchor, at.policies);
  const resolved = await sourcePolicyOf({
    policy,
    flags: opts.sourceKeys ?? {},
    reader: at.reader,
    keysCommit: anchor ?? input.source.commit,
  });
  if (resolved === undefined) {
    once(`${repo.gitdir} open`, () =>
      log.info(
        'source commits are not verified (no spec.sourceVerification in the FleetConfig, no --source-allowed-signers); see docs/security.md',
      ),
    );
    return undefined;
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
  return resolved;
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
