// Whether one `Gitfleet-Approve` trailer counts (docs/rollout.md#who-may-approve). A strategy
// without spec.approvers counts every one, unverified. A strategy with approvers counts one
// only when:
//
// | check                 | rule                                                                     |
// |-----------------------|--------------------------------------------------------------------------|
// | signature             | the approving commit carries a good signature by one of the approvers'   |
// |                       | keys, valid at the hub's clock (the loop's verdict, passed in as data)   |
// | not the change's own  | the approver is not who made the change rolled out (its revision): not   |
// |                       | the key that signed it, no name (principal, OpenPGP user id) of its      |
// |                       | signer, not its author's email; unless spec.approvers.allowSelfApproval  |
//
// Pure: the signature verdicts and who made each revision come in from loops/hub.
import type { Diagnostic } from '../model/diagnostic.js';
import type { RolloutApprovers, RolloutStrategy } from '../model/rollout.js';
import { approveTrailer } from './rollout-trailers.js';
import {
  describeSigner,
  describeVerdict,
  type SignatureSigner,
  type SignatureVerdict,
} from '../model/signature-verdict.js';

/** Who made a change a rollout rolls out (its revision commit). */
export interface ChangeMaker {
  commit: string;
  /** The author's email, as the commit names it. */
  authorEmail: string;
  /**
   * The key its signature names (`SHA256:…`, an OpenPGP key id or fingerprint), with the names the
   * approvers' keys give it when it is one of theirs; absent: the commit is unsigned.
   */
  signer?: { keyId: string; names: readonly string[] };
}

/** A source commit carrying approvals, and the verdicts on its signature. */
export interface ApprovalCommit {
  commit: string;
  /** Its Gitfleet-Approve values (`<strategy> step <n>`). */
  approvals: readonly string[];
  /** Strategy label → the verdict on its signature against that strategy's approvers (strategies with approvers it approves). */
  verdicts?: ReadonlyMap<string, SignatureVerdict>;
}

/** Whether an approval counts, and who gave it or why not. */
export type ApprovalJudgement =
  | { counted: true; by: string; verified: boolean }
  | { counted: false; commit: string; signer: string; why: string };

/** Returns whether the commit's approval of a strategy's step counts for the rollout of `change`. */
export function judgeApproval(input: {
  commit: ApprovalCommit;
  label: string;
  approvers: RolloutApprovers | undefined;
  /** Who made the revision; undefined when its commit could not be read. */
  change: ChangeMaker | undefined;
}): ApprovalJudgement {
  const { commit, label, approvers, change } = input;
  const short = commit.commit.slice(0, 12);
  if (approvers === undefined) return { counted: true, by: `commit ${short}`, verified: false };
  const verdict = commit.verdicts?.get(label);
  const refuse = (signer: string, why: string): ApprovalJudgement => ({
    counted: false,
    commit: commit.commit,
    signer,
    why,
  });
  if (verdict === undefined) return refuse('unknown', 'its signature was not checked');
  if (!verdict.ok) {
    const signer = verdict.problem === 'Unsigned' ? 'unsigned' : signerText(verdict.signer);
    return refuse(signer, `not signed by one of the strategy's approvers: ${describeVerdict(verdict)}`);
  }
  const signer = describeSigner(verdict.signer);
  if (!approvers.allowSelfApproval) {
    if (change === undefined)
      return refuse(signer, 'the change rolled out cannot be read, so self-approval cannot be ruled out');
    const self = selfApproval(verdict.signer, change);
    if (self !== undefined)
      return refuse(
        signer,
        `the approver made the change rolled out (${change.commit.slice(0, 12)}): ${self}; spec.approvers.allowSelfApproval is false`,
      );
  }
  return { counted: true, by: `${signer} in commit ${short}`, verified: true };
}

/** Returns how the approver is the change's maker, or undefined when not. */
export function selfApproval(approver: SignatureSigner, change: ChangeMaker): string | undefined {
  const names = new Set(approver.names.map((n) => n.toLowerCase()));
  if (change.signer) {
    if (sameKey(approver.keyId, change.signer.keyId)) return 'the same key signed it';
    const shared = change.signer.names.find((n) => names.has(n.toLowerCase()));
    if (shared !== undefined) return `${shared} signed it`;
  }
  const email = change.authorEmail.toLowerCase();
  if (email !== '' && [...names].some((n) => n === email || n.includes(`<${email}>`)))
    return `${change.authorEmail} wrote it`;
  return undefined;
}

/** Whether two key ids name the same key: SSH fingerprints are equal, an OpenPGP key id is the end of its fingerprint. */
function sameKey(a: string, b: string): boolean {
  if (a.startsWith('SHA256:') || b.startsWith('SHA256:')) return a === b;
  const [x, y] = [a.toUpperCase(), b.toUpperCase()];
  return x.length >= 16 && y.length >= 16 && (x.endsWith(y) || y.endsWith(x));
}

function signerText(signer: SignatureSigner | undefined): string {
  return signer ? describeSigner(signer) : 'an unreadable signature';
}

/** What the approvals on the source branch say of one step: approved (by whom), or still waiting (and the approvals that did not count). */
export type StepApproval =
  { type: 'approved'; by: string; verified: boolean } | { type: 'waiting'; refused: RefusedApproval[] };

/** An approval that does not count: its commit, who signed it (or `unsigned`), and why. */
export type RefusedApproval = Extract<ApprovalJudgement, { counted: false }>;

/** Returns whether a commit from the newest back to the rollout's revision (first parents) approves the step with an approval that counts. */
export function findStepApproval(input: {
  approvals: readonly ApprovalCommit[];
  label: string;
  step: number;
  revision: string;
  approvers: RolloutApprovers | undefined;
  change: ChangeMaker | undefined;
}): StepApproval {
  const wanted = `${input.label} step ${input.step}`;
  const refused: RefusedApproval[] = [];
  for (const commit of input.approvals) {
    if (commit.approvals.includes(wanted)) {
      const judged = judgeApproval({
        commit,
        label: input.label,
        approvers: input.approvers,
        change: input.change,
      });
      if (judged.counted) return { type: 'approved', by: judged.by, verified: judged.verified };
      refused.push(judged);
    }
    if (commit.commit === input.revision) break;
  }
  return { type: 'waiting', refused };
}

/** Returns the message of a step waiting for its approval (naming the approvals that did not count) and a warning per such approval. */
export function waitingForApproval(input: {
  strategy: RolloutStrategy;
  label: string;
  step: number;
  steps: number;
  refused: readonly RefusedApproval[];
}): { message: string; diagnostics: Diagnostic[] } {
  const { strategy, label, step, steps } = input;
  const notCounted = input.refused.map((r) => `commit ${r.commit.slice(0, 12)} (${r.signer}): ${r.why}`);
  const message =
    `step ${step}/${steps} waits for approval: push a source commit with the trailer '${approveTrailer}: ${label} step ${step}'` +
    (strategy.approvers ? ", signed by one of the strategy's approvers" : '') +
    (notCounted.length > 0 ? `; not counted: ${notCounted.join('; ')}` : '');
  const diagnostics = notCounted.map((line): Diagnostic => ({
    severity: 'warning',
    code: 'RolloutApprovalRefused',
    subject: `${strategy.kind}/${label}`,
    message: `the approval of step ${step}/${steps} in ${line}: it does not count, the step keeps waiting`,
  }));
  return { message, diagnostics };
}

/** Returns the info diagnostic of a strategy whose approvals are counted without a signature check. */
export function unverifiedApprovals(strategy: RolloutStrategy, label: string): Diagnostic {
  return {
    severity: 'info',
    code: 'RolloutApprovalsUnverified',
    subject: `${strategy.kind}/${label}`,
    message: `approvals are not verified: the strategy names no spec.approvers, so any source commit carrying '${approveTrailer}: ${label} step <n>' approves its Manual steps (docs/rollout.md#who-may-approve)`,
  };
}
