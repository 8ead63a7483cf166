// Fault: the git server refuses an agent's status push (a pre-receive hook that lets each agent
// write only its own ref). The status must not be lost: the pass fails with the server's own
// words, and once the server accepts, the next pass pushes the status.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { remoteHubRepo } from '../../src/adapters/remote/remote-hub-repo.js';
import { RemoteError } from '../../src/adapters/remote/remote-error.js';
import { writeStatusBranch } from '../../src/loops/agent/write-status-branch.js';
import { git, removeTempDirs } from '../git-server/git-cli.js';
import { serveFleet } from '../adapters/remote/remote-fixture.js';

after(removeTempDirs);

const statusRef = 'refs/heads/gitfleet/status/a';
const author = { name: 'agent a', email: 'agent-a@gitfleet.invalid', time: 1700000000, tzOffsetMinutes: 0 };

/** Installs a pre-receive hook that refuses every push while `<served>/refuse` exists, saying why. */
function installRefusingHook(served: string): string {
  const flag = join(served, 'refuse');
  mkdirSync(join(served, 'hooks'), { recursive: true });
  const hook = join(served, 'hooks', 'pre-receive');
  writeFileSync(
    hook,
    `#!/bin/sh\nif [ -e "${flag}" ]; then\n  echo "policy: agent a may not write this ref today" >&2\n  exit 1\nfi\nexit 0\n`,
  );
  chmodSync(hook, 0o755);
  writeFileSync(flag, '');
  return flag;
}

const report = (n: number) => ({
  cluster: 'a',
  appliedCommit: null,
  objects: [],
  conditions: [{ type: 'Applied', status: 'False' as const, reason: 'Test', message: `pass ${n}` }],
});

test(
  "A refused status push fails the write with the hook's message, and the next write, once allowed, reaches the server.",
  { timeout: 120_000 },
  async () => {
    const fleet = await serveFleet({ branches: ['gitfleet/clusters/a'] });
    try {
      const flag = installRefusingHook(fleet.served);
      const repo = remoteHubRepo({
        url: fleet.url,
        cacheDir: fleet.cacheDir,
        sourceRef: 'gitfleet/clusters/a',
        branchPrefix: 'gitfleet/',
      });
      await repo.refresh();
      const write = () =>
        writeStatusBranch({ repo, ref: statusRef, report: report(1), message: 'status a', author });
      await assert.rejects(write(), (error: unknown) => {
        assert.ok(error instanceof RemoteError, String(error));
        assert.equal(error.code, 'PushDeclined');
        assert.match(
          error.message,
          /^refs\/heads\/gitfleet\/status\/a: http:\/\/127\.0\.0\.1:\d+\/fleet\.git: push failed: /,
        );
        assert.match(error.message, /pre-receive hook declined/);
        assert.match(error.message, /policy: agent a may not write this ref today/);
        return true;
      });
      assert.equal(await git(fleet.served, ['for-each-ref', statusRef]), '', 'nothing reached the server');

      // The same pass again, refused again: still not "unchanged".
      await repo.refresh();
      await assert.rejects(write(), /pre-receive hook declined/);

      rmSync(flag);
      await repo.refresh();
      const written = await write();
      assert.equal(written.type, 'written');
      assert.equal(await git(fleet.served, ['rev-parse', statusRef]), written.commit);
      await repo.refresh();
      assert.equal((await write()).type, 'unchanged', 'once on the server, the same report writes nothing');
    } finally {
      await fleet.server.close();
    }
  },
);
