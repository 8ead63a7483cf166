import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { remoteHubRepo } from '../../../src/adapters/remote/remote-hub-repo.js';
import { git, removeTempDirs } from '../../git-server/git-cli.js';
import { serveFleet } from './remote-fixture.js';

after(removeTempDirs);

const slow = { timeout: 120_000 };
const mode = (path: string): string => (statSync(path).mode & 0o777).toString(8);

function hubFor(fleet: { url: string; cacheDir: string }, warnings: string[], mirrorKey?: string) {
  return remoteHubRepo({
    url: fleet.url,
    cacheDir: join(fleet.cacheDir, 'mirrors'),
    sourceRef: 'main',
    branchPrefix: 'gitfleet/',
    onWarning: (m) => warnings.push(m),
    ...(mirrorKey === undefined ? {} : { mirrorKey }),
  });
}

test(
  'The cache directory and the mirror are private (700), and one found readable by others is tightened with a warning.',
  slow,
  async () => {
    const fleet = await serveFleet();
    try {
      const warnings: string[] = [];
      const hub = hubFor(fleet, warnings);
      await hub.refresh();
      assert.equal(mode(join(fleet.cacheDir, 'mirrors')), '700');
      assert.equal(mode(hub.gitdir), '700');
      assert.deepEqual(warnings, []);
      chmodSync(hub.gitdir, 0o755);
      await hubFor(fleet, warnings).refresh();
      assert.equal(mode(hub.gitdir), '700');
      assert.equal(warnings.length, 1);
      assert.match(warnings[0] ?? '', /\.git: was mode 755, readable by other users .*changed to 700$/);
    } finally {
      await fleet.server.close();
    }
  },
);

test(
  'A mirror whose branch points at a missing object is rebuilt, with a warning, at the first refresh.',
  slow,
  async () => {
    const fleet = await serveFleet();
    try {
      const warnings: string[] = [];
      const hub = hubFor(fleet, warnings);
      await hub.refresh();
      // The objects go, the refs stay: as after a fetch that moved refs and lost its pack.
      rmSync(join(hub.gitdir, 'objects'), { recursive: true });
      mkdirSync(join(hub.gitdir, 'objects', 'pack'), { recursive: true });
      const next = hubFor(fleet, warnings); // as a new process opens it
      await next.refresh();
      assert.equal(warnings.length, 1);
      assert.match(
        warnings[0] ?? '',
        /the mirror is damaged \(refs\/heads\/main at [0-9a-f]{40}.*missing objects\); rebuilding it/,
      );
      assert.equal(
        await git(hub.gitdir, ['rev-parse', 'refs/heads/main']),
        await git(fleet.work, ['rev-parse', 'HEAD']),
      );
      await git(hub.gitdir, ['fsck', '--strict', '--no-dangling']);
    } finally {
      await fleet.server.close();
    }
  },
);

test('A mirror key gives users of one URL (the hub, an agent) mirrors of their own.', () => {
  const fleet = { url: 'http://127.0.0.1:1/fleet.git', cacheDir: '/tmp/never-made' };
  const hub = hubFor(fleet, []);
  const agent = hubFor(fleet, [], 'agent a');
  assert.notEqual(hub.gitdir, agent.gitdir);
  assert.equal(hubFor(fleet, [], 'agent a').gitdir, agent.gitdir);
});
