// `gitfleet status --watch` on a local repository written by hub passes: a snapshot first, then
// one more each time a gitfleet branch moves (driven by a status commit and by a hub pass),
// none for a heartbeat; Ctrl-C ends it with exit code 0.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/io.js';
import type { ClusterSummary } from '../../src/core/status/fleet-summary.js';
import { eventually } from '../support/eventually.js';
import {
  commitChange,
  fleetRepoWith,
  git,
  hubPass,
  rendered,
  removeFleetRepos,
} from '../loops/hub/hub-fixture.js';
import { commitReport, head, recordsOf, shopFleet } from './status-fixture.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

after(removeFleetRepos);

const ready = { conditions: [{ type: 'Ready', status: 'True' as const }] };

/** Starts `gitfleet status --watch …` in-process; returns what it printed so far and how to stop it. */
function startWatch(args: string[]): { out: string[]; err: string[]; stop: () => Promise<number> } {
  const out: string[] = [];
  const err: string[] = [];
  let interrupt!: () => void;
  const interrupted = new Promise<void>((resolve) => (interrupt = resolve));
  const io: Io = { out: (t) => out.push(t), err: (t) => err.push(t), untilInterrupted: () => interrupted };
  const exit = main(['status', '--watch', ...args], io);
  return {
    out,
    err,
    stop: async () => {
      interrupt();
      return exit;
    },
  };
}

test('--watch -o json prints one document per line, again when a status branch or the hub moves, not for a heartbeat', async () => {
  const repo = fleetRepoWith(shopFleet('web:1'), { bare: false });
  rendered(await hubPass(repo));
  const watch = startWatch(['--repo', repo.path, '-o', 'json']);
  try {
    await eventually(() => watch.out.length === 1, 'the first snapshot');
    const m1 = (n: number) =>
      (JSON.parse(watch.out[n]!) as { clusters: ClusterSummary[] }).clusters.find((c) => c.cluster === 'm1')!;
    assert.equal(m1(0).ready, 'NotReported');

    const m1Head = head(repo, 'gitfleet/clusters/m1');
    await commitReport(
      repo,
      { cluster: 'm1', appliedCommit: m1Head, clusterStatus: ready, objects: recordsOf(repo, m1Head) },
      1_700_000_300,
    );
    await eventually(() => watch.out.length === 2, 'a snapshot after the status commit');
    assert.equal(m1(1).ready, 'True');
    assert.deepEqual(m1(1).behind, { type: 'Behind', commits: 0 });

    // A heartbeat moves often and says nothing the summary shows: no snapshot.
    git(repo, ['update-ref', 'refs/heads/gitfleet/heartbeat/m1', m1Head]);
    commitChange(repo, 'bump web', (work) =>
      writeFileSync(join(work, 'apps/web.yaml'), shopFleet('web:2')['apps/web.yaml']!),
    );
    rendered(await hubPass(repo));
    await eventually(() => watch.out.length === 3, 'a snapshot after the hub pass');
    assert.deepEqual(m1(2).behind, { type: 'Behind', commits: 1 });
    assert.equal(watch.out.length, 3);
  } finally {
    assert.equal(await watch.stop(), 0);
  }
  assert.deepEqual(watch.err, []);
});

test('--watch as text separates snapshots with a --- line when stdout is not a terminal', async () => {
  const repo = fleetRepoWith(shopFleet('web:1'), { bare: false });
  rendered(await hubPass(repo));
  const watch = startWatch(['--repo', repo.path]);
  try {
    await eventually(() => watch.out.length === 1, 'the first snapshot');
    assert.match(watch.out[0]!, /^fleet at main [0-9a-f]{7} .*\n\nCLUSTER +READY/);
    const m2Head = head(repo, 'gitfleet/clusters/m2');
    await commitReport(
      repo,
      { cluster: 'm2', appliedCommit: m2Head, clusterStatus: ready, objects: [] },
      1_700_000_300,
    );
    await eventually(() => watch.out.length === 2, 'a second snapshot');
    assert.match(watch.out[1]!, /^---\nfleet at main [0-9a-f]{7} .*\n\nCLUSTER +READY/);
  } finally {
    assert.equal(await watch.stop(), 0);
  }
});

test('--watch on a repository the hub has not written to fails at once, as status does', async () => {
  const repo = fleetRepoWith(shopFleet('web:1'), { bare: false });
  const watch = startWatch(['--repo', repo.path]);
  assert.equal(await watch.stop(), 1);
  assert.match(watch.err.join('\n'), /no branch gitfleet\/bindings in .*: has the hub run\?/);
});
