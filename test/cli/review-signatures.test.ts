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
    const unsigned = commitAs(repo, undefined, 'unsigned change', (work) =>
      writeFileSync(
        join(work, 'apps/shop/extra.yaml'),
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n  namespace: shop\n',
      ),
    );

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
