// Fault: `hub --once` gets SIGTERM in the middle of its pass (issue 27 point 17: it exited 143
// with no handler, leaving ref locks the next pass had to recover). It must stop as the loop
// does: the pass in hand finishes or stops at its next request, its locks are released, it says
// so on stderr, and it exits with a code of the table, never by the signal. The next pass works.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { watch } from 'node:fs';
import { join } from 'node:path';
import { exitCodes } from '../../src/cli/exit-codes.js';
import {
  bumpedFleet,
  commitFleetFiles,
  copyRepo,
  exitOf,
  fsckProblems,
  generatedFleetRepo,
  hubTrees,
  leftoverLocks,
  removeScratch,
  runCliProcess,
  startCli,
} from './fault-fixture.js';

after(removeScratch);

const shape = { templates: 150, clusters: 12 };

test('hub --once given SIGTERM while it holds its ref locks releases them, logs, exits with its code; the next pass completes', async () => {
  const fleet = generatedFleetRepo(shape);
  const first = await runCliProcess(['hub', '--repo', fleet, '--once']);
  assert.equal(first.code, 0, first.stderr);
  commitFleetFiles(fleet, bumpedFleet(shape), 'bump every image');
  const reference = copyRepo(fleet);
  assert.equal((await runCliProcess(['hub', '--repo', reference, '--once'])).code, 0);
  const want = hubTrees(reference);
  let signalled = 0;
  for (let i = 0; i < 3; i++) {
    const repo = copyRepo(fleet);
    const hub = startCli(['hub', '--repo', repo, '--once']);
    const ended = exitOf(hub);
    // The signal lands the moment the first ref lock appears: inside the window where refs move.
    const watcher = watch(join(repo, 'refs/heads/gitfleet/clusters'), (_event, name) => {
      if (name?.endsWith('.lock') && hub.exitCode === null) {
        hub.kill('SIGTERM');
        signalled++;
        watcher.close();
      }
    });
    const exit = await ended;
    watcher.close();
    assert.equal(exit.signal, null, `trial ${i}: not ended by the signal: ${exit.stderr}`);
    assert.ok(
      [exitCodes.ok, exitCodes.failed].includes(exit.code as 0 | 1),
      `trial ${i}: exit ${exit.code}: ${exit.stderr}`,
    );
    assert.deepEqual(leftoverLocks(repo), [], `trial ${i}: no lock is left`);
    assert.match(exit.stderr, /hub: stopping/, `trial ${i}: it says it stops`);
    const next = await runCliProcess(['hub', '--repo', repo, '--once']);
    assert.equal(next.code, 0, `trial ${i}: the next pass succeeds: ${next.stderr}`);
    assert.doesNotMatch(next.stderr, /recovered|stale/i, `trial ${i}: the next pass had no lock to recover`);
    assert.deepEqual(hubTrees(repo), want, `trial ${i}: every branch holds the render of main`);
    assert.equal(fsckProblems(repo), '', `trial ${i}: git fsck is clean`);
  }
  assert.ok(signalled > 0, 'SIGTERM landed inside a pass');
});
