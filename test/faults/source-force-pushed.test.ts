// Fault: the source branch is rewritten (a force push back to an older commit, or to a commit
// on another line of history). The source may be rewritten, the rendered branches may not: the
// hub follows the source to its new head and renders it, and every branch it writes still only
// moves forward, so agents and auditors see the rewrite as new commits, not lost history.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  bumpedFleet,
  commitFleetFiles,
  copyRepo,
  generatedFleetRepo,
  gitAt,
  hubTrees,
  removeScratch,
  runCliProcess,
} from './fault-fixture.js';

after(removeScratch);

const shape = { templates: 40, clusters: 4 };

test('a source branch forced back to an older commit is rendered again on top of the branches, never rewinding them', async () => {
  const fleet = generatedFleetRepo(shape);
  const initial = gitAt(fleet, ['rev-parse', 'main']);
  const pristine = copyRepo(fleet);
  assert.equal((await runCliProcess(['hub', '--repo', fleet, '--once'])).code, 0);
  commitFleetFiles(fleet, bumpedFleet(shape), 'bump every image');
  assert.equal((await runCliProcess(['hub', '--repo', fleet, '--once'])).code, 0);
  const bumpedTrees = hubTrees(fleet);
  const bumped = new Map(
    [...bumpedTrees.keys()].map((ref) => [ref, gitAt(fleet, ['rev-parse', ref])] as const),
  );

  gitAt(fleet, ['update-ref', 'refs/heads/main', initial]); // the force push
  const run = await runCliProcess(['hub', '--repo', fleet, '--once']);
  assert.equal(run.code, 0, run.stderr);

  // The trees are the render of the old commit, as a hub that only ever saw it writes them…
  assert.equal((await runCliProcess(['hub', '--repo', pristine, '--once'])).code, 0);
  assert.deepEqual(hubTrees(fleet), hubTrees(pristine));
  // …and every branch whose tree changed moved forward from the render of the bumped commit.
  let moved = 0;
  for (const [ref, old] of bumped) {
    const now = gitAt(fleet, ['rev-parse', ref]);
    // The bindings branch gets a commit per rendered source commit; a cluster branch only when its tree changes.
    if (!ref.endsWith('/bindings') && hubTrees(fleet).get(ref) === bumpedTrees.get(ref)) {
      assert.equal(now, old, `${ref}: an unchanged tree gets no commit`);
      continue;
    }
    moved++;
    assert.notEqual(now, old, `${ref} has a new commit`);
    gitAt(fleet, ['merge-base', '--is-ancestor', old, now]);
  }
  assert.ok(moved > 1, 'the rewrite changed several branches');
  const message = gitAt(fleet, ['log', '-1', '--format=%B', 'refs/heads/gitfleet/bindings']);
  assert.match(message, new RegExp(`Gitfleet-Source-Commit: ${initial}`));
});
