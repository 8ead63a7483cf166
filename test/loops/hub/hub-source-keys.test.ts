// Source commits signed by keys the policy no longer trusts, as issue 30's bad input lists them:
// a key revoked (removed from allowed_signers by a verified commit), a key past its valid-before,
// and a good signature copied onto another commit. Each is refused by name, the last verified
// commit rendered again.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../cli/run-cli.js';
import {
  exampleFleetRepo,
  git,
  commitSigned,
  removeFleetRepos,
  run,
  withCopiedSignature,
  type FleetRepo,
} from './hub-fixture.js';
import { allowedLine, makeSshKey, missingTool } from '../../support/signing-keys.js';
import { removeTempDirs } from '../../support/temp-dirs.js';

after(() => {
  removeFleetRepos();
  removeTempDirs();
});

const skip = missingTool('ssh-keygen');
const hubOnce = (repo: FleetRepo) => runCli(['hub', '--repo', repo.path, '--once']);
const bindingsMessage = (repo: FleetRepo) => git(repo, ['log', '-1', '--format=%B', 'gitfleet/bindings']);

function signers(lines: string[], policy = false): (work: string) => void {
  return (work) => {
    if (policy)
      appendFileSync(
        join(work, 'fleet.yaml'),
        '  sourceVerification:\n    mode: head\n    allowedSigners: keys/allowed_signers\n',
      );
    mkdirSync(join(work, 'keys'), { recursive: true });
    writeFileSync(join(work, 'keys/allowed_signers'), `${lines.join('\n')}\n`);
  };
}

const touch = (name: string) => (work: string) => writeFileSync(join(work, `${name}.txt`), `${name}\n`);

test(
  'A source commit signed by a revoked key, by an expired key, or carrying a copied signature is refused by name; the last verified commit is rendered again.',
  { skip },
  async () => {
    const repo = exampleFleetRepo({ bare: false });
    const [alice, bob, carol] = ['alice', 'bob', 'carol'].map((comment) => makeSshKey({ comment }));
    const lines = [
      allowedLine('alice@example.com', alice!),
      allowedLine('bob@example.com', bob!),
      allowedLine('carol@example.com', carol!, 'valid-before="20200101Z"'),
    ];
    commitSigned(repo, alice!.publicFile, 'verify sources', signers(lines, true));
    assert.equal((await hubOnce(repo)).code, 0);
    const revoking = commitSigned(repo, alice!.publicFile, 'revoke bob', signers([lines[0]!, lines[2]!]));
    const revoked = await hubOnce(repo);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.match(bindingsMessage(repo), new RegExp(`^Gitfleet-Source-Verified: ${revoking} by alice`, 'm'));

    const cases: { name: string; put: () => string; says: (commit: string) => RegExp }[] = [
      {
        name: 'signed by a revoked key',
        put: () => commitSigned(repo, bob!.publicFile, 'bob, revoked', touch('bob')),
        says: (c) =>
          new RegExp(
            `commit ${c.slice(0, 12)}: UnknownKey by SHA256:\\S+: .* is not among the allowed signers`,
          ),
      },
      {
        name: 'signed by an expired key',
        put: () => commitSigned(repo, carol!.publicFile, 'carol, expired', touch('carol')),
        says: (c) =>
          new RegExp(`commit ${c.slice(0, 12)}: KeyExpired by carol@example.com \\(SHA256:\\S+\\): .*2020`),
      },
      {
        name: 'a signature copied onto another commit',
        put: () => copySignature(repo, revoking),
        says: (c) =>
          new RegExp(
            `commit ${c.slice(0, 12)}: BadSignature by alice@example.com \\(SHA256:\\S+\\): the signature does not match the commit`,
          ),
      },
    ];
    for (const c of cases) {
      run(repo.work, ['reset', '-q', '--hard', revoking]);
      const head = c.put();
      const result = await hubOnce(repo);
      assert.equal(result.code, 1, c.name);
      assert.match(result.stderr, c.says(head), c.name);
      assert.match(
        result.stderr,
        new RegExp(`rendering the last verified commit ${revoking.slice(0, 7)} instead`),
        c.name,
      );
      assert.match(bindingsMessage(repo), new RegExp(`^Gitfleet-Source-Refused: ${head}: `, 'm'), c.name);
      assert.match(bindingsMessage(repo), new RegExp(`^Gitfleet-Source-Commit: ${revoking}$`, 'm'), c.name);
    }
  },
);

/** Commits a change on main carrying the signature of `from`, copied; returns the commit. */
function copySignature(repo: FleetRepo, from: string): string {
  touch('copied')(repo.work);
  run(repo.work, ['add', '-A']);
  run(repo.work, ['commit', '-q', '-m', 'a change under a copied signature']);
  const oid = withCopiedSignature(repo, run(repo.work, ['rev-parse', 'HEAD']), from);
  run(repo.work, ['reset', '-q', '--hard', oid]);
  return oid;
}
