// Fault: the hub process is killed (SIGKILL, no chance to clean up) at any point of a pass:
// while it reads, renders, writes objects or moves refs. The next pass must complete the work as
// if nothing had happened: every branch ends at the render of the source commit, no lock is
// left behind, and the repository is sound.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { watch } from 'node:fs';
import { join } from 'node:path';
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

/** Runs a pass on a copy to completion and returns its trees: what every trial must end with. */
async function referenceTrees(fleet: string): Promise<{ trees: Map<string, string>; passMs: number }> {
  const reference = copyRepo(fleet);
  const began = process.hrtime.bigint();
  const clean = await runCliProcess(['hub', '--repo', reference, '--once']);
  const passMs = Number(process.hrtime.bigint() - began) / 1e6;
  assert.equal(clean.code, 0, clean.stderr);
  return { trees: hubTrees(reference), passMs };
}

/** Runs the next pass and checks it converged to the reference. */
async function assertConverges(repo: string, want: Map<string, string>, trial: string): Promise<void> {
  const next = await runCliProcess(['hub', '--repo', repo, '--once']);
  assert.equal(next.code, 0, `${trial}: the next pass succeeds: ${next.stderr}`);
  assert.deepEqual(hubTrees(repo), want, `${trial}: every branch holds the render of main`);
  assert.deepEqual(leftoverLocks(repo), [], `${trial}: no lock is left`);
  assert.equal(fsckProblems(repo), '', `${trial}: git fsck is clean`);
}

test('a hub killed with SIGKILL anywhere in its first pass leaves a repository the next pass completes', async () => {
  const fleet = generatedFleetRepo(shape);
  // The uninterrupted pass also says how long a pass runs, which only spreads the kills over it.
  const { trees: want, passMs } = await referenceTrees(fleet);
  assert.ok(want.size > shape.clusters, 'the reference pass wrote every cluster branch');
  const trials = 6;
  for (let i = 0; i < trials; i++) {
    const repo = copyRepo(fleet);
    const hub = startCli(['hub', '--repo', repo, '--once']);
    const ended = exitOf(hub);
    const delay = passMs * (0.3 + (0.8 * i) / (trials - 1));
    const timer = setTimeout(() => hub.kill('SIGKILL'), delay);
    await ended;
    clearTimeout(timer);
    await assertConverges(repo, want, `trial ${i} (kill after ${delay.toFixed(0)} ms)`);
  }
});

test('a hub killed with SIGKILL while it holds its ref locks leaves a repository the next pass completes', async () => {
  const fleet = generatedFleetRepo(shape);
  const first = await runCliProcess(['hub', '--repo', fleet, '--once']);
  assert.equal(first.code, 0, first.stderr);
  commitFleetFiles(fleet, bumpedFleet(shape), 'bump every image');
  const { trees: want } = await referenceTrees(fleet);
  const trials = 4;
  let killedHoldingLocks = 0;
  for (let i = 0; i < trials; i++) {
    const repo = copyRepo(fleet);
    const hub = startCli(['hub', '--repo', repo, '--once']);
    const ended = exitOf(hub);
    // The kill lands the moment the first ref lock appears: inside the window where refs move.
    const watcher = watch(join(repo, 'refs/heads/gitfleet/clusters'), (_event, name) => {
      if (name?.endsWith('.lock')) {
        hub.kill('SIGKILL');
        watcher.close();
      }
    });
    const exit = await ended;
    watcher.close();
    if (exit.signal === 'SIGKILL' && leftoverLocks(repo).length > 0) killedHoldingLocks++;
    await assertConverges(repo, want, `trial ${i}`);
  }
  assert.ok(killedHoldingLocks > 0, 'at least one kill left ref locks behind for the next pass to recover');
});
