// Fault: a loose object file cut short (a disk that filled up, a copy that stopped half way) must
// be reported as that object of that repository being corrupt, with what to do, and not as a
// bug in the git library.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../cli/run-cli.js';
import {
  exampleFleetRepo,
  git,
  hubPass,
  hubRefs,
  removeFleetRepos,
  type FleetRepo,
} from '../loops/hub/hub-fixture.js';

after(removeFleetRepos);

/** Cuts the loose file of an object down to a few bytes; returns the file's path. */
function truncateLooseObject(repo: FleetRepo, oid: string, size: number): string {
  const file = join(repo.gitdir, 'objects', oid.slice(0, 2), oid.slice(2));
  assert.ok(statSync(file).size > size, `${file} is a loose object`);
  chmodSync(file, 0o644);
  truncateSync(file, size);
  return file;
}

// Cut at 0 bytes the file does not inflate at all; at 20 it inflates to a prefix that does not hash to its id.
for (const size of [0, 20]) {
  test(`a hub pass over a source tree cut to ${size} bytes names the object and the repository and says to run git fsck`, async () => {
    const repo = exampleFleetRepo({ bare: false });
    const apps = git(repo, ['rev-parse', 'main:apps']);
    truncateLooseObject(repo, apps, size);
    await assert.rejects(hubPass(repo), (error: Error) => {
      assert.doesNotMatch(error.message, /internal error|please report/i);
      assert.match(error.message, new RegExp(`^object ${apps} in ${repo.gitdir} is corrupt`));
      assert.match(error.message, /truncated|damaged/);
      assert.match(error.message, /git fsck/);
      assert.equal((error as { terminal?: boolean }).terminal, true);
      return true;
    });
    assert.equal(hubRefs(repo).size, 0, 'nothing written');
  });
}

test('hub --once reports a truncated object the same way, and exits 1', async () => {
  const repo = exampleFleetRepo({ bare: true });
  const commit = git(repo, ['rev-parse', 'main']);
  truncateLooseObject(repo, commit, 20);
  const result = await runCli(['hub', '--repo', repo.path, '--once']);
  assert.equal(result.code, 1);
  assert.doesNotMatch(result.stderr, /internal error|please report/i);
  assert.match(result.stderr, new RegExp(`object ${commit} in ${repo.gitdir} is corrupt`));
});

test('validating a commit whose object is truncated names it too', async () => {
  const repo = exampleFleetRepo({ bare: true });
  const apps = git(repo, ['rev-parse', 'main:apps']);
  truncateLooseObject(repo, apps, 20);
  const result = await runCli(['validate', repo.path, '--ref', 'main']);
  assert.equal(result.code, 1);
  assert.doesNotMatch(result.stderr, /internal error|please report/i);
  assert.match(result.stderr, new RegExp(`object ${apps} in ${repo.gitdir} is corrupt`));
  assert.match(result.stderr, /git fsck/);
});
