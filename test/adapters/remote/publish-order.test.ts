import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRef } from '../../../src/adapters/git/read-ref.js';
import { RemoteError } from '../../../src/adapters/remote/remote-error.js';
import { remoteHubRepo } from '../../../src/adapters/remote/remote-hub-repo.js';
import { git, removeTempDirs } from '../../git-server/git-cli.js';
import { commitInMirror, revParse, serveFleet } from './remote-fixture.js';

after(removeTempDirs);

const a = 'refs/heads/gitfleet/clusters/a';
const bad = 'refs/heads/gitfleet/clusters/bad';
const bindings = 'refs/heads/gitfleet/bindings';

/** The server's update hook declines one ref, as a branch protection rule would. */
function declineBadRef(served: string): void {
  const hook = join(served, 'hooks', 'update');
  writeFileSync(
    hook,
    `#!/bin/sh\n[ "$1" = "${bad}" ] && { echo "declined by policy" >&2; exit 1; }\nexit 0\n`,
  );
  chmodSync(hook, 0o755);
}

const cases: {
  name: string;
  given: { atomic: boolean };
  want: { onServer: Record<string, boolean> };
}[] = [
  {
    name: 'On a server with atomic pushes, a refused ref fails the whole publish and no ref moves.',
    given: { atomic: true },
    want: { onServer: { [a]: false, [bad]: false, [bindings]: false } },
  },
  {
    name: 'On a server without atomic pushes, refs go one by one in order and the first refusal stops the rest, so the bindings branch never runs ahead.',
    given: { atomic: false },
    want: { onServer: { [a]: true, [bad]: false, [bindings]: false } },
  },
];

for (const { name, given, want } of cases) {
  test(name, { timeout: 120_000 }, async () => {
    const fleet = await serveFleet();
    try {
      declineBadRef(fleet.served);
      if (!given.atomic) await git(fleet.served, ['config', 'receive.advertiseAtomic', 'false']);
      const hub = remoteHubRepo({
        url: fleet.url,
        cacheDir: fleet.cacheDir,
        sourceRef: 'main',
        branchPrefix: 'gitfleet/',
      });
      await hub.refresh();
      const commit = (message: string) =>
        commitInMirror({ gitdir: hub.gitdir, files: { 'f.yaml': `${message}\n` }, parents: [], message });
      const updates = [
        { ref: a, oldOid: null, newOid: await commit('a') },
        { ref: bad, oldOid: null, newOid: await commit('bad') },
        { ref: bindings, oldOid: null, newOid: await commit('bindings') },
      ];
      const error = await hub.publish(updates).catch((e: unknown) => e);
      assert.ok(error instanceof RemoteError, String(error));
      assert.equal(error.code, 'PushDeclined');
      assert.match(error.message, /refs\/heads\/gitfleet\/clusters\/bad/);
      for (const [ref, present] of Object.entries(want.onServer)) {
        const expected = present ? updates.find((u) => u.ref === ref)!.newOid : null;
        assert.equal(await revParse(fleet.served, ref), expected, ref);
        // The mirror records what the remote holds.
        assert.equal(
          await readRef(hub.gitdir, ref.replace('refs/heads/', 'refs/remotes/origin/')),
          expected,
          ref,
        );
      }
      await git(fleet.served, ['fsck', '--strict', '--no-dangling']);
    } finally {
      await fleet.server.close();
    }
  });
}
