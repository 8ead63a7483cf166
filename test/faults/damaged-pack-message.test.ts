// Fault: a pack that arrives damaged (bytes flipped on the way), fetched over protocol v2 and
// from a server that speaks only v0 (isomorphic-git's fetch indexes that pack), and a damaged
// pack in a local repository. The message names the repository and the pack, says what
// happened and what to do, and never passes on isomorphic-git's "internal error … please
// report" (the user did nothing wrong, and the library has no bug to report).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { remoteHubRepo } from '../../src/adapters/remote/remote-hub-repo.js';
import { isRemoteError } from '../../src/adapters/remote/remote-error.js';
import { commitWorkFile, serveFleet } from '../adapters/remote/remote-fixture.js';
import { git, removeTempDirs, tempDir } from '../git-server/git-cli.js';
import { startFaultyProxy } from '../git-server/start-faulty-proxy.js';
import { runCliProcess } from './fault-fixture.js';

after(removeTempDirs);

const libraryWords = /internal error|please report|file an issue|isomorphic-git|Pako/i;

for (const protocol of ['v2', 'v0'] as const) {
  test(
    `A corrupted pack fetched over protocol ${protocol} is named as damaged, with what to do, in gitfleet's words.`,
    { timeout: 120_000 },
    async () => {
      const fleet = await serveFleet();
      const proxy = await startFaultyProxy(fleet.url, { v0: protocol === 'v0' });
      try {
        const hub = remoteHubRepo({
          url: proxy.url('fleet.git'),
          cacheDir: fleet.cacheDir,
          sourceRef: 'main',
          branchPrefix: 'gitfleet/',
        });
        await hub.refresh();
        const text = Array.from({ length: 400 }, (_, i) => `line ${i} ${'y'.repeat(i % 50)}`).join('\n');
        await commitWorkFile(fleet.work, 'apps/big.yaml', `${text}\n`, 'second');
        await git(fleet.work, ['push', '-q', fleet.url, 'main']);
        proxy.setFault('corrupt');
        await assert.rejects(hub.refresh(), (error: unknown) => {
          assert.ok(isRemoteError(error, 'DamagedPack'), String(error));
          assert.doesNotMatch(error.message, libraryWords);
          assert.match(
            error.message,
            /^http:\/\/127\.0\.0\.1:\d+\/fleet\.git: fetch failed: the pack the server sent is damaged \(.+\); nothing moved: the mirror .+ is rebuilt at the next refresh; if this repeats, run git fsck in the served repository and check any proxy between/,
          );
          return true;
        });
        assert.ok(proxy.faults > 0, 'the proxy really damaged a pack');
      } finally {
        await proxy.close();
        await fleet.server.close();
      }
    },
  );
}

test(
  'A damaged pack in a local repository is named, pack and repository, with what to do.',
  { timeout: 60_000 },
  async () => {
    const fleet = await serveFleet();
    await fleet.server.close();
    await git(fleet.served, ['repack', '-a', '-d', '-q']);
    const packDir = join(fleet.served, 'objects', 'pack');
    const pack = readdirSync(packDir).find((n) => n.endsWith('.pack'))!;
    const bytes = readFileSync(join(packDir, pack));
    for (let at = 40; at < bytes.length - 20; at += 7) bytes[at] = bytes[at]! ^ 0x55;
    writeFileSync(join(packDir, pack), bytes);
    const run = await runCliProcess(['render', fleet.served, '--out', join(tempDir('out'), 'r')]);
    assert.notEqual(run.code, 0, run.stdout);
    assert.doesNotMatch(run.stderr, libraryWords);
    assert.match(run.stderr, new RegExp(`${pack.replace('.', '\\.')}: damaged pack`));
  },
);

test(
  'An abbreviated id in a repository whose pack index is damaged is an error naming the index, not a crash.',
  { timeout: 60_000 },
  async () => {
    const fleet = await serveFleet();
    await fleet.server.close();
    await git(fleet.served, ['repack', '-a', '-d', '-q']);
    const main = await git(fleet.served, ['rev-parse', 'main']);
    const packDir = join(fleet.served, 'objects', 'pack');
    const idx = readdirSync(packDir).find((n) => n.endsWith('.idx'))!;
    const bytes = readFileSync(join(packDir, idx));
    for (let at = 8; at < bytes.length - 40; at += 5) bytes[at] = bytes[at]! ^ 0x33;
    chmodSync(join(packDir, idx), 0o644);
    writeFileSync(join(packDir, idx), bytes);
    const run = await runCliProcess(['diff', fleet.served, main.slice(0, 8), 'main']);
    assert.equal(run.signal, null, run.stderr);
    assert.equal(run.code, 7, run.stderr);
    assert.doesNotMatch(run.stderr, libraryWords);
    assert.match(
      run.stderr,
      new RegExp(
        `revision '${main.slice(0, 8)}' in \\S+: \\S+${idx.replace('.', '\\.')}: damaged pack index: .*run git fsck`,
      ),
    );
  },
);
