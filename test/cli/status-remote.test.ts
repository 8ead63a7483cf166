// `gitfleet status --repo <url>` through git's own smart-HTTP server: the same summary as for the
// local repository, and `--watch` on a URL prints again after a fetch sees a branch move; at
// --log-level debug it logs each look that found nothing new.
import { test, after, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { basename, dirname } from 'node:path';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/io.js';
import type { ClusterSummary } from '../../src/core/status/fleet-summary.js';
import { startGitServer } from '../git-server/start-git-server.js';
import { eventually } from '../support/eventually.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';
import { stamp } from '../support/assert-stamped.js';
import { fleetRepoWith, hubPass, rendered, removeFleetRepos } from '../loops/hub/hub-fixture.js';
import { commitReport, head, recordsOf, shopFleet } from './status-fixture.js';

after(removeFleetRepos);
after(removeTempDirs);

const ready = { conditions: [{ type: 'Ready', status: 'True' as const }] };

/** A fleet rendered by a hub pass, served by git's smart-HTTP server; mirrors go to a directory of the test, not the user's cache. */
async function servedFleet(t: TestContext) {
  const cache = tempDir('status-cache');
  const savedCache = process.env['XDG_CACHE_HOME'];
  process.env['XDG_CACHE_HOME'] = cache;
  t.after(() => {
    if (savedCache === undefined) delete process.env['XDG_CACHE_HOME'];
    else process.env['XDG_CACHE_HOME'] = savedCache;
  });
  const repo = fleetRepoWith(shopFleet('web:1'), { bare: true });
  rendered(await hubPass(repo));
  const server = await startGitServer({ root: dirname(repo.path) });
  t.after(() => server.close());
  return { repo, server, url: server.url(basename(repo.path)) };
}

test('status on a URL reads the fetched mirror; --watch --interval prints again after a status branch moves there', async (t) => {
  const { repo, url } = await servedFleet(t);

  const once: string[] = [];
  const onceIo: Io = {
    out: (s) => once.push(s),
    err: (s) => once.push(s),
    untilInterrupted: () => Promise.resolve(),
  };
  assert.equal(await main(['status', '--repo', url, '-o', 'json'], onceIo), 0, once.join('\n'));
  const local: string[] = [];
  const localIo: Io = {
    out: (s) => local.push(s),
    err: (s) => local.push(s),
    untilInterrupted: () => Promise.resolve(),
  };
  assert.equal(await main(['status', '--repo', repo.path, '-o', 'json'], localIo), 0, local.join('\n'));
  const clustersOf = (text: string) => (JSON.parse(text) as { clusters: ClusterSummary[] }).clusters;
  assert.deepEqual(
    clustersOf(once[0]!).map(({ reportAgeSeconds: _, ...c }) => c),
    clustersOf(local[0]!).map(({ reportAgeSeconds: _, ...c }) => c),
  );

  const out: string[] = [];
  let interrupt!: () => void;
  const interrupted = new Promise<void>((resolve) => (interrupt = resolve));
  const io: Io = {
    out: (s) => out.push(s),
    err: (s) => out.push(`stderr: ${s}`),
    untilInterrupted: () => interrupted,
  };
  const exit = main(['status', '--repo', url, '--watch', '--interval', '200ms', '-o', 'json'], io);
  try {
    await eventually(() => out.length === 1, 'the first snapshot');
    const m1Head = head(repo, 'gitfleet/clusters/m1');
    await commitReport(
      repo,
      { cluster: 'm1', appliedCommit: m1Head, clusterStatus: ready, objects: recordsOf(repo, m1Head) },
      1_700_000_300,
    );
    await eventually(() => out.length === 2, 'a snapshot after the fetch');
    const m1 = clustersOf(out[1]!).find((c) => c.cluster === 'm1')!;
    assert.equal(m1.ready, 'True');
    assert.equal(m1.appliedCommit, m1Head);
  } finally {
    interrupt();
    assert.equal(await exit, 0);
  }
});

test('status --watch on a URL at --log-level debug logs each look that found nothing new on stderr, stamped; at the default level nothing', async (t) => {
  const { url, server } = await servedFleet(t);
  // Watches until `enough` holds of stderr and the watch made several requests (looks) to the server.
  const watchFor = async (extra: string[], enough: (err: string[]) => boolean) => {
    const out: string[] = [];
    const err: string[] = [];
    let interrupt!: () => void;
    const interrupted = new Promise<void>((resolve) => (interrupt = resolve));
    const io: Io = { out: (s) => out.push(s), err: (s) => err.push(s), untilInterrupted: () => interrupted };
    const fetchesBefore = server.requests.length;
    const exit = main(
      ['status', '--repo', url, '--watch', '--interval', '100ms', '-o', 'json', ...extra],
      io,
    );
    try {
      await eventually(() => enough(err) && server.requests.length >= fetchesBefore + 8, 'looks');
    } finally {
      interrupt();
      assert.equal(await exit, 0);
    }
    return { out, err };
  };
  const debug = await watchFor(['--log-level', 'debug'], (err) => err.length >= 3);
  assert.equal(debug.out.length, 1, 'one snapshot: nothing moved');
  for (const line of debug.err)
    assert.match(
      line,
      new RegExp(
        `^${stamp} gitfleet status: debug: no bindings, cluster or status branch moved; nothing to print$`,
      ),
    );
  const quiet = await watchFor([], () => true);
  assert.equal(quiet.out.length, 1);
  assert.deepEqual(quiet.err, []);
});
