// probeSource, the agent's cheap "where is my branch?": against git's own http-backend it
// answers with one protocol v2 ls-refs POST whose answer names the one branch (not every
// branch of the fleet), follows a push, says null for a branch that is not there, and moves
// nothing in the mirror.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { remoteHubRepo } from '../../../src/adapters/remote/remote-hub-repo.js';
import { lsRemoteBranch } from '../../../src/adapters/remote/ls-remote-branch.js';
import { defaultRemoteTimeouts } from '../../../src/adapters/remote/remote-timeouts.js';
import { git, removeTempDirs } from '../../git-server/git-cli.js';
import { commitWorkFile, serveFleet } from './remote-fixture.js';

after(removeTempDirs);

const slow = { timeout: 120_000 };
const branches = Array.from({ length: 40 }, (_, i) => `gitfleet/clusters/c${i}`);

test('probeSource asks for the one branch with ls-refs v2 and follows a push', slow, async () => {
  const fleet = await serveFleet({ branches });
  try {
    const repo = remoteHubRepo({
      url: fleet.url,
      cacheDir: fleet.cacheDir,
      sourceRef: 'gitfleet/clusters/c7',
      branchPrefix: 'gitfleet/',
    });
    const first = await repo.probeSource();
    assert.equal(first, await git(fleet.served, ['rev-parse', 'refs/heads/gitfleet/clusters/c7']));
    const seen = fleet.server.requests.slice(-1);
    assert.deepEqual(
      seen.map((r) => `${r.method} ${r.path}`),
      ['POST /fleet.git/git-upload-pack'],
      'one request, no advertisement of every ref',
    );

    await git(fleet.work, ['checkout', '-q', 'gitfleet/clusters/c7']);
    const moved = await commitWorkFile(fleet.work, 'apps/b.yaml', 'kind: Secret\n', 'second');
    await git(fleet.work, ['push', '-q', fleet.url, 'gitfleet/clusters/c7']);
    assert.equal(await repo.probeSource(), moved);
  } finally {
    await fleet.server.close();
  }
});

test('the ls-refs answer names only the asked ref, and none for a missing one', slow, async () => {
  const fleet = await serveFleet({ branches });
  try {
    const target = {
      url: fleet.url,
      headers: {},
      timeouts: defaultRemoteTimeouts(),
      errors: { action: 'ls-refs', url: fleet.url, secrets: [] },
    };
    const full = await git(fleet.served, ['for-each-ref', '--format=%(objectname) %(refname)']);
    const probe = await lsRemoteBranch({ ...target, ref: 'refs/heads/gitfleet/clusters/c7' });
    assert.equal(probe.type, 'at');
    if (probe.type === 'at')
      assert.ok(probe.bytes * 20 < full.length, `${probe.bytes} bytes vs ${full.length}`);
    // c1 is a prefix of c10..c19, so the server names those too; only the exact name counts.
    const prefixed = await lsRemoteBranch({ ...target, ref: 'refs/heads/gitfleet/clusters/c1' });
    assert.equal(prefixed.type, 'at');
    // A name that is only a prefix of others is not there.
    assert.equal((await lsRemoteBranch({ ...target, ref: 'refs/heads/gitfleet/clusters/c' })).type, 'absent');
    assert.deepEqual(await lsRemoteBranch({ ...target, ref: 'refs/heads/gitfleet/clusters/none' }), {
      type: 'absent',
      bytes: 4,
    });
  } finally {
    await fleet.server.close();
  }
});
