// A cluster branch pushed by hand during a rollout (loops/hub/cluster-base.ts): the objects a
// held cluster keeps are read from the commit the hub last wrote there, never from the pushed
// head, so the pass restores the hub's content and content pushed by hand is never carried into
// a commit the hub writes (and, with a key, signs). A pushed commit dressed as the hub's next one
// (its source trailer, the hub's head as parent) is not the hub's unless the hub's key signed it.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { commitChange, git, hubPass, rendered, removeFleetRepos, type FleetRepo } from './hub-fixture.js';
import {
  at,
  canary,
  fleetWithStrategy,
  imageOn,
  later,
  setImage,
  strategy,
  t0,
  webPath,
} from './rollout-fixture.js';
import { madeKey, missingTool } from '../../support/signing-keys.js';
import { removeTempDirs, tempDir } from '../../support/temp-dirs.js';
import type { CommitSigner } from '../../../src/adapters/signing/commit-signer.js';

after(() => {
  removeFleetRepos();
  removeTempDirs();
});

const held = later[0]!;
const branch = `refs/heads/gitfleet/clusters/${held}`;

/** Pushes onto the held cluster's branch a commit whose web Deployment runs `tag`, with `message`; returns it. */
function pushByHand(repo: FleetRepo, tag: string, message: string): string {
  const head = git(repo, ['rev-parse', branch]);
  const text = git(repo, ['show', `${head}:${webPath}`]).replace(/shop\/web:[0-9.]+/, `shop/web:${tag}`);
  const blob = git(repo, ['hash-object', '-w', '--stdin'], { input: text });
  const env = { GIT_INDEX_FILE: join(tempDir('index'), 'index') };
  git(repo, ['read-tree', head], { env });
  git(repo, ['update-index', '--cacheinfo', `100644,${blob},${webPath}`], { env });
  const tree = git(repo, ['write-tree'], { env });
  const pushed = git(repo, ['commit-tree', tree, '-p', head, '-m', message]);
  git(repo, ['update-ref', branch, pushed, head]);
  return pushed;
}

async function heldPushedByHand(message: (source: string) => string, signer?: CommitSigner) {
  const pass = (ms: number) => hubPass(repo, { now: at(ms), ...(signer ? { signer } : {}) });
  const repo = await fleetWithStrategy(strategy({ soak: 3600 }));
  commitChange(repo, 'web 1.9.0', (work) => setImage(work, '1.9.0'));
  rendered(await pass(t0));
  assert.equal(imageOn(repo, canary), '1.9.0', 'the canary runs the change');
  assert.equal(imageOn(repo, held), '1.8.0', `${held} is held`);
  const source = git(repo, ['rev-parse', 'refs/heads/main']);
  const pushed = pushByHand(repo, '6.6.6', message(source));
  assert.equal(imageOn(repo, held), '6.6.6', 'the branch holds the pushed content');
  rendered(await pass(t0 + 1_000));
  assert.notEqual(git(repo, ['rev-parse', branch]), pushed, 'the pass wrote over the pushed head');
  assert.equal(imageOn(repo, held), '1.8.0', `${held} keeps what the hub wrote there, not what was pushed`);
  return repo;
}

test('A held cluster branch pushed by hand mid-rollout gets the hub’s held content back, not the pushed one.', async () => {
  await heldPushedByHand(() => 'hand edit');
});

test(
  'A pushed commit dressed as the hub’s next one (source trailer, the hub’s head as parent) is not the hub’s when the hub signs.',
  { skip: missingTool('ssh-keygen') },
  async () => {
    const hub = await madeKey('hub');
    const repo = await heldPushedByHand(
      (source) => `render\n\nGitfleet-Source-Commit: ${source}\n`,
      hub.signer,
    );
    const head = git(repo, ['cat-file', 'commit', branch]);
    assert.match(head, /^gpgsig -----BEGIN SSH SIGNATURE-----$/m, 'the head the pass wrote is signed');
  },
);
