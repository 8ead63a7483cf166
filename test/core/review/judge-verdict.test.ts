import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Binding } from '../../../src/core/model/binding.js';
import { defaultDeletionGuard } from '../../../src/core/model/mass-deletion-guard.js';
import { diffRenders, type RenderSide } from '../../../src/core/review/diff-renders.js';
import { countReplicasMoved, judgeVerdict } from '../../../src/core/review/judge-verdict.js';
import { formatDiffMarkdown } from '../../../src/core/review/format-diff-markdown.js';

type Files = Record<string, string>;

function side(clusters: Record<string, Files>, bindings: Binding[] = []): RenderSide {
  return {
    clusters: new Map(
      Object.entries(clusters).map(([name, files]) => [name, { files: new Map(Object.entries(files)) }]),
    ),
    bindings,
    diagnostics: [],
  };
}

/** A binding of Deployment/shop/<name> scheduled with these replicas per cluster. */
function aBinding(name: string, replicas: Record<string, number>): Binding {
  return {
    name: `${name}-deployment`,
    key: `apps/Deployment/shop/${name}`,
    resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name },
    origin: 'policy',
    schedule: {
      type: 'Scheduled',
      clusters: Object.entries(replicas).map(([n, r]) => ({ name: n, replicas: r })),
    },
  } as unknown as Binding;
}

function objects(n: number, prefix = 'a'): Files {
  return Object.fromEntries(
    Array.from({ length: n }, (_, i) => [`x/ConfigMap/${prefix}${i}.yaml`, `n: ${i}\n`]),
  );
}

function verdictOf(base: RenderSide, head: RenderSide, allowed: (c: string) => boolean = () => false) {
  const diff = diffRenders({ base, head });
  return judgeVerdict({ diff, base, head, guards: defaultDeletionGuard, deletionsAllowed: allowed });
}

const movedCases: { name: string; base: Binding[]; head: Binding[]; want: number }[] = [
  {
    name: 'a scale-up moves no replica',
    base: [aBinding('web', { m1: 2, m2: 2 })],
    head: [aBinding('web', { m1: 3, m2: 3 })],
    want: 0,
  },
  {
    name: 'replicas leaving one cluster for another are moved',
    base: [aBinding('web', { m1: 4, m2: 2 })],
    head: [aBinding('web', { m1: 1, m2: 5 })],
    want: 3,
  },
  {
    name: 'a template placed on a new cluster takes its replicas with it',
    base: [aBinding('web', { m1: 3 })],
    head: [aBinding('web', { m2: 3 })],
    want: 3,
  },
  {
    name: 'a scale-down that also moves counts only what moved',
    base: [aBinding('web', { m1: 4, m2: 0 })],
    head: [aBinding('web', { m1: 1, m2: 1 })],
    want: 1,
  },
  { name: 'a new template moves nothing', base: [], head: [aBinding('web', { m1: 3 })], want: 0 },
];

for (const c of movedCases) {
  test(c.name, () => assert.equal(countReplicasMoved(c.base, c.head), c.want));
}

test('the verdict sums the per-cluster counts and names the replicas moved', () => {
  const v = verdictOf(
    side({ m1: { ...objects(3), 'x/ConfigMap/old.yaml': 'o\n' }, m2: objects(2) }, [
      aBinding('web', { m1: 2, m2: 2 }),
    ]),
    side(
      {
        m1: { ...objects(3), 'x/ConfigMap/a0.yaml': 'changed\n', 'x/ConfigMap/new.yaml': 'n\n' },
        m2: objects(2),
      },
      [aBinding('web', { m1: 1, m2: 3 })],
    ),
  );
  assert.deepEqual(
    [v.clusters, v.added, v.changed, v.removed, v.replicasMoved, v.refusedDeletions],
    [1, 1, 1, 1, 1, 0],
  );
  assert.equal(
    v.text,
    'verdict: 1 cluster touched; objects 1 added, 1 changed, 1 removed; 1 replica moved; no deletion refused by the mass-deletion guard',
  );
});

test('a scale-up shows the replicas before and after beside the replicas moved', () => {
  const v = verdictOf(
    side({ m1: objects(1), m2: objects(1) }, [aBinding('web', { m1: 5, m2: 2 })]),
    side({ m1: { 'x/ConfigMap/a0.yaml': 'changed\n' }, m2: objects(1) }, [aBinding('web', { m1: 6, m2: 3 })]),
  );
  assert.deepEqual([v.replicasBefore, v.replicasAfter, v.replicasMoved], [7, 9, 0]);
  assert.match(v.text, /; replicas 7 → 9, 0 moved; /);
});

test('deletions the mass-deletion guard refuses are counted per refused cluster, unless the commit allows them', () => {
  const base = side({ all: objects(3), share: objects(12), fine: objects(12) });
  const head = side({ all: {}, share: objects(5), fine: objects(7) });
  const v = verdictOf(base, head);
  // all: every object goes (3); share: 7 of 12 (more than half of over ten); fine: 5 of 12.
  assert.equal(v.refusedDeletions, 10);
  assert.deepEqual(v.refusedClusters, ['all', 'share']);
  assert.match(v.text, /10 deletions the mass-deletion guard will refuse \(all, share\)$/);
  const allowed = verdictOf(base, head, (c) => c === 'share');
  assert.equal(allowed.refusedDeletions, 3);
  assert.deepEqual(allowed.refusedClusters, ['all']);
});

test('the guard judges against the branch as it is when it is known, not the base render', () => {
  const base = side({ m1: objects(3) });
  const head = side({ m1: objects(1) });
  const diff = diffRenders({ base, head });
  const current = new Map([['m1', new Map(Object.entries(objects(1)))]]);
  const v = judgeVerdict({
    diff,
    base,
    head,
    current,
    guards: defaultDeletionGuard,
    deletionsAllowed: () => false,
  });
  assert.equal(v.removed, 2);
  assert.equal(v.refusedDeletions, 0, 'the branch holds one object already, so the pass deletes nothing');
});

test('the markdown starts with the verdict line, and stays within its budget on a big change', () => {
  const base = side(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`c${i}`, objects(30)])));
  const head = side(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`c${i}`, objects(30, 'b')])));
  const v = verdictOf(base, head);
  const md = formatDiffMarkdown(diffRenders({ base, head }), {
    verdict: v.text,
    state: 'no hub state: rendered as a first pass',
  });
  assert.equal(md.split('\n')[0], `**${v.text.charAt(0).toUpperCase()}${v.text.slice(1)}**`);
  assert.ok(md.length <= 60_000, `${md.length} characters`);
  assert.match(md, /> \*\*Truncated:\*\*/);
});
