// Fault: two hub processes run at once on the same repository (a second replica started by
// mistake, or an old one that never stopped). Compare-and-swap on every ref must keep them from
// overwriting each other: both end without damage and the branches hold the render of the
// source commit, each cluster branch a fast-forward of what it was.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  bumpedFleet,
  commitFleetFiles,
  copyRepo,
  fsckProblems,
  generatedFleetRepo,
  gitAt,
  hubTrees,
  leftoverLocks,
  removeScratch,
  runCliProcess,
} from './fault-fixture.js';

after(removeScratch);

const shape = { templates: 120, clusters: 8 };

test('two hubs passing over the same commits at once leave consistent, fast-forwarded branches', async () => {
  const fleet = generatedFleetRepo(shape);
  const reference = copyRepo(fleet);
  for (const round of ['initial', 'bumped']) {
    if (round === 'bumped') {
      commitFleetFiles(fleet, bumpedFleet(shape), 'bump every image');
      commitFleetFiles(reference, bumpedFleet(shape), 'bump every image');
    }
    const before = new Map(
      [...hubTrees(fleet).keys()].map((ref) => [ref, gitAt(fleet, ['rev-parse', ref])] as const),
    );
    const [a, b] = await Promise.all([
      runCliProcess(['hub', '--repo', fleet, '--once']),
      runCliProcess(['hub', '--repo', fleet, '--once']),
    ]);
    // Each either wrote the pass or found it written by the other; neither fails.
    assert.equal(a.code, 0, `${round}: first hub: ${a.stderr}`);
    assert.equal(b.code, 0, `${round}: second hub: ${b.stderr}`);
    const alone = await runCliProcess(['hub', '--repo', reference, '--once']);
    assert.equal(alone.code, 0, alone.stderr);
    assert.deepEqual(hubTrees(fleet), hubTrees(reference), `${round}: the same trees as one hub alone`);
    for (const [ref, old] of before) {
      const now = gitAt(fleet, ['rev-parse', ref]);
      // merge-base --is-ancestor exits 1 (and execFileSync throws) when `old` is not an ancestor.
      gitAt(fleet, ['merge-base', '--is-ancestor', old, now]);
    }
    assert.deepEqual(leftoverLocks(fleet), []);
    assert.equal(fsckProblems(fleet), '');
  }
});
