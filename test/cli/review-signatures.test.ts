// `gitfleet validate --ref` and `gitfleet diff` say what the hub's source verification will say
// of a commit: validate fails on a commit the hub would refuse, diff names it in its text,
// markdown and JSON (with the base as the last verified commit, whose keys it reads).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from './run-cli.js';
import {
  exampleFleetRepo,
  commitSigned,
  removeFleetRepos,
  type FleetRepo,
} from '../loops/hub/hub-fixture.js';
import { allowedLine, makeSshKey, missingTool, type TestSshKey } from '../support/signing-keys.js';
import { removeTempDirs } from '../support/temp-dirs.js';

after(() => {
  removeFleetRepos();
  removeTempDirs();
});

const commitAs = (
  repo: FleetRepo,
  key: TestSshKey | undefined,
  message: string,
  edit?: (work: string) => void,
): string => commitSigned(repo, key?.publicFile, message, edit);

const addExtra = (work: string): void =>
  writeFileSync(
    join(work, 'apps/shop/extra.yaml'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n  namespace: shop\n',
  );

test(
  'validate --ref and diff report the verdict of source verification on the head.',
  { skip: missingTool('ssh-keygen') },
  async () => {
    const repo = exampleFleetRepo({ bare: false });
    const alice = makeSshKey({ comment: 'alice' });
    const signed = commitAs(repo, alice, 'verify sources', (work) => {
      appendFileSync(
        join(work, 'fleet.yaml'),
        '  sourceVerification:\n    allowedSigners: keys/allowed_signers\n',
      );
      mkdirSync(join(work, 'keys'));
      writeFileSync(join(work, 'keys/allowed_signers'), `${allowedLine('alice@example.com', alice)}\n`);
    });
    const unsigned = commitAs(repo, undefined, 'unsigned change', addExtra);

    const good = await runCli(['validate', repo.work, '--ref', signed]);
    assert.equal(good.code, 0, good.stderr);
    assert.match(
      good.stderr,
      /info: signatures verified \(head, 1 commit, keys from keys\/allowed_signers@[0-9a-f]{12}\): good signature by alice@example\.com/,
    );
    const bad = await runCli(['validate', repo.work, '--ref', unsigned]);
    assert.equal(bad.code, 1);
    assert.match(
      bad.stderr,
      new RegExp(`error: the hub would refuse this commit: commit ${unsigned.slice(0, 12)}: unsigned`),
    );
    assert.match(bad.stdout, /invalid: see the errors above/);

    const text = await runCli(['diff', repo.work, signed, unsigned]);
    assert.match(
      text.stdout,
      new RegExp(
        `^# signatures: error: the hub would refuse this commit: commit ${unsigned.slice(0, 12)}: unsigned$`,
        'm',
      ),
    );
    const markdown = await runCli(['diff', repo.work, signed, unsigned, '--format', 'markdown']);
    assert.match(markdown.stdout, /^_Signatures: error: the hub would refuse this commit: /m);
    const json = JSON.parse(
      (await runCli(['diff', repo.work, signed, unsigned, '--format', 'json'])).stdout,
    ) as { signatures: { severity: string } };
    assert.equal(json.signatures.severity, 'error');
  },
);

test('Without spec.sourceVerification, validate --ref and the hub say in an info line that source commits are not verified, and pass; diff says nothing of it.', async () => {
  const repo = exampleFleetRepo({ bare: false });
  const head = commitAs(repo, undefined, 'an unsigned change', addExtra);
  const run = await runCli(['validate', repo.work, '--ref', head]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stderr,
    /^info: source commits are not verified \(no spec\.sourceVerification in the FleetConfig\)$/m,
  );
  const hub = await runCli(['hub', '--repo', repo.path, '--once']);
  assert.equal(hub.code, 0, hub.stderr);
  const said = (hub.stdout + hub.stderr).match(
    /source commits are not verified \(no spec\.sourceVerification in the FleetConfig, no --source-allowed-signers\); see docs\/security\.md/g,
  );
  assert.equal(said?.length, 1, hub.stdout + hub.stderr);
  // A pull request's comment is not the place for it at every change: the diff has no signatures line.
  const diff = await runCli(['diff', repo.work, `${head}~1`, head]);
  assert.doesNotMatch(diff.stdout, /^# signatures:/m);
});
