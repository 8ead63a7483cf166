import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  commitChange,
  exampleFleetRepo,
  git,
  hubPass,
  hubRefs,
  removeFleetRepos,
  rendered,
  type FleetRepo,
} from './hub-fixture.js';

after(removeFleetRepos);

/** Makes the root tree of main unreadable (its loose file cut short): a pass that reads it fails. */
function breakSourceTree(repo: FleetRepo): void {
  const tree = git(repo, ['rev-parse', 'main^{tree}']);
  const file = join(repo.gitdir, 'objects', tree.slice(0, 2), tree.slice(2));
  chmodSync(file, 0o644);
  truncateSync(file, 10);
}

test('a pass over a source commit rendered already reads no source tree: refs and the bindings head only', async () => {
  const repo = exampleFleetRepo({ bare: false });
  rendered(await hubPass(repo));
  const refs = hubRefs(repo);
  breakSourceTree(repo);
  // A fresh cache: a restarted hub, or `hub --once`.
  const result = await hubPass(repo);
  assert.equal(result.type, 'upToDate');
  assert.equal(result.source.commit, git(repo, ['rev-parse', 'main']));
  assert.equal(result.source.subject, 'initial fleet');
  assert.deepEqual(hubRefs(repo), refs);
});

test('a pass with another branch prefix finds its bindings branch without reading the source tree', async () => {
  const repo = exampleFleetRepo({ bare: false });
  commitChange(repo, 'own prefix', (work) => {
    const file = join(work, 'fleet.yaml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('branchPrefix: gitfleet/', 'branchPrefix: fleet-a/'),
    );
  });
  rendered(await hubPass(repo));
  assert.ok(git(repo, ['rev-parse', 'refs/heads/fleet-a/bindings']));
  breakSourceTree(repo);
  assert.equal((await hubPass(repo)).type, 'upToDate');
});

test('a cluster branch moved by someone else still makes the pass read the source and put it back', async () => {
  const repo = exampleFleetRepo({ bare: false });
  rendered(await hubPass(repo));
  const ref = 'refs/heads/gitfleet/clusters/onprem-gpu';
  const last = hubRefs(repo).get(ref)!;
  git(repo, ['update-ref', ref, git(repo, ['commit-tree', `${ref}^{tree}`, '-m', 'elsewhere'])]);
  const result = rendered(await hubPass(repo));
  assert.equal(result.clusters['onprem-gpu']?.type, 'updated');
  assert.equal(git(repo, ['rev-parse', `${ref}^{tree}`]), git(repo, ['rev-parse', `${last}^{tree}`]));
});
