// Source verification on the hub, driven as users drive it (git commit -S, hub --once): a
// commit that is not signed by a trusted key is not rendered; the branches keep the last good
// render; the refusal names the commit, its signer or that it is unsigned, and why, in the
// output, the exit code and once on the bindings branch. Keys are read from the last verified
// commit, so an unsigned or untrusted commit cannot bring its own; strict mode walks every
// commit since the last verified one, merged ones too, from a seal when nothing was verified.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../cli/run-cli.js';
import {
  exampleFleetRepo,
  git,
  hubRefs,
  commitSigned,
  removeFleetRepos,
  run,
  type FleetRepo,
} from './hub-fixture.js';
import {
  allowedLine,
  makeSshKey,
  missingTool,
  writeAllowedSigners,
  type TestSshKey,
} from '../../support/signing-keys.js';
import { removeTempDirs } from '../../support/temp-dirs.js';
import { hubPassReport } from '../../../src/loops/hub/hub-pass-report.js';

after(() => {
  removeFleetRepos();
  removeTempDirs();
});

const skip = missingTool('ssh-keygen');

const commitAs = (
  repo: FleetRepo,
  key: TestSshKey | undefined,
  message: string,
  edit?: (work: string) => void,
): string => commitSigned(repo, key?.publicFile, message, edit);

function policy(mode: 'head' | 'strict', signers: string[]): (work: string) => void {
  return (work) => {
    appendFileSync(
      join(work, 'fleet.yaml'),
      `  sourceVerification:\n    mode: ${mode}\n    allowedSigners: keys/allowed_signers\n`,
    );
    mkdirSync(join(work, 'keys'), { recursive: true });
    writeFileSync(join(work, 'keys/allowed_signers'), `${signers.join('\n')}\n`);
  };
}

function addConfigMap(name: string): (work: string) => void {
  return (work) =>
    writeFileSync(
      join(work, `apps/shop/${name}.yaml`),
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: shop\n`,
    );
}

const hubOnce = (repo: FleetRepo, ...flags: string[]) =>
  runCli(['hub', '--repo', repo.path, '--once', ...flags]);
const bindingsMessage = (repo: FleetRepo) => git(repo, ['log', '-1', '--format=%B', 'gitfleet/bindings']);

test(
  'head mode: an unsigned head and a head signed by a key it brings itself are refused, keeping the last good render; a signed head renders.',
  { skip },
  async () => {
    const repo = exampleFleetRepo({ bare: false });
    const [alice, mallory] = [makeSshKey({ comment: 'alice' }), makeSshKey({ comment: 'mallory' })];
    const first = commitAs(
      repo,
      alice,
      'verify sources',
      policy('head', [allowedLine('alice@example.com', alice)]),
    );
    const start = await hubOnce(repo);
    assert.equal(start.code, 0, start.stderr);
    assert.match(
      start.stderr,
      /nothing was verified before, so the keys are read from keys\/allowed_signers@[0-9a-f]{12} itself/,
    );
    assert.match(
      bindingsMessage(repo),
      new RegExp(`^Gitfleet-Source-Verified: ${first} by alice@example.com \\(SHA256:`, 'm'),
    );
    const rendered = hubRefs(repo);

    const unsigned = commitAs(repo, undefined, 'a change nobody signed', addConfigMap('unsigned'));
    const refused = await hubOnce(repo);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      new RegExp(
        `hub: refused refs/heads/main ${unsigned.slice(0, 7)}: commit ${unsigned.slice(0, 12)}: unsigned; rendering the last verified commit ${first.slice(0, 7)} instead; recorded on the bindings branch`,
      ),
    );
    const after = hubRefs(repo);
    for (const [ref, oid] of rendered)
      if (!ref.endsWith('/bindings')) assert.equal(after.get(ref), oid, `${ref} kept`);
    assert.match(
      bindingsMessage(repo),
      new RegExp(`^Gitfleet-Source-Refused: ${unsigned}: commit ${unsigned.slice(0, 12)}: unsigned$`, 'm'),
    );
    const bindingsNow = after.get('refs/heads/gitfleet/bindings');
    const again = await hubOnce(repo);
    assert.equal(again.code, 1);
    assert.doesNotMatch(again.stderr, /recorded on the bindings branch/);
    assert.equal(hubRefs(repo).get('refs/heads/gitfleet/bindings'), bindingsNow, 'recorded once');

    const brought = commitAs(repo, mallory, 'mallory brings her own key', (work) =>
      appendFileSync(join(work, 'keys/allowed_signers'), `${allowedLine('mallory@example.com', mallory)}\n`),
    );
    const untrusted = await hubOnce(repo);
    assert.equal(untrusted.code, 1);
    assert.match(
      untrusted.stderr,
      new RegExp(
        `commit ${brought.slice(0, 12)}: UnknownKey by SHA256:\\S+: ssh-ed25519 key SHA256:\\S+ is not among the allowed signers`,
      ),
    );

    const good = commitAs(repo, alice, 'alice signs on top', addConfigMap('signed'));
    const renders = await hubOnce(repo);
    assert.equal(renders.code, 0, renders.stderr);
    assert.match(bindingsMessage(repo), new RegExp(`^Gitfleet-Source-Commit: ${good}$`, 'm'));
    assert.match(bindingsMessage(repo), new RegExp(`^Gitfleet-Source-Verified: ${good} by `, 'm'));
    assert.doesNotMatch(bindingsMessage(repo), /Gitfleet-Source-Refused/);
  },
);

test(
  'strict mode: an unsigned commit under a signed head, or on a merged branch, is refused by name; a seal starts a walk over unsigned history.',
  { skip },
  async () => {
    const repo = exampleFleetRepo({ bare: false });
    const alice = makeSshKey({ comment: 'alice' });
    const seal = commitAs(
      repo,
      alice,
      'verify sources from here\n\nGitfleet-Verification-Seal: history before this commit was reviewed',
      policy('strict', [allowedLine('alice@example.com', alice)]),
    );
    const start = await hubOnce(repo);
    assert.equal(start.code, 0, `the seal vouches for the unsigned initial commit: ${start.stderr}`);
    assert.match(bindingsMessage(repo), new RegExp(`^Gitfleet-Source-Verified: ${seal} by `, 'm'));

    const hidden = commitAs(repo, undefined, 'slipped in unsigned', addConfigMap('hidden'));
    commitAs(repo, alice, 'signed on top', addConfigMap('ontop'));
    const refused = await hubOnce(repo);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      new RegExp(
        `commit ${hidden.slice(0, 12)}: unsigned \\(in the history of [0-9a-f]{12}, since the last verified commit ${seal.slice(0, 12)}\\)`,
      ),
    );

    run(repo.work, ['reset', '-q', '--hard', seal]);
    run(repo.work, ['checkout', '-q', '-b', 'side']);
    const side = commitAs(repo, undefined, 'unsigned on a side branch', addConfigMap('side'));
    run(repo.work, ['checkout', '-q', 'main']);
    run(repo.work, [
      '-c',
      'gpg.format=ssh',
      '-c',
      `user.signingkey=${alice.publicFile}`,
      'merge',
      '-q',
      '-S',
      '--no-ff',
      '-m',
      'signed merge',
      'side',
    ]);
    const merged = await hubOnce(repo);
    assert.equal(merged.code, 1);
    assert.match(merged.stderr, new RegExp(`commit ${side.slice(0, 12)}: unsigned \\(in the history of`));
  },
);

test(
  'hub --source-allowed-signers verifies with keys outside the repository, with no policy in the FleetConfig.',
  { skip },
  async () => {
    const repo = exampleFleetRepo({ bare: false });
    const alice = makeSshKey({ comment: 'alice' });
    const allowed = writeAllowedSigners([allowedLine('alice@example.com', alice)]);
    const refused = await hubOnce(repo, '--source-allowed-signers', allowed);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /: unsigned; nothing rendered/);
    assert.equal(hubRefs(repo).size, 0, 'nothing was ever rendered: nothing written');
    commitAs(repo, alice, 'signed');
    assert.equal((await hubOnce(repo, '--source-allowed-signers', allowed)).code, 0);
    const open = await hubOnce(repo);
    assert.match(open.stderr + open.stdout, /rendered already|source commits are not verified/);
  },
);

test('A refused pass counts in the metrics as sourceRefused, with its problem, and not as a success.', () => {
  const report = hubPassReport(
    {
      type: 'sourceRefused',
      source: { ref: 'refs/heads/main', commit: 'c'.repeat(40), subject: 's', message: 's' },
      refused: {
        head: 'c'.repeat(40),
        commit: 'c'.repeat(40),
        problem: 'Unsigned',
        reason: 'commit cccccccccccc: unsigned',
        recorded: null,
      },
      timings: { readMs: 0, loadMs: 0, renderMs: 0, planMs: 0, writeMs: 0, refsMs: 0, memoMs: 0, totalMs: 5 },
      attempts: 1,
    },
    1000,
  );
  assert.equal(report.result, 'sourceRefused');
  assert.equal(report.sourceRefused, 'Unsigned');
  assert.equal(report.succeeded, false);
  const renderedAgain = hubPassReport(
    {
      type: 'upToDate',
      source: { ref: 'refs/heads/main', commit: 'b'.repeat(40), subject: 's', message: 's' },
      bindingsCommit: 'd'.repeat(40),
      refused: {
        head: 'c'.repeat(40),
        commit: 'c'.repeat(40),
        problem: 'KeyExpired',
        reason: 'r',
        recorded: null,
      },
      timings: { readMs: 0, loadMs: 0, renderMs: 0, planMs: 0, writeMs: 0, refsMs: 0, memoMs: 0, totalMs: 5 },
      attempts: 1,
    },
    1000,
  );
  assert.equal(renderedAgain.sourceRefused, 'KeyExpired');
  assert.equal(renderedAgain.succeeded, false, 'the last verified commit rendered again is no success');
});
