import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readRef } from '../../../src/adapters/git/read-ref.js';
import { RemoteError } from '../../../src/adapters/remote/remote-error.js';
import { remoteHubRepo } from '../../../src/adapters/remote/remote-hub-repo.js';
import { git, makeServedRepo, removeTempDirs, tempDir } from '../../git-server/git-cli.js';
import { startGitServer } from '../../git-server/start-git-server.js';
import {
  commitInMirror,
  commitWorkFile,
  pushedByAnother,
  revParse,
  serveFleet,
  withServedHub,
} from './remote-fixture.js';

after(removeTempDirs);

const cluster = 'refs/heads/gitfleet/clusters/x';
const slow = { timeout: 120_000 };

test(
  'A refresh mirrors the source branch and the prefixed branches pushed with git, and a second refresh moves nothing.',
  slow,
  async () => {
    await withServedHub(
      { branches: ['gitfleet/status/a', 'feature'], branchPrefix: 'gitfleet/' },
      async (fleet, hub) => {
        const first = await hub.fetchRefs();
        const head = await git(fleet.work, ['rev-parse', 'HEAD']);
        assert.deepEqual(first.moved.map((m) => [m.ref, m.to]).sort(), [
          ['refs/heads/gitfleet/status/a', head],
          ['refs/heads/main', head],
        ]);
        assert.equal(await readRef(hub.gitdir, 'refs/heads/feature'), null);
        assert.deepEqual((await hub.fetchRefs()).moved, []);

        const next = await commitWorkFile(fleet.work, 'apps/app.yaml', 'kind: Secret\n', 'second');
        await git(fleet.work, ['push', '-q', fleet.url, 'main']);
        assert.deepEqual((await hub.fetchRefs()).moved, [{ ref: 'refs/heads/main', from: head, to: next }]);
        assert.equal(await git(hub.gitdir, ['show', 'refs/heads/main:apps/app.yaml']), 'kind: Secret');
        await git(hub.gitdir, ['fsck', '--strict', '--no-dangling']);
      },
    );
  },
);

test(
  'A published cluster branch reaches the server, a clone sees it, and republishing the same update is a no-op.',
  slow,
  async () => {
    await withServedHub({ branchPrefix: 'gitfleet' }, async (fleet, hub) => {
      await hub.refresh();
      const c1 = await commitInMirror({
        gitdir: hub.gitdir,
        files: { 'default/ConfigMap/a.yaml': 'a: 1\n' },
        parents: [],
        message: 'render 1',
      });
      await hub.publish([{ ref: cluster, oldOid: null, newOid: c1 }]);
      assert.equal(await revParse(fleet.served, cluster), c1);
      assert.equal(await readRef(hub.gitdir, cluster), c1);

      const c2 = await commitInMirror({
        gitdir: hub.gitdir,
        files: { 'default/ConfigMap/a.yaml': 'a: 2\n', 'default/ConfigMap/b.yaml': 'b: 1\n' },
        parents: [c1],
        message: 'render 2',
      });
      await hub.publish([{ ref: cluster, oldOid: c1, newOid: c2 }]);
      await hub.publish([{ ref: cluster, oldOid: c1, newOid: c2 }]);
      assert.equal(await revParse(fleet.served, cluster), c2);
      await git(fleet.served, ['fsck', '--strict', '--no-dangling']);

      const clone = tempDir('clone');
      await git(clone, ['clone', '-q', '--no-checkout', fleet.url, '.']);
      assert.equal(await git(clone, ['show', 'origin/gitfleet/clusters/x:default/ConfigMap/b.yaml']), 'b: 1');
      await git(clone, ['fsck', '--strict']);
    });
  },
);

test(
  'A push that loses the race to another writer is rejected with PushRejected, leaves the server as the other writer left it, and the next refresh adopts their commit.',
  slow,
  async () => {
    await withServedHub({ branchPrefix: 'gitfleet/' }, async (fleet, hub) => {
      await hub.refresh();
      const c1 = await commitInMirror({
        gitdir: hub.gitdir,
        files: { 'a.yaml': '1\n' },
        parents: [],
        message: 'render 1',
      });
      await hub.publish([{ ref: cluster, oldOid: null, newOid: c1 }]);

      // Someone else advances the branch on the server first.
      const theirs = await pushedByAnother(fleet, 'gitfleet/clusters/x', 'theirs\n');

      const ours = await commitInMirror({
        gitdir: hub.gitdir,
        files: { 'a.yaml': '2\n' },
        parents: [c1],
        message: 'render 2',
      });
      const rejected = await hub
        .publish([{ ref: cluster, oldOid: c1, newOid: ours }])
        .catch((e: unknown) => e);
      assert.ok(rejected instanceof RemoteError, String(rejected));
      assert.equal(rejected.code, 'PushRejected');
      assert.equal(rejected.terminal, false);
      assert.equal(rejected.ref, cluster);
      assert.equal(await revParse(fleet.served, cluster), theirs);

      const moved = await hub.fetchRefs();
      assert.deepEqual(moved.moved, [{ ref: cluster, from: c1, to: theirs }]);
    });
  },
);

test(
  'A push that is not a fast-forward of the remote branch is rejected and the server keeps its commit.',
  slow,
  async () => {
    await withServedHub({ branchPrefix: 'gitfleet/' }, async (fleet, hub) => {
      await hub.refresh();
      const c1 = await commitInMirror({
        gitdir: hub.gitdir,
        files: { 'a.yaml': '1\n' },
        parents: [],
        message: 'render 1',
      });
      await hub.publish([{ ref: cluster, oldOid: null, newOid: c1 }]);
      const unrelated = await commitInMirror({
        gitdir: hub.gitdir,
        files: { 'a.yaml': 'x\n' },
        parents: [],
        message: 'rewrite',
      });
      const rejected = await hub
        .publish([{ ref: cluster, oldOid: c1, newOid: unrelated }])
        .catch((e: unknown) => e);
      assert.ok(rejected instanceof RemoteError && rejected.code === 'PushRejected', String(rejected));
      assert.equal(await revParse(fleet.served, cluster), c1);
    });
  },
);

test(
  'A cluster branch deleted on the server leaves the mirror at the next refresh, with a warning, and the next publish creates it again.',
  slow,
  async () => {
    const fleet = await serveFleet();
    const warnings: string[] = [];
    try {
      const hub = remoteHubRepo({
        url: fleet.url,
        cacheDir: fleet.cacheDir,
        sourceRef: 'main',
        branchPrefix: 'gitfleet/',
        onWarning: (m) => warnings.push(m),
      });
      await hub.refresh();
      const c1 = await commitInMirror({
        gitdir: hub.gitdir,
        files: { 'a.yaml': '1\n' },
        parents: [],
        message: 'render 1',
      });
      await hub.publish([{ ref: cluster, oldOid: null, newOid: c1 }]);
      await git(fleet.work, ['push', '-q', fleet.url, `:${cluster}`]);
      assert.equal(await revParse(fleet.served, cluster), null);
      await hub.refresh();
      assert.equal(await readRef(hub.gitdir, cluster), null, 'the mirror follows the remote');
      assert.equal(warnings.length, 1);
      assert.match(
        warnings[0] ?? '',
        /holds refs\/heads\/gitfleet\/clusters\/x, which .* does not .*rebuilding the mirror/,
      );
      const c2 = await commitInMirror({
        gitdir: hub.gitdir,
        files: { 'a.yaml': '2\n' },
        parents: [],
        message: 'render 2',
      });
      await hub.publish([{ ref: cluster, oldOid: null, newOid: c2 }]);
      assert.equal(await revParse(fleet.served, cluster), c2);
    } finally {
      await fleet.server.close();
    }
  },
);

test(
  'Publishing the source branch or a branch outside the prefix is refused before anything is pushed.',
  slow,
  async () => {
    await withServedHub({ branchPrefix: 'gitfleet/' }, async (fleet, hub) => {
      await hub.refresh();
      const main = await readRef(hub.gitdir, 'refs/heads/main');
      const c1 = await commitInMirror({
        gitdir: hub.gitdir,
        files: { 'a.yaml': '1\n' },
        parents: [main!],
        message: 'x',
      });
      for (const ref of ['refs/heads/main', 'refs/heads/other', 'refs/tags/gitfleet/x']) {
        const refused = await hub
          .publish([
            { ref: cluster, oldOid: null, newOid: c1 },
            { ref, oldOid: main, newOid: c1 },
          ])
          .catch((e: unknown) => e);
        assert.ok(
          refused instanceof RemoteError && refused.code === 'InvalidOption',
          `${ref}: ${String(refused)}`,
        );
      }
      assert.equal(await revParse(fleet.served, cluster), null);
      assert.equal(await revParse(fleet.served, 'refs/heads/main'), main);
    });
  },
);

test('A refresh of a repository without the source branch fails with MissingRef.', slow, async () => {
  const root = tempDir('served');
  makeServedRepo(root, 'empty.git');
  const server = await startGitServer({ root });
  try {
    const hub = remoteHubRepo({
      url: server.url('empty.git'),
      cacheDir: tempDir('cache'),
      sourceRef: 'main',
      branchPrefix: 'gitfleet/',
    });
    const failed = await hub.refresh().catch((e: unknown) => e);
    assert.ok(failed instanceof RemoteError && failed.code === 'MissingRef', String(failed));
  } finally {
    await server.close();
  }
});

test('The same URL, with or without credentials in it, opens the same mirror.', slow, async () => {
  const fleet = await serveFleet();
  try {
    const options = { cacheDir: fleet.cacheDir, sourceRef: 'main', branchPrefix: 'gitfleet/' };
    const a = remoteHubRepo({ ...options, url: fleet.url });
    const b = remoteHubRepo({ ...options, url: fleet.url.replace('http://', 'http://u:p4ssw0rd@') });
    const c = remoteHubRepo({ ...options, url: fleet.url.replace('fleet.git', 'other.git') });
    assert.equal(a.gitdir, b.gitdir);
    assert.notEqual(a.gitdir, c.gitdir);
    assert.equal(b.url, fleet.url);
    await b.refresh();
    assert.equal(await git(a.gitdir, ['rev-parse', '--is-bare-repository']), 'true');
  } finally {
    await fleet.server.close();
  }
});
