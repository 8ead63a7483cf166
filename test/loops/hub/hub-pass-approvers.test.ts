// Who may approve a Manual rollout step (docs/rollout.md#who-may-approve): with spec.approvers,
// a Gitfleet-Approve trailer counts only on a commit git signed with one of the approvers' keys,
// and not by who made the change rolled out; every approval that does not count is named (its
// commit, its signer or "unsigned", why) in a warning and in the rollout's message, and the step
// keeps waiting. Without approvers, approvals count as before, with an info diagnostic.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  commitChange,
  commitSigned,
  hubPass,
  rendered,
  removeFleetRepos,
  type FleetRepo,
} from './hub-fixture.js';
import {
  at,
  canary,
  fleetWithStrategy,
  headMessage,
  imageOn,
  later,
  record,
  report,
  setImage,
  strategy,
  t0,
} from './rollout-fixture.js';
import { allowedLine, makeSshKey, missingTool, type TestSshKey } from '../../support/signing-keys.js';
import { removeTempDirs } from '../../support/temp-dirs.js';

after(() => {
  removeFleetRepos();
  removeTempDirs();
});

const skip = missingTool('ssh-keygen');

function withApprovers(text: string, extra = ''): string {
  return `${text}  approvers: {allowedSigners: keys/approvers${extra}}\n`;
}

function approversFile(lines: string[]): (work: string) => void {
  return (work) => {
    mkdirSync(join(work, 'keys'), { recursive: true });
    writeFileSync(join(work, 'keys/approvers'), `${lines.join('\n')}\n`);
  };
}

/** A fleet whose shop/web step 2 waits for approval of web 1.9.0, which `changeKey` signed (unsigned without one). */
async function waitingFleet(opts: {
  approvers: string[];
  extra?: string;
  changeKey?: TestSshKey;
}): Promise<{ repo: FleetRepo; change: string }> {
  const repo = await fleetWithStrategy(withApprovers(strategy({ manual: true }), opts.extra));
  commitChange(repo, 'approvers', approversFile(opts.approvers));
  rendered(await hubPass(repo, { now: at(t0 - 1_000) }));
  const change = commitSigned(repo, opts.changeKey?.publicFile, 'web 1.9.0', (work) =>
    setImage(work, '1.9.0'),
  );
  rendered(await hubPass(repo, { now: at(t0) }));
  await report(repo, canary, 'Healthy');
  rendered(await hubPass(repo, { now: at(t0 + 1_000) }));
  assert.equal(record(repo)!.phase, 'WaitingApproval');
  return { repo, change };
}

function approve(repo: FleetRepo, key: TestSshKey | undefined, what = 'shop/web step 2'): string {
  return commitSigned(repo, key?.publicFile, `approve\n\nGitfleet-Approve: ${what}`);
}

test(
  'An approval counts only signed by an approver who did not make the change: unsigned, an unknown key and the change signer are named and refused.',
  { skip },
  async () => {
    const [alice, bob, mallory] = ['alice', 'bob', 'mallory'].map((comment) => makeSshKey({ comment }));
    const { repo, change } = await waitingFleet({
      approvers: [allowedLine('alice@example.com', alice!), allowedLine('bob@example.com', bob!)],
      changeKey: alice!,
    });
    let now = t0 + 2_000;
    const refused = async (commit: string, signer: RegExp, why: RegExp) => {
      const pass = rendered(await hubPass(repo, { now: at((now += 1_000)) }));
      const rollout = record(repo)!;
      assert.equal(rollout.phase, 'WaitingApproval');
      for (const c of later) assert.equal(imageOn(repo, c), '1.8.0', `${c} keeps what it runs`);
      const warning = pass.diagnostics.find(
        (d) => d.code === 'RolloutApprovalRefused' && d.message.includes(commit.slice(0, 12)),
      );
      assert.ok(warning, JSON.stringify(pass.diagnostics));
      assert.equal(warning.severity, 'warning');
      assert.match(warning.message, signer);
      assert.match(warning.message, why);
      assert.match(rollout.message!, new RegExp(`not counted: .*commit ${commit.slice(0, 12)} \\(`));
    };
    const unsigned = approve(repo, undefined);
    await refused(unsigned, /\(unsigned\)/, /not signed by one of the strategy's approvers/);
    const hers = approve(repo, mallory!);
    await refused(hers, /\(SHA256:\S+\)/, /UnknownKey/);
    const own = approve(repo, alice!);
    await refused(
      own,
      /\(alice@example.com \(SHA256:\S+\)\)/,
      new RegExp(`made the change rolled out \\(${change.slice(0, 12)}\\): the same key signed it`),
    );
    const bobs = approve(repo, bob!);
    const pass = rendered(await hubPass(repo, { now: at((now += 1_000)) }));
    for (const c of later) assert.equal(imageOn(repo, c), '1.9.0', `${c} moved`);
    assert.match(
      headMessage(repo, 'gitfleet/bindings'),
      new RegExp(
        `Gitfleet-Rollout: shop/web: step 2/2 approved by bob@example.com \\(SHA256:\\S+\\) in commit ${bobs.slice(0, 12)}`,
      ),
    );
    assert.ok(!pass.diagnostics.some((d) => d.code === 'RolloutApprovalsUnverified'));
  },
);

test(
  'The author of an unsigned change may not approve it, unless the strategy allows self-approval.',
  { skip },
  async () => {
    const carol = makeSshKey({ comment: 'carol' });
    // The fixture's commits are authored by author@example.com: carol's principal.
    const refusedFleet = await waitingFleet({ approvers: [allowedLine('author@example.com', carol)] });
    const own = approve(refusedFleet.repo, carol);
    const pass = rendered(await hubPass(refusedFleet.repo, { now: at(t0 + 5_000) }));
    assert.match(
      pass.diagnostics.find((d) => d.code === 'RolloutApprovalRefused')?.message ?? '',
      new RegExp(
        `${own.slice(0, 12)} .*author@example.com wrote it; spec.approvers.allowSelfApproval is false`,
      ),
    );
    for (const c of later) assert.equal(imageOn(refusedFleet.repo, c), '1.8.0');

    const allowed = await waitingFleet({
      approvers: [allowedLine('author@example.com', carol)],
      extra: ', allowSelfApproval: true',
    });
    approve(allowed.repo, carol);
    rendered(await hubPass(allowed.repo, { now: at(t0 + 5_000) }));
    for (const c of later) assert.equal(imageOn(allowed.repo, c), '1.9.0');
  },
);

test(
  'An approvers file the commit lacks counts no approval, and says which file; without approvers an approval counts, said unverified.',
  { skip },
  async () => {
    const bob = makeSshKey({ comment: 'bob' });
    const { repo } = await waitingFleet({ approvers: [allowedLine('bob@example.com', bob)] });
    commitChange(repo, 'lose the approvers', (work) => writeFileSync(join(work, 'keys/approvers'), ''));
    approve(repo, bob);
    const pass = rendered(await hubPass(repo, { now: at(t0 + 5_000) }));
    assert.match(
      pass.diagnostics.find((d) => d.code === 'RolloutApprovalRefused')?.message ?? '',
      /keys\/approvers@[0-9a-f]{12}: no key/,
    );
    for (const c of later) assert.equal(imageOn(repo, c), '1.8.0');

    const open = await fleetWithStrategy(strategy({ manual: true }));
    commitChange(open, 'web 1.9.0', (work) => setImage(work, '1.9.0'));
    rendered(await hubPass(open, { now: at(t0) }));
    await report(open, canary, 'Healthy');
    const waiting = rendered(await hubPass(open, { now: at(t0 + 1_000) }));
    const info = waiting.diagnostics.find((d) => d.code === 'RolloutApprovalsUnverified');
    assert.equal(info?.severity, 'info');
    const unsigned = approve(open, undefined);
    rendered(await hubPass(open, { now: at(t0 + 2_000) }));
    for (const c of later) assert.equal(imageOn(open, c), '1.9.0');
    assert.match(
      headMessage(open, 'gitfleet/bindings'),
      new RegExp(
        `approved by commit ${unsigned.slice(0, 12)} \\(Gitfleet-Approve, unverified: the strategy names no approvers\\)`,
      ),
    );
  },
);
