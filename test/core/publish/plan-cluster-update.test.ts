import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  planClusterUpdate,
  type PlanClusterUpdateInput,
} from '../../../src/core/publish/plan-cluster-update.js';

const guards = { maxDeleteFraction: 0.5, minObjects: 10 };
const files = (n: number, prefix = 'default/ConfigMap/cm') =>
  new Map(Array.from({ length: n }, (_, i) => [`${prefix}${i}.yaml`, `oid${i}`]));

function plan(given: Partial<PlanClusterUpdateInput>) {
  return planClusterUpdate({
    cluster: 'member1',
    current: new Map(),
    rendered: new Map(),
    held: new Set(),
    guards,
    deletionsAllowed: false,
    ...given,
  });
}

const cases: { name: string; given: Partial<PlanClusterUpdateInput>; want: string }[] = [
  {
    name: 'the same files are no change',
    given: { current: files(3), rendered: files(3) },
    want: 'unchanged',
  },
  { name: 'a first render of a new branch is an update', given: { rendered: files(3) }, want: 'update' },
  {
    name: 'deleting one of three objects is allowed',
    given: { current: files(3), rendered: files(2) },
    want: 'update',
  },
  {
    name: 'deleting every object is refused',
    given: { current: files(3), rendered: new Map() },
    want: 'refused',
  },
  {
    name: 'deleting every object is allowed when the source commit says so',
    given: { current: files(3), rendered: new Map(), deletionsAllowed: true },
    want: 'update',
  },
  {
    name: 'deleting 6 of 11 objects is refused',
    given: { current: files(11), rendered: files(5) },
    want: 'refused',
  },
  {
    name: 'deleting 5 of 11 objects is allowed',
    given: { current: files(11), rendered: files(6) },
    want: 'update',
  },
  {
    name: 'deleting 6 of 10 objects is allowed (ten or fewer)',
    given: { current: files(10), rendered: files(4) },
    want: 'update',
  },
  {
    name: 'a held object keeps its current content and is no deletion',
    given: { current: files(2), rendered: files(1), held: new Set(['default/ConfigMap/cm1.yaml']) },
    want: 'unchanged',
  },
  {
    name: "the hub's own .gitfleet files are neither objects nor changes",
    given: { current: new Map([['.gitfleet/x', 'a'], ...files(1)]), rendered: files(1) },
    want: 'unchanged',
  },
];

for (const c of cases) test(c.name, () => assert.equal(plan(c.given).type, c.want));

test('changes list added, changed and removed paths in path order', () => {
  const result = plan({
    current: new Map([
      ['a.yaml', '1'],
      ['b.yaml', '2'],
      ['c.yaml', '3'],
    ]),
    rendered: new Map([
      ['b.yaml', '9'],
      ['c.yaml', '3'],
      ['d.yaml', '4'],
    ]),
  });
  assert.equal(result.type, 'update');
  if (result.type !== 'update') return;
  assert.deepEqual(result.changes, [
    { path: 'a.yaml', change: 'removed' },
    { path: 'b.yaml', change: 'changed' },
    { path: 'd.yaml', change: 'added' },
  ]);
});

test('a refusal names the cluster and the counts', () => {
  const result = plan({ current: files(20), rendered: files(2) });
  assert.equal(result.type, 'refused');
  if (result.type === 'refused') assert.match(result.reason, /^member1: the render deletes 18 of 20 objects/);
});

test('planning only the changed paths gives what planning every path gives', () => {
  let seed = 7;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
  for (let round = 0; round < 300; round++) {
    const paths = Array.from({ length: 1 + Math.floor(random() * 20) }, (_, i) => `ns/ConfigMap/c${i}.yaml`);
    const current = new Map<string, string>();
    for (const p of paths) if (random() < 0.7) current.set(p, `old-${p}`);
    // The last render equals the current files; then some paths change.
    const rendered = new Map([...current].filter(([p]) => !p.startsWith('.gitfleet/')));
    const changed = new Set<string>();
    const held = new Set<string>();
    for (const p of paths) {
      const r = random();
      if (r < 0.15) rendered.set(p, `new-${p}`);
      else if (r < 0.25) rendered.delete(p);
      else if (r < 0.3) held.add(p);
      else continue;
      changed.add(p);
    }
    if (random() < 0.2) changed.add(paths[0]!); // a path rendered again to the same text
    const input = { cluster: 'm1', current, rendered, held, guards, deletionsAllowed: random() < 0.5 };
    const whole = planClusterUpdate(input);
    const partial = planClusterUpdate({ ...input, changedPaths: changed });
    assert.deepEqual(
      partial.type === 'update' ? { ...partial, files: new Map([...partial.files].sort()) } : partial,
      whole.type === 'update' ? { ...whole, files: new Map([...whole.files].sort()) } : whole,
      `round ${round}`,
    );
  }
});
