// What the hub's source verification reads back of its own records: the last verified commit
// (Gitfleet-Source-Verified on the bindings branch) decides which keys verify the next source
// commit, so the record counts only when the hub's key signed that very commit. Someone with
// write access to the bindings branch but not the hub's key cannot point it at a commit whose
// keys they chose, even with a signature copied from one of the hub's own commits.
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

const bindings = 'refs/heads/gitfleet/bindings';

function signersFile(lines: string[]): (work: string) => void {
  return (work) => {
    mkdirSync(join(work, 'keys'), { recursive: true });
    writeFileSync(join(work, 'keys/allowed_signers'), `${lines.join('\n')}\n`);
  };
}

/** Puts on the bindings branch a commit saying `verified` was the last verified commit, carrying the signature of the bindings head copied onto it. */
function forgeRecord(repo: FleetRepo, verified: string): string {
  const head = git(repo, ['rev-parse', bindings]);
  const unsigned = git(repo, [
    'commit-tree',
    `${head}^{tree}`,
    '-p',
    head,
    '-m',
    `render: nothing\n\nGitfleet-Source-Verified: ${verified} by alice@example.com`,
  ]);
  const oid = withCopiedSignature(repo, unsigned, head);
  git(repo, ['update-ref', bindings, oid, head]);
  return oid;
}

test(
  "A bindings record the hub's key did not sign, even carrying a copied signature of the hub's, does not choose the keys: a head signed by a key it brings is refused.",
  { skip: missingTool('ssh-keygen') },
  async () => {
    const repo = exampleFleetRepo({ bare: false });
    const [alice, mallory, hub] = ['alice', 'mallory', 'hub'].map((comment) => makeSshKey({ comment }));
    const hubOnce = () => runCli(['hub', '--repo', repo.path, '--once', '--signing-key', hub!.privateFile]);
    commitSigned(repo, alice!.publicFile, 'verify sources', (work) => {
      appendFileSync(
        join(work, 'fleet.yaml'),
        '  sourceVerification:\n    mode: head\n    allowedSigners: keys/allowed_signers\n',
      );
      signersFile([allowedLine('alice@example.com', alice!)])(work);
    });
    const start = await hubOnce();
    assert.equal(start.code, 0, start.stderr);

    // Mallory, with write access but no key the hub trusts: a commit of her own naming her key,
    // off the source branch, and a bindings record pointing at it.
    run(repo.work, ['checkout', '-q', '-b', 'mallory']);
    const hers = commitSigned(
      repo,
      mallory!.publicFile,
      'my keys',
      signersFile([allowedLine('mallory@example.com', mallory!)]),
    );
    run(repo.work, ['checkout', '-q', 'main']);
    const forged = forgeRecord(repo, hers);
    const pushed = commitSigned(repo, mallory!.publicFile, 'mallory signs a change', (work) =>
      writeFileSync(
        join(work, 'apps/shop/mallory.yaml'),
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: mallory\n  namespace: shop\n',
      ),
    );

    const refused = await hubOnce();
    assert.equal(refused.code, 1, refused.stdout);
    assert.match(
      refused.stderr,
      new RegExp(
        `gitfleet/bindings at ${forged.slice(0, 12)} is not signed by this hub's key: its record of the last verified source commit is not used`,
      ),
    );
    assert.match(
      refused.stderr,
      new RegExp(
        `hub: refused refs/heads/main ${pushed.slice(0, 7)}: commit ${pushed.slice(0, 12)}: UnknownKey`,
      ),
    );
    assert.doesNotMatch(
      git(repo, ['log', '-1', '--format=%B', 'gitfleet/bindings']),
      new RegExp(`^Gitfleet-Source-Commit: ${pushed}$`, 'm'),
      'her commit is not rendered',
    );
  },
);
