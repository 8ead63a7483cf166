import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  planPrune,
  type PlanPruneInput,
  type PruneLiveFacts,
} from '../../../src/core/apply-plan/plan-prune.js';
import type { InventoryEntry } from '../../../src/core/apply-plan/inventory.js';
import { refKey, type ObjectRef } from '../../../src/core/model/object-ref.js';

const cm = (name: string): ObjectRef => ({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'shop', name });
const ours: PruneLiveFacts = { exists: true, labels: { 'gitfleet.io/cluster': 'member1' } };

function inventoryOf(refs: ObjectRef[]): Map<string, InventoryEntry> {
  return new Map(refs.map((ref) => [refKey(ref), { ref, digest: 'd' }]));
}

/** Ten objects in the inventory, `removed` of them left the branch; live facts per name (default: ours). */
function given(opts: {
  removed: string[];
  facts?: Record<string, PruneLiveFacts | undefined>;
  total?: number;
  listed?: boolean;
  allowDeletions?: boolean;
}): PlanPruneInput {
  const names = Array.from({ length: opts.total ?? 10 }, (_, i) => `cm${i}`);
  const refs = names.map(cm);
  const live = new Map<string, PruneLiveFacts>();
  for (const name of opts.removed) {
    const facts = opts.facts && name in opts.facts ? opts.facts[name] : ours;
    if (facts) live.set(refKey(cm(name)), facts);
  }
  return {
    cluster: 'member1',
    fleet: 'f1',
    inventory: inventoryOf(refs),
    desired: new Set(refs.filter((r) => !opts.removed.includes(r.name)).map(refKey)),
    live,
    listedKinds: new Set(opts.listed === false ? [] : ['/ConfigMap']),
    guard: { maxDeleteFraction: 0.5, minObjects: 10 },
    allowDeletions: opts.allowDeletions ?? false,
  };
}

function summary(input: PlanPruneInput): string[] {
  const plan = planPrune(input);
  return [
    ...plan.deletions.map((r) => `delete ${r.name}`),
    ...plan.orphans.map((r) => `orphan ${r.name}`),
    ...plan.left.map((l) => `leave ${l.ref.name} ${l.reason}`),
    ...plan.held.map((h) => `hold ${h.ref.name} ${h.reason}`),
  ];
}

const cases: { name: string; given: PlanPruneInput; want: string[] }[] = [
  { name: 'nothing left the branch: nothing to do', given: given({ removed: [] }), want: [] },
  {
    name: 'an owned object that left the branch is deleted',
    given: given({ removed: ['cm1'] }),
    want: ['delete cm1'],
  },
  {
    name: 'an object already gone is dropped from the inventory',
    given: given({ removed: ['cm1'], facts: { cm1: { exists: false } } }),
    want: ['leave cm1 Gone'],
  },
  {
    name: 'an object without the marker is left alone',
    given: given({ removed: ['cm1'], facts: { cm1: { exists: true, labels: {} } } }),
    want: ['leave cm1 NotOwned'],
  },
  {
    name: "an object carrying another cluster's marker is left alone",
    given: given({
      removed: ['cm1'],
      facts: { cm1: { exists: true, labels: { 'gitfleet.io/cluster': 'member2' } } },
    }),
    want: ['leave cm1 NotOwned'],
  },
  {
    name: 'an object annotated gitfleet.io/prune: disabled is left alone',
    given: given({
      removed: ['cm1'],
      facts: { cm1: { ...ours, annotations: { 'gitfleet.io/prune': 'disabled' } } },
    }),
    want: ['leave cm1 Kept'],
  },
  {
    name: 'an object controlled by another object is left to its garbage collection',
    given: given({ removed: ['cm1'], facts: { cm1: { ...ours, controller: 'Widget/w' } } }),
    want: ['leave cm1 Controlled'],
  },
  {
    name: 'an object preserved on deletion is orphaned, not deleted',
    given: given({
      removed: ['cm1'],
      facts: { cm1: { ...ours, annotations: { 'gitfleet.io/preserve-on-deletion': 'true' } } },
    }),
    want: ['orphan cm1'],
  },
  {
    name: 'an object whose kind could not be listed is held for the next pass',
    given: given({ removed: ['cm1'], listed: false }),
    want: ['hold cm1 NotListed'],
  },
  {
    name: 'an object whose live state could not be read is held for the next pass',
    given: given({ removed: ['cm1'], facts: { cm1: undefined } }),
    want: ['hold cm1 NotListed'],
  },
  {
    name: 'an object of ours still terminating (held by a finalizer) stays in the inventory, not deleted again',
    given: given({
      removed: ['cm1'],
      facts: { cm1: { ...ours, terminating: { finalizers: ['example.com/hold'] } } },
    }),
    want: ['hold cm1 Terminating'],
  },
  {
    name: 'a terminating object does not count towards the guard',
    given: given({
      total: 2,
      removed: ['cm0', 'cm1'],
      facts: { cm0: { ...ours, terminating: { finalizers: [] } } },
    }),
    want: ['delete cm1', 'hold cm0 Terminating'],
  },
  {
    name: 'deleting 6 of 10 objects is within the guard: an inventory of 10 is not more than minObjects',
    given: given({ removed: ['cm0', 'cm1', 'cm2', 'cm3', 'cm4', 'cm5'] }),
    want: ['delete cm0', 'delete cm1', 'delete cm2', 'delete cm3', 'delete cm4', 'delete cm5'],
  },
  {
    name: 'deleting 7 of 12 objects is refused by the guard, every deletion held',
    given: given({ total: 12, removed: ['cm0', 'cm1', 'cm2', 'cm3', 'cm4', 'cm5', 'cm6'] }),
    want: ['cm0', 'cm1', 'cm2', 'cm3', 'cm4', 'cm5', 'cm6'].map((n) => `hold ${n} MassDeletionGuard`),
  },
  {
    name: 'deleting 6 of 12 objects (half) is within the guard',
    given: given({ total: 12, removed: ['cm0', 'cm1', 'cm2', 'cm3', 'cm4', 'cm5'] }),
    want: ['delete cm0', 'delete cm1', 'delete cm2', 'delete cm3', 'delete cm4', 'delete cm5'],
  },
  {
    name: 'deleting every object is refused by the guard',
    given: given({ total: 2, removed: ['cm0', 'cm1'] }),
    want: ['hold cm0 MassDeletionGuard', 'hold cm1 MassDeletionGuard'],
  },
  {
    name: 'deleting every object is allowed when the commit allows deletions',
    given: given({ total: 2, removed: ['cm0', 'cm1'], allowDeletions: true }),
    want: ['delete cm0', 'delete cm1'],
  },
  {
    name: 'objects left alone do not count towards the guard',
    given: given({ total: 2, removed: ['cm0', 'cm1'], facts: { cm0: { exists: false } } }),
    want: ['delete cm1', 'leave cm0 Gone'],
  },
];

test('planPrune decides per candidate and applies the mass-deletion guard', () => {
  for (const c of cases) assert.deepEqual(summary(c.given), c.want, c.name);
});

test('deletions come in prune order: custom resources before CRDs, Namespaces last', () => {
  const refs: ObjectRef[] = [
    { apiVersion: 'v1', kind: 'Namespace', namespace: '', name: 'shop' },
    {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      namespace: '',
      name: 'widgets.example.com',
    },
    { apiVersion: 'example.com/v1', kind: 'Widget', namespace: 'shop', name: 'w' },
    cm('a'),
  ];
  const plan = planPrune({
    cluster: 'member1',
    fleet: 'f1',
    inventory: inventoryOf(refs),
    desired: new Set(),
    live: new Map(
      refs.map((r) => [
        refKey(r),
        r.kind === 'Namespace' || r.kind === 'CustomResourceDefinition'
          ? { ...ours, contents: { foreign: [] } }
          : ours,
      ]),
    ),
    listedKinds: new Set([
      '/Namespace',
      'apiextensions.k8s.io/CustomResourceDefinition',
      'example.com/Widget',
      '/ConfigMap',
    ]),
    guard: { maxDeleteFraction: 0.5, minObjects: 10 },
    allowDeletions: true,
  });
  assert.deepEqual(
    plan.deletions.map((r) => r.kind),
    ['Widget', 'ConfigMap', 'CustomResourceDefinition', 'Namespace'],
  );
});

test('a Namespace holding objects the agent does not own is kept, and says what holds it', () => {
  const ns: ObjectRef = { apiVersion: 'v1', kind: 'Namespace', namespace: '', name: 'shop' };
  const input = (facts: PruneLiveFacts): PlanPruneInput => ({
    cluster: 'member1',
    fleet: 'f1',
    inventory: inventoryOf([ns, cm('a')]),
    desired: new Set([refKey(cm('a'))]),
    live: new Map([[refKey(ns), facts]]),
    listedKinds: new Set(['/Namespace']),
    guard: { maxDeleteFraction: 0.5, minObjects: 10 },
    allowDeletions: true,
  });
  const kept = planPrune(
    input({ ...ours, contents: { foreign: ['ConfigMap/shop/theirs', 'Secret/shop/x'] } }),
  );
  assert.deepEqual(kept.deletions, []);
  assert.deepEqual(
    kept.held.map((h) => [h.reason, h.message]),
    [
      [
        'NamespaceNotEmpty',
        'Namespace/shop: not pruned: it holds 2 object(s) the agent does not own (ConfigMap/shop/theirs, Secret/shop/x); kept until they are gone',
      ],
    ],
  );
  const unknown = planPrune(input({ ...ours, contents: { unknown: 'Secret: 403 Forbidden' } }));
  assert.deepEqual(
    unknown.held.map((h) => [h.reason, h.message]),
    [
      [
        'NotListed',
        'Namespace/shop: not pruned: what it holds could not be listed (Secret: 403 Forbidden); retried next pass',
      ],
    ],
  );
  const empty = planPrune(input({ ...ours, contents: { foreign: [] } }));
  assert.deepEqual(
    empty.deletions.map((r) => r.name),
    ['shop'],
  );
});

test('a guard refusal names the counts', () => {
  const plan = planPrune(given({ total: 2, removed: ['cm0', 'cm1'] }));
  assert.match(
    plan.guardRefusal ?? '',
    /^member1: pruning refused: it would delete all 2 objects the agent applied/,
  );
});

test('a CRD whose custom resources the agent does not own is kept, unless its object opts in', () => {
  const crd: ObjectRef = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    namespace: '',
    name: 'widgets.example.com',
  };
  const input = (facts: PruneLiveFacts): PlanPruneInput => ({
    cluster: 'member1',
    fleet: 'f1',
    inventory: inventoryOf([crd, cm('a')]),
    desired: new Set([refKey(cm('a'))]),
    live: new Map([[refKey(crd), facts]]),
    listedKinds: new Set(['apiextensions.k8s.io/CustomResourceDefinition']),
    guard: { maxDeleteFraction: 0.5, minObjects: 10 },
    allowDeletions: true,
  });
  const foreign = { foreign: ['Widget/shop/theirs'] };
  const kept = planPrune(input({ ...ours, contents: foreign }));
  assert.deepEqual(kept.deletions, []);
  assert.deepEqual(
    kept.held.map((h) => [h.reason, h.message]),
    [
      [
        'CustomResourcesExist',
        'CustomResourceDefinition/widgets.example.com: not pruned: 1 custom resource(s) of its kinds are not the agent\'s (Widget/shop/theirs); deleting the CRD would delete them; kept until they are gone, or annotate it gitfleet.io/prune-crd-with-resources: "true"',
      ],
    ],
  );
  const unknown = planPrune(input({ ...ours, contents: { unknown: 'Widget: 403 Forbidden' } }));
  assert.deepEqual(
    unknown.held.map((h) => h.reason),
    ['NotListed'],
  );
  const notLooked = planPrune(input(ours));
  assert.deepEqual(
    notLooked.held.map((h) => h.reason),
    ['NotListed'],
    'a CRD whose custom resources were not looked at is not deleted',
  );
  const optIn = planPrune(
    input({
      ...ours,
      annotations: { 'gitfleet.io/prune-crd-with-resources': 'true' },
      contents: foreign,
    }),
  );
  assert.deepEqual(
    optIn.deletions.map((r) => r.name),
    ['widgets.example.com'],
  );
  const empty = planPrune(input({ ...ours, contents: { foreign: [] } }));
  assert.deepEqual(
    empty.deletions.map((r) => r.name),
    ['widgets.example.com'],
  );
});

test("an object of our cluster's name marked for another fleet is never pruned, and the other fleet is named", () => {
  const other: PruneLiveFacts = {
    exists: true,
    labels: { 'gitfleet.io/cluster': 'member1', 'gitfleet.io/fleet': 'f2' },
  };
  const mine: PruneLiveFacts = {
    exists: true,
    labels: { 'gitfleet.io/cluster': 'member1', 'gitfleet.io/fleet': 'f1' },
  };
  const plan = planPrune(given({ removed: ['cm1', 'cm2'], facts: { cm1: other, cm2: mine } }));
  assert.deepEqual(
    plan.deletions.map((r) => r.name),
    ['cm2'],
  );
  assert.deepEqual(
    plan.left.map((l) => [l.ref.name, l.reason, l.message]),
    [
      [
        'cm1',
        'NotOwned',
        'ConfigMap/shop/cm1: not pruned: conflict: it belongs to gitfleet.io/cluster=member1 of another fleet (gitfleet.io/fleet=f2, this agent serves f1); left in place',
      ],
    ],
  );
});

test('the mass-deletion guard judges deletions against the objects there before the pass, not padded by new ones', () => {
  // 21 objects applied before; the branch now holds 1,001 new ones and none of the 21.
  const old = Array.from({ length: 21 }, (_, i) => cm(`old${i}`));
  const added = Array.from({ length: 1001 }, (_, i) => cm(`new${i}`));
  const inventory = inventoryOf([...old, ...added]);
  const plan = planPrune({
    cluster: 'member1',
    fleet: 'f1',
    inventory,
    existing: old.length,
    desired: new Set(added.map(refKey)),
    live: new Map(old.map((r) => [refKey(r), ours])),
    listedKinds: new Set(['/ConfigMap']),
    guard: { maxDeleteFraction: 0.5, minObjects: 10 },
    allowDeletions: false,
  });
  assert.deepEqual(plan.deletions, []);
  assert.match(plan.guardRefusal ?? '', /it would delete all 21 objects the agent applied/);
});
