import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet, type LoadResult } from '../../../src/core/load/load-fleet.js';
import { clusterDoc, configMapDoc, fileOf, ppWithPlacement } from './documents.js';

function mustBeOk(result: LoadResult) {
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.fleet;
}

const files = () => [
  fileOf('clusters.yaml', clusterDoc('m1'), clusterDoc('m2')),
  fileOf('apps/a.yaml', configMapDoc('a1'), configMapDoc('a2')),
  fileOf('apps/b.yaml', configMapDoc('b1'), ppWithPlacement({ clusterAffinity: { clusterNames: ['m1'] } })),
];

test('a load given the previous memo equals a fresh load, and reuses the objects of unchanged files', () => {
  const first = loadFleet(files());
  const edited = files();
  edited[1] = fileOf('apps/a.yaml', configMapDoc('a1'), configMapDoc('a3'));
  const fresh = mustBeOk(loadFleet(edited));
  const again = loadFleet(edited, { memo: first.memo });
  const fleet = mustBeOk(again);
  assert.deepEqual(fleet, fresh);
  const before = mustBeOk(first);
  const byName = (f: typeof fleet, name: string) => f.templates.find((t) => t.ref.name === name);
  assert.equal(byName(fleet, 'b1'), byName(before, 'b1'), 'b.yaml did not change: the same template object');
  assert.equal(fleet.propagationPolicies[0], before.propagationPolicies[0]);
  assert.equal(fleet.clusters[0], before.clusters[0]);
  assert.equal(byName(fleet, 'a1'), byName(before, 'a1'), 'a1 did not change in the changed a.yaml');
  assert.equal(byName(fleet, 'a2'), undefined);
  assert.ok(byName(fleet, 'a3'));
});

test('an object of a changed file is new when its content or its place changed', () => {
  const first = loadFleet(files());
  const edited = files();
  edited[1] = fileOf(
    'apps/a.yaml',
    configMapDoc('a0'),
    { ...configMapDoc('a1'), data: { k: 'w' } },
    configMapDoc('a2'),
  );
  const fleet = mustBeOk(loadFleet(edited, { memo: first.memo }));
  const before = mustBeOk(first);
  const byName = (f: typeof fleet, name: string) => f.templates.find((t) => t.ref.name === name)!;
  assert.notEqual(byName(fleet, 'a1'), byName(before, 'a1'), 'a1 changed');
  assert.notEqual(byName(fleet, 'a2'), byName(before, 'a2'), 'a2 moved to another document');
  assert.equal(byName(fleet, 'a2').source.index, 2);
});

test('identities are checked across files on every load, reused files included', () => {
  const first = loadFleet(files());
  const edited = files();
  edited[1] = fileOf('apps/a.yaml', configMapDoc('a1'), configMapDoc('b1'));
  const result = loadFleet(edited, { memo: first.memo });
  assert.equal(result.ok, false);
  if (result.ok) return;
  assert.deepEqual(
    result.errors.map((e) => [e.code, e.file]),
    [['DuplicateIdentity', 'apps/b.yaml']],
  );
  // Fixed again: the memo of the failed load still serves.
  const fixed = loadFleet(files(), { memo: result.memo });
  assert.deepEqual(mustBeOk(fixed), mustBeOk(loadFleet(files())));
});

test('a memo made with other limits is not used', () => {
  const first = loadFleet(files());
  const result = loadFleet(files(), { memo: first.memo, maxFileBytes: 10 });
  assert.equal(result.ok, false);
  if (!result.ok) assert.ok(result.errors.every((e) => e.code === 'FileTooLarge'));
});
