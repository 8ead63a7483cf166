// Fault: the pack a fetch receives is cut off or corrupted on the way. The mirror must not
// move to objects it does not hold: the refresh fails, the mirror stays whole (git fsck), and
// the next refresh over a sound connection brings the new commit.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { remoteHubRepo } from '../../src/adapters/remote/remote-hub-repo.js';
import { isRemoteError } from '../../src/adapters/remote/remote-error.js';
import { commitWorkFile, serveFleet } from '../adapters/remote/remote-fixture.js';
import { git, removeTempDirs } from '../git-server/git-cli.js';
import { startFaultyProxy, type PackFault } from '../git-server/start-faulty-proxy.js';

after(removeTempDirs);

for (const fault of ['truncate', 'corrupt'] as PackFault[]) {
  test(
    `A fetch whose pack is ${fault === 'truncate' ? 'cut off' : 'corrupted'} moves no ref, leaves the mirror sound, and the next refresh recovers.`,
    { timeout: 120_000 },
    async () => {
      const fleet = await serveFleet();
      const proxy = await startFaultyProxy(fleet.url);
      const warnings: string[] = [];
      try {
        const hub = remoteHubRepo({
          url: proxy.url('fleet.git'),
          cacheDir: fleet.cacheDir,
          sourceRef: 'main',
          branchPrefix: 'gitfleet/',
          onWarning: (m) => warnings.push(m),
        });
        await hub.refresh();
        const first = await git(fleet.work, ['rev-parse', 'HEAD']);
        // Enough content that the pack is more than a few bytes.
        const text = Array.from({ length: 400 }, (_, i) => `line ${i} ${'x'.repeat(i % 50)}`).join('\n');
        const second = await commitWorkFile(fleet.work, 'apps/big.yaml', `${text}\n`, 'second');
        await git(fleet.work, ['push', '-q', fleet.url, 'main']);

        proxy.setFault(fault);
        await assert.rejects(hub.refresh(), (error: unknown) => {
          assert.ok(isRemoteError(error), String(error));
          assert.equal(error.terminal, false, `a later attempt may succeed: ${error.code} ${error.message}`);
          assert.match(error.message, /^http:\/\/127\.0\.0\.1:\d+\/fleet\.git: fetch failed: /);
          return true;
        });
        assert.ok(proxy.faults > 0, 'the proxy really damaged a pack');
        assert.equal(await git(hub.gitdir, ['rev-parse', 'refs/remotes/origin/main']), first);
        assert.equal(await git(hub.gitdir, ['rev-parse', 'refs/heads/main']), first);
        await git(hub.gitdir, ['fsck', '--no-dangling']);

        proxy.setFault('pass');
        await hub.refresh();
        assert.equal(await git(hub.gitdir, ['rev-parse', 'refs/heads/main']), second);
        assert.equal(await git(hub.gitdir, ['show', 'refs/heads/main:apps/big.yaml']), text);
        await git(hub.gitdir, ['fsck', '--strict', '--no-dangling']);
      } finally {
        await proxy.close();
        await fleet.server.close();
      }
    },
  );
}
