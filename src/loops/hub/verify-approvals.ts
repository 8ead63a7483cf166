// The signature checks behind the rollout stage's approvals (docs/rollout.md#who-may-approve):
// for each strategy naming spec.approvers, the verdict on the signature of every commit that
// approves one of its steps, against the approvers' keys as the rendered source commit holds
// them (judged at the hub's clock), and who made each change rolled out (the key its signature
// names, the approvers' names for that key, its author), for the self-approval check. The
// planner (core/rollout/judge-approval.ts) decides with these as data.
import type { RolloutStrategy } from '../../core/model/rollout.js';
import { strategyLabel } from '../../core/model/rollout.js';
import type { SignatureVerdict } from '../../core/model/signature-verdict.js';
import type { ApprovalCommit, ChangeMaker } from '../../core/rollout/judge-approval.js';
import { readCommitAndBytes, readCommitBytes } from '../../adapters/git/read-typed-object.js';
import type { CommitVerifier } from '../../adapters/signing/commit-verifier.js';
import { signatureKeyIds } from '../../adapters/signing/is-signed-by.js';
import { trustedKeysOf, type TrustedKeysText } from '../../adapters/signing/load-trusted-keys.js';
import { sourceReader } from '../source/source-reader.js';
import type { ReadContext } from './read-git-state.js';

/** The approvals with their verdicts, and who made each revision. */
export interface VerifiedApprovals {
  approvals: ApprovalCommit[];
  changes: Map<string, ChangeMaker>;
}

type Approvers = { ok: true; verifier: CommitVerifier } | { ok: false; why: string };

/** Returns the approvals with the verdicts of the strategies with approvers, and the makers of the revisions. */
export async function verifyApprovals(
  ctx: ReadContext,
  input: {
    strategies: readonly RolloutStrategy[];
    /** The rendered source commit: the approvers' key files are read from it. */
    sourceCommit: string;
    approvals: readonly { commit: string; approvals: readonly string[] }[];
    /** The revisions of the rollouts (recorded, and the rendered commit, which may start one). */
    revisions: Iterable<string>;
    now: Date;
  },
): Promise<VerifiedApprovals> {
  const keyed = input.strategies.filter((s) => s.approvers !== undefined);
  if (keyed.length === 0) return { approvals: [...input.approvals], changes: new Map() };
  const approvers = new Map<string, Approvers>();
  for (const s of keyed) approvers.set(strategyLabel(s), await loadApprovers(ctx, s, input.sourceCommit));
  const approvals: ApprovalCommit[] = [];
  for (const commit of input.approvals) {
    const verdicts = new Map<string, SignatureVerdict>();
    for (const value of commit.approvals) {
      const label = value.replace(/ step \d+$/, '');
      const keys = approvers.get(label);
      if (keys === undefined || verdicts.has(label)) continue;
      verdicts.set(label, await verdictOf(ctx, commit.commit, keys, input.now));
    }
    approvals.push(verdicts.size > 0 ? { ...commit, verdicts } : commit);
  }
  const changes = new Map<string, ChangeMaker>();
  for (const revision of new Set(input.revisions)) {
    const maker = await changeMaker(ctx, revision, approvers, input.now);
    if (maker) changes.set(revision, maker);
  }
  return { approvals, changes };
}

/** Returns the verifier of a strategy's approvers, from the key files the rendered commit holds. */
async function loadApprovers(
  ctx: ReadContext,
  strategy: RolloutStrategy,
  commit: string,
): Promise<Approvers> {
  const { allowedSigners, openpgpKeys } = strategy.approvers!;
  const reader = sourceReader(ctx.store.gitdir);
  const texts: TrustedKeysText[] = [];
  const at = commit.slice(0, 12);
  try {
    for (const path of [allowedSigners, openpgpKeys]) {
      if (path === undefined) continue;
      const text = await reader.file(commit, path);
      if (text === undefined)
        return { ok: false, why: `${path}@${at}: the key file spec.approvers names is not in the commit` };
      texts.push({ text, source: `${path}@${at}` });
    }
    return { ok: true, verifier: (await trustedKeysOf(texts)).verifier };
  } catch (error) {
    return { ok: false, why: (error as Error).message };
  }
}

async function verdictOf(
  ctx: ReadContext,
  oid: string,
  keys: Approvers,
  now: Date,
): Promise<SignatureVerdict> {
  if (!keys.ok) return { ok: false, commit: oid, problem: 'UnknownKey', detail: keys.why, signer: undefined };
  return keys.verifier.verify({ oid, content: await readCommitBytes(ctx.store, oid) }, now);
}

/** Returns who made a revision: its author, the key its signature names and the names the approvers give that key. */
async function changeMaker(
  ctx: ReadContext,
  oid: string,
  approvers: ReadonlyMap<string, Approvers>,
  now: Date,
): Promise<ChangeMaker | undefined> {
  let read: Awaited<ReturnType<typeof readCommitAndBytes>>;
  try {
    read = await readCommitAndBytes(ctx.store, oid);
  } catch {
    return undefined;
  }
  const { content } = read;
  const authorEmail = read.commit.author?.email ?? '';
  const named = await signatureKeyIds(content);
  if (named === undefined) return { commit: oid, authorEmail };
  const names = new Set<string>();
  let keyId = named.keyIds[0] ?? '';
  for (const keys of approvers.values()) {
    if (!keys.ok) continue;
    const verdict = await keys.verifier.verify({ oid, content }, now);
    if (verdict.signer === undefined) continue;
    keyId = verdict.signer.keyId;
    for (const n of verdict.signer.names) names.add(n);
  }
  return { commit: oid, authorEmail, signer: { keyId, names: [...names] } };
}
