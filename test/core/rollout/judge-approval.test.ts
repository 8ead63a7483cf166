// Whether a Gitfleet-Approve trailer counts (core/rollout/judge-approval.ts): unverified without
// approvers; with them, only a good signature by an approver who did not make the change (its
// key, its signer's names, its author's email), unless the strategy allows self-approval; and
// the search from the newest commit back to the rollout's revision.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RolloutApprovers } from '../../../src/core/model/rollout.js';
import type { SignatureVerdict } from '../../../src/core/model/signature-verdict.js';
import {
  findStepApproval,
  judgeApproval,
  type ApprovalCommit,
  type ChangeMaker,
} from '../../../src/core/rollout/judge-approval.js';

const label = 'shop/web';
const approvers: RolloutApprovers = { allowedSigners: 'keys/approvers', allowSelfApproval: false };
const good = (keyId: string, names: string[]): SignatureVerdict => ({
  ok: true,
  commit: 'c'.repeat(40),
  signer: { format: 'ssh', keyId, names },
});
const approval = (verdict?: SignatureVerdict): ApprovalCommit => ({
  commit: 'c'.repeat(40),
  approvals: [`${label} step 2`],
  ...(verdict ? { verdicts: new Map([[label, verdict]]) } : {}),
});
const aliceSigned: ChangeMaker = {
  commit: 'r'.repeat(40),
  authorEmail: 'author@example.com',
  signer: { keyId: 'SHA256:alice', names: ['alice@example.com'] },
};
const unsignedByCarol: ChangeMaker = { commit: 'r'.repeat(40), authorEmail: 'carol@example.com' };

const cases: {
  name: string;
  approvers: RolloutApprovers | undefined;
  verdict?: SignatureVerdict;
  change: ChangeMaker | undefined;
  want: { counted: boolean; match: RegExp };
}[] = [
  {
    name: 'Without approvers, any approval counts, unverified.',
    approvers: undefined,
    change: aliceSigned,
    want: { counted: true, match: /^commit cccccccccccc$/ },
  },
  {
    name: 'An unsigned approval does not count, and says it is unsigned.',
    approvers,
    verdict: { ok: false, commit: 'c'.repeat(40), problem: 'Unsigned', detail: 'none', signer: undefined },
    change: aliceSigned,
    want: {
      counted: false,
      match: /^unsigned: not signed by one of the strategy's approvers: commit c+: unsigned$/,
    },
  },
  {
    name: 'An approval signed by a key no approver holds does not count, naming the key.',
    approvers,
    verdict: {
      ok: false,
      commit: 'c'.repeat(40),
      problem: 'UnknownKey',
      detail: 'not in keys/approvers',
      signer: { format: 'ssh', keyId: 'SHA256:mallory', names: [] },
    },
    change: aliceSigned,
    want: { counted: false, match: /^SHA256:mallory: .*UnknownKey/ },
  },
  {
    name: 'An approval signed with the key that signed the change does not count.',
    approvers,
    verdict: good('SHA256:alice', ['alice@example.com']),
    change: aliceSigned,
    want: { counted: false, match: /made the change rolled out \(rrrrrrrrrrrr\): the same key signed it/ },
  },
  {
    name: "An approval by another key of the change signer's principal does not count.",
    approvers,
    verdict: good('SHA256:alice2', ['alice@example.com']),
    change: aliceSigned,
    want: { counted: false, match: /alice@example.com signed it/ },
  },
  {
    name: 'An approval by the author of an unsigned change does not count.',
    approvers,
    verdict: good('SHA256:carol', ['carol@example.com']),
    change: unsignedByCarol,
    want: { counted: false, match: /carol@example.com wrote it/ },
  },
  {
    name: 'An OpenPGP approver whose user id holds the author email made the change.',
    approvers,
    verdict: good('ABCDEF0123456789ABCDEF0123456789ABCDEF01', ['Carol <carol@example.com>']),
    change: unsignedByCarol,
    want: { counted: false, match: /carol@example.com wrote it/ },
  },
  {
    name: 'The change signed by an OpenPGP key id is the approver with that fingerprint.',
    approvers,
    verdict: good('ABCDEF0123456789ABCDEF0123456789ABCDEF01', ['Dave <dave@example.com>']),
    change: {
      commit: 'r'.repeat(40),
      authorEmail: 'x@example.com',
      signer: { keyId: '23456789ABCDEF01', names: [] },
    },
    want: { counted: false, match: /the same key signed it/ },
  },
  {
    name: 'allowSelfApproval lets the change signer approve.',
    approvers: { ...approvers, allowSelfApproval: true },
    verdict: good('SHA256:alice', ['alice@example.com']),
    change: aliceSigned,
    want: { counted: true, match: /^alice@example.com \(SHA256:alice\) in commit cccccccccccc$/ },
  },
  {
    name: 'Another approver counts, named with its key and the commit.',
    approvers,
    verdict: good('SHA256:bob', ['bob@example.com']),
    change: aliceSigned,
    want: { counted: true, match: /^bob@example.com \(SHA256:bob\) in commit cccccccccccc$/ },
  },
  {
    name: 'A change that cannot be read does not let an approval count (self-approval cannot be ruled out).',
    approvers,
    verdict: good('SHA256:bob', ['bob@example.com']),
    change: undefined,
    want: { counted: false, match: /cannot be read/ },
  },
];

for (const c of cases) {
  test(c.name, () => {
    const judged = judgeApproval({
      commit: approval(c.verdict),
      label,
      approvers: c.approvers,
      change: c.change,
    });
    assert.equal(judged.counted, c.want.counted);
    const text = judged.counted ? judged.by : `${judged.signer}: ${judged.why}`;
    assert.match(text, c.want.match);
  });
}

test('The search stops at the revision: an approval older than the rollout does not count, newer refused ones are named.', () => {
  const revision = 'r'.repeat(40);
  const commit = (
    id: string,
    verdict?: SignatureVerdict,
    approvals = [`${label} step 2`],
  ): ApprovalCommit => ({
    commit: id.repeat(40),
    approvals,
    ...(verdict ? { verdicts: new Map([[label, verdict]]) } : {}),
  });
  const unsigned: SignatureVerdict = {
    ok: false,
    commit: 'u',
    problem: 'Unsigned',
    detail: '',
    signer: undefined,
  };
  const list = [
    commit('a', unsigned),
    commit('r', undefined, []),
    commit('o', good('SHA256:bob', ['bob@example.com'])),
  ];
  const found = findStepApproval({
    approvals: list,
    label,
    step: 2,
    revision,
    approvers,
    change: aliceSigned,
  });
  assert.equal(found.type, 'waiting');
  assert.deepEqual(found.type === 'waiting' ? found.refused.map((r) => r.commit) : [], ['a'.repeat(40)]);
  const approved = findStepApproval({
    approvals: [commit('b', good('SHA256:bob', ['bob@example.com'])), ...list],
    label,
    step: 2,
    revision,
    approvers,
    change: aliceSigned,
  });
  assert.deepEqual(approved, {
    type: 'approved',
    by: `bob@example.com (SHA256:bob) in commit ${'b'.repeat(12)}`,
    verified: true,
  });
});
