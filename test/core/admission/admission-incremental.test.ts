// The admission check costs what changed (docs/admission-policies.md#cost): verdicts are kept in
// the render memo by the cluster's policy set and the object's text, so an unchanged object under
// an unchanged policy set is not evaluated again (its verdict is last time's object), and a
// cluster's checked output stays derived from last time's, at the paths that changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet, type LoadMemo } from '../../../src/core/load/load-fleet.js';
import { freshSnapshot } from '../../../src/core/model/snapshot.js';
import { renderFleet, type RenderResult } from '../../../src/core/render/render-fleet.js';
import { expressionCompilations } from '../../../src/core/admission/compile-expression.js';
import { baseFleet, deploymentYaml, filesOf, policyYaml } from './admission-fleet.js';

const web = 'shop/Deployment.apps/web.yaml';
const api = 'shop/Deployment.apps/api.yaml';

function render(fleet: Map<string, string>, last?: { result: RenderResult; load: LoadMemo }) {
  const loaded = loadFleet(filesOf(fleet), last ? { memo: last.load } : {});
  assert.ok(loaded.ok);
  const result = renderFleet(freshSnapshot(loaded.fleet), {
    ahead: true,
    ...(last ? { memo: last.result.memo } : {}),
  });
  return { result, load: loaded.memo };
}

/** The verdict kept for a cluster's file: the findings array object the memo holds. */
function verdictOf(result: RenderResult, cluster: string, path: string): unknown {
  const admission = result.memo.admission!;
  const checked = admission.clusters.get(cluster)!;
  const text = checked.input.output.files.get(path)!;
  return admission.verdicts.get(checked.policies!.key)!.get(text);
}

test('An unchanged object under an unchanged policy set keeps its verdict object; a changed one is evaluated.', () => {
  const fleet = baseFleet();
  const first = render(fleet);
  const second = render(fleet, first);
  fleet.set('shop/api.yaml', deploymentYaml('api', 1, 'nginx:1.28'));
  const third = render(fleet, second);
  for (const cluster of ['east', 'west']) {
    assert.equal(
      verdictOf(third.result, cluster, web),
      verdictOf(first.result, cluster, web),
      `${cluster} web`,
    );
    assert.notEqual(
      verdictOf(third.result, cluster, api),
      verdictOf(first.result, cluster, api),
      `${cluster} api`,
    );
  }
  // The denial on west is last time's findings, and the output equals a fresh render's.
  const fresh = render(fleet).result;
  assert.deepEqual(third.result.diagnostics, fresh.diagnostics);
  assert.deepEqual([...third.result.clusters.get('west')!.files], [...fresh.clusters.get('west')!.files]);
  assert.deepEqual([...third.result.clusters.get('west')!.held], [...fresh.clusters.get('west')!.held]);
});

test('Clusters with one policy set share verdicts: the same text on two clusters is evaluated once.', () => {
  const { result } = render(baseFleet());
  const admission = result.memo.admission!;
  assert.equal(admission.clusters.get('east')!.policies!.key, admission.clusters.get('west')!.policies!.key);
  // api renders to the same text on both clusters: one verdict. web differs (5 replicas on west): two.
  assert.equal(verdictOf(result, 'east', api), verdictOf(result, 'west', api));
  assert.equal(admission.verdicts.size, 1);
});

test('A changed policy is a new policy set: every object is evaluated again, and a denial lifted is back in the files, at a derived path.', () => {
  const fleet = baseFleet();
  const first = render(fleet);
  const second = render(fleet, first);
  fleet.set(
    'policies/max-replicas.yaml',
    policyYaml({ name: 'max-replicas', expression: 'object.spec.replicas <= 9' }),
  );
  const third = render(fleet, second);
  assert.notEqual(verdictOf(third.result, 'east', api), verdictOf(second.result, 'east', api));
  const west = third.result.clusters.get('west')!;
  assert.ok(west.files.has(web));
  assert.equal(west.held.has(web), false);
  assert.equal(west.derived?.from, second.result.clusters.get('west'));
  assert.ok(west.derived?.paths.has(web));
  assert.deepEqual(
    third.result.diagnostics.filter((d) => d.code.startsWith('Admission')),
    [],
  );
});

test('A render whose clusters did not change reuses each cluster’s check whole.', () => {
  const fleet = baseFleet();
  const first = render(fleet);
  const second = render(fleet, first);
  const third = render(fleet, second);
  for (const cluster of ['east', 'west'])
    assert.equal(
      third.result.memo.admission!.clusters.get(cluster),
      second.result.memo.admission!.clusters.get(cluster),
    );
  assert.equal(third.result.clusters.get('west'), second.result.clusters.get('west'));
});

test('A policy is compiled once: a render with the same policies compiles no expression, a changed policy only its new one.', () => {
  // A text no other test compiles, so the count is this test's own in a shared process.
  const mark = 'object.spec.replicas <= 1000003';
  const fleet = baseFleet();
  fleet.set('policies/max-replicas.yaml', policyYaml({ name: 'max-replicas', expression: mark }));
  const before = expressionCompilations();
  const first = render(fleet);
  const compiledFirst = expressionCompilations() - before;
  assert.ok(compiledFirst >= 1, 'the first render compiles the policy');
  // A changed Deployment renders again and checks it, but compiles nothing: the same texts.
  fleet.set('shop/api.yaml', deploymentYaml('api', 2, 'nginx:1.29'));
  const second = render(fleet, first);
  assert.equal(expressionCompilations() - before, compiledFirst, 'no compilation for unchanged policies');
  // A fresh render (no memo, as a restarted hub's first pass in the same process) compiles nothing either.
  render(fleet);
  assert.equal(expressionCompilations() - before, compiledFirst);
  fleet.set('policies/max-replicas.yaml', policyYaml({ name: 'max-replicas', expression: `${mark} + 0` }));
  render(fleet, second);
  assert.equal(expressionCompilations() - before, compiledFirst + 1, 'the changed expression alone');
});
