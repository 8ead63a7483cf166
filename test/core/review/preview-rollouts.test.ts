import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emitYaml } from '../../../src/core/format/emit-yaml.js';
import { objectPath } from '../../../src/core/format/object-path.js';
import type { Binding } from '../../../src/core/model/binding.js';
import type { Template } from '../../../src/core/model/fleet.js';
import type { KubeObject } from '../../../src/core/model/kube-object.js';
import { refKey, type ObjectRef } from '../../../src/core/model/object-ref.js';
import type { RolloutStrategy } from '../../../src/core/model/rollout.js';
import { diffRenders, type RenderSide } from '../../../src/core/review/diff-renders.js';
import { formatDiffMarkdown } from '../../../src/core/review/format-diff-markdown.js';
import { formatDiffText } from '../../../src/core/review/format-diff-text.js';
import { previewRollouts, type RolloutPreview } from '../../../src/core/review/preview-rollouts.js';
import { rolloutLines } from '../../../src/core/review/rollout-lines.js';
import { aCluster, aConfigMap, aDeployment, aPlacement } from '../builders.js';

function aTemplate(object: KubeObject): Template {
  const ref: ObjectRef = {
    apiVersion: object.apiVersion,
    kind: object.kind,
    namespace: object.metadata.namespace ?? '',
    name: object.metadata.name,
  };
  return { ref, key: refKey(ref), object, source: { file: 'apps/x.yaml', index: 0 } };
}

const web = aTemplate(aDeployment('web', { namespace: 'shop', images: ['web:1'] }));
const api = aTemplate(aDeployment('api', { namespace: 'shop', images: ['api:1'] }));
const settings = aTemplate(aConfigMap('settings', { mode: 'fast' }, 'shop'));
const templates = [web, api, settings];
const clusters = [
  aCluster('member1', { labels: { wave: 'canary' } }),
  aCluster('member2', { labels: { env: 'prod' } }),
  aCluster('member3', { labels: { env: 'prod' } }),
];

function aStrategy(extra: Partial<RolloutStrategy> = {}): RolloutStrategy {
  return {
    kind: 'RolloutStrategy',
    namespace: 'shop',
    name: 'web',
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' }],
    steps: [
      { clusters: { clusterNames: ['member1'] }, soakSeconds: 300, approval: 'Auto' },
      { clusters: { labelSelector: { matchLabels: { env: 'prod' } } }, soakSeconds: 0, approval: 'Manual' },
    ],
    progressDeadlineSeconds: 600,
    onFailure: 'Halt',
    source: { file: 'rollouts/web.yaml', index: 0 },
    ...extra,
  };
}

/** The rendered text of a template with another image or replica count. */
function rendered(t: Template, opts: { image?: string; replicas?: number; data?: string } = {}): string {
  const object = structuredClone(t.object) as KubeObject & { spec?: Record<string, unknown> };
  if (opts.replicas !== undefined) object.spec!['replicas'] = opts.replicas;
  if (opts.image !== undefined)
    (
      object.spec as { template: { spec: { containers: { image: string }[] } } }
    ).template.spec.containers[0]!.image = opts.image;
  if (opts.data !== undefined) object['data'] = { mode: opts.data };
  return emitYaml(object);
}

function side(
  byCluster: Record<string, [Template, string][]>,
  held: Record<string, string[]> = {},
): RenderSide {
  return {
    clusters: new Map(
      Object.entries(byCluster).map(([name, files]) => [
        name,
        {
          files: new Map(files.map(([t, text]) => [objectPath(t.ref), text])),
          held: new Map((held[name] ?? []).map((p) => [p, 'override failed'])),
        },
      ]),
    ),
    bindings: [...new Set(Object.values(byCluster).flatMap((files) => files.map(([t]) => t)))].map(aBinding),
    diagnostics: [],
  };
}

/** The binding of a template the side renders (only its key is read here). */
function aBinding(t: Template): Binding {
  return {
    name: `${t.ref.name}-${t.ref.kind.toLowerCase()}`,
    resource: t.ref,
    key: t.key,
    origin: 'policy',
    replicas: 0,
    placement: aPlacement(),
    propagateDeps: false,
    conflictResolution: 'Abort',
    preserveResourcesOnDeletion: false,
    schedule: { type: 'Scheduled', clusters: [] },
    requiredBy: [],
    overrides: 'all',
  };
}

const everywhere = (pick: (cluster: string) => [Template, string][]) =>
  Object.fromEntries(clusters.map((c) => [c.name, pick(c.name)]));

const base = side(
  everywhere(() => [
    [web, rendered(web)],
    [api, rendered(api)],
    [settings, rendered(settings)],
  ]),
);

function preview(head: RenderSide, strategies = [aStrategy()]): RolloutPreview {
  return previewRollouts({ strategies, templates, clusters, base, head });
}

test('a changed image of a selected template is grouped by step; nothing else changes, so nothing is at once', () => {
  const head = side(
    everywhere(() => [
      [web, rendered(web, { image: 'web:2' })],
      [api, rendered(api)],
      [settings, rendered(settings)],
    ]),
  );
  assert.deepEqual(preview(head), {
    strategies: [
      {
        strategy: 'shop/web',
        steps: [
          { step: 1, clusters: ['member1'], later: [], soakSeconds: 300, approval: 'Auto' },
          {
            step: 2,
            clusters: ['member2', 'member3'],
            later: ['member2', 'member3'],
            soakSeconds: 0,
            approval: 'Manual',
          },
        ],
      },
    ],
    atOnce: [],
    // Without the hub's state: the rollout this change starts moves step 1 now, the rest later.
    now: ['member1'],
    later: ['member2', 'member3'],
  });
});

test('only the clusters whose selected objects change are listed; a step with none is left out', () => {
  const head = side(
    everywhere((c) => [
      [web, rendered(web, c === 'member1' ? {} : { image: 'web:2' })],
      [api, rendered(api)],
      [settings, rendered(settings)],
    ]),
  );
  assert.deepEqual(
    preview(head).strategies[0]!.steps.map((s) => [s.step, s.clusters]),
    [[2, ['member2', 'member3']]],
  );
});

test('objects no strategy selects, replica counts, new placements and removals are at once, not in a step', () => {
  const cases: { name: string; head: RenderSide; atOnce: string[] }[] = [
    {
      name: 'an unselected ConfigMap changes on every cluster',
      head: side(
        everywhere(() => [
          [web, rendered(web)],
          [api, rendered(api)],
          [settings, rendered(settings, { data: 'slow' })],
        ]),
      ),
      atOnce: ['member1', 'member2', 'member3'],
    },
    {
      name: 'the scheduler moves replicas of the selected Deployment on member2',
      head: side(
        everywhere((c) => [
          [web, rendered(web, c === 'member2' ? { replicas: 4 } : {})],
          [api, rendered(api)],
          [settings, rendered(settings)],
        ]),
      ),
      atOnce: ['member2'],
    },
    {
      name: 'the selected Deployment leaves member3 and an unselected one changes on member1',
      head: side({
        member1: [
          [web, rendered(web)],
          [api, rendered(api, { image: 'api:2' })],
          [settings, rendered(settings)],
        ],
        member2: [
          [web, rendered(web)],
          [api, rendered(api)],
          [settings, rendered(settings)],
        ],
        member3: [
          [api, rendered(api)],
          [settings, rendered(settings)],
        ],
      }),
      atOnce: ['member1', 'member3'],
    },
  ];
  for (const c of cases)
    assert.deepEqual(preview(c.head), { strategies: [], atOnce: c.atOnce, now: c.atOnce, later: [] }, c.name);
});

test('a selected file that fails to render in head is held by the hub: no change at all', () => {
  const head = side(
    {
      member1: [
        [api, rendered(api)],
        [settings, rendered(settings)],
      ],
      member2: [
        [web, rendered(web)],
        [api, rendered(api)],
        [settings, rendered(settings)],
      ],
      member3: [
        [web, rendered(web)],
        [api, rendered(api)],
        [settings, rendered(settings)],
      ],
    },
    { member1: [objectPath(web.ref)] },
  );
  assert.deepEqual(preview(head), { strategies: [], atOnce: [], now: [], later: [] });
});

test('a selected file that failed to render in base and renders in head is a change in its step', () => {
  const failedBase = side(
    {
      member1: [[api, rendered(api)]],
      member2: [
        [web, rendered(web)],
        [api, rendered(api)],
      ],
      member3: [
        [web, rendered(web)],
        [api, rendered(api)],
      ],
    },
    { member1: [objectPath(web.ref)] },
  );
  const head = side(
    everywhere(() => [
      [web, rendered(web)],
      [api, rendered(api)],
    ]),
  );
  const got = previewRollouts({ strategies: [aStrategy()], templates, clusters, base: failedBase, head });
  assert.deepEqual(
    got.strategies[0]!.steps.map((s) => [s.step, s.clusters]),
    [[1, ['member1']]],
  );
  assert.deepEqual(got.atOnce, []);
});

test('a selected template new in head is held by its steps, as the hub holds new content', () => {
  const shop = aStrategy({
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop' }],
  });
  const cart = aTemplate(aDeployment('cart', { namespace: 'shop' }));
  const head = side(
    everywhere(() => [
      [web, rendered(web)],
      [api, rendered(api)],
      [settings, rendered(settings)],
      [cart, rendered(cart)],
    ]),
  );
  const got = previewRollouts({ strategies: [shop], templates: [...templates, cart], clusters, base, head });
  assert.deepEqual(
    got.strategies[0]!.steps.map((s) => s.clusters),
    [['member1'], ['member2', 'member3']],
  );
  assert.deepEqual(got.atOnce, []);
});

test('a template selected on a new cluster arrives at once, and without strategies there is no preview', () => {
  const head = side({
    ...everywhere(() => [
      [web, rendered(web, { image: 'web:2' })],
      [api, rendered(api)],
      [settings, rendered(settings)],
    ]),
    member4: [[web, rendered(web, { image: 'web:2' })]],
  });
  const withNew = previewRollouts({
    strategies: [aStrategy()],
    templates,
    clusters: [...clusters, aCluster('member4')],
    base,
    head,
  });
  assert.deepEqual(withNew.atOnce, ['member4']);
  assert.deepEqual(
    withNew.strategies[0]!.steps.map((s) => s.clusters),
    [['member1'], ['member2', 'member3']],
  );
  assert.deepEqual(preview(head, []), { strategies: [], atOnce: [], now: [], later: [] });
});

test('each strategy gets its own steps, by label; a cluster no step names is in the last step', () => {
  const apiRollout = aStrategy({
    kind: 'ClusterRolloutStrategy',
    namespace: '',
    name: 'api',
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'api' }],
    steps: [
      { clusters: { clusterNames: ['member3'] }, soakSeconds: 0, approval: 'Auto' },
      { soakSeconds: 60, maxUnavailable: 1, approval: 'Auto' },
    ],
  });
  const head = side(
    everywhere(() => [
      [web, rendered(web, { image: 'web:2' })],
      [api, rendered(api, { image: 'api:2' })],
      [settings, rendered(settings)],
    ]),
  );
  const got = preview(head, [aStrategy(), apiRollout]);
  assert.deepEqual(
    got.strategies.map((s) => s.strategy),
    ['api', 'shop/web'],
  );
  assert.deepEqual(got.strategies[0]!.steps, [
    { step: 1, clusters: ['member3'], later: [], soakSeconds: 0, approval: 'Auto' },
    {
      step: 2,
      clusters: ['member1', 'member2'],
      later: ['member1', 'member2'],
      soakSeconds: 60,
      maxUnavailable: 1,
      approval: 'Auto',
    },
  ]);
});

test('the lines say which clusters come first and how each step is gated, then what is not held', () => {
  const lines = rolloutLines({
    strategies: [
      {
        strategy: 'shop/web',
        steps: [
          { step: 1, clusters: ['member1'], later: [], soakSeconds: 300, approval: 'Auto' },
          {
            step: 2,
            clusters: ['member2', 'member3'],
            later: ['member2', 'member3'],
            soakSeconds: 0,
            approval: 'Manual',
          },
        ],
      },
      {
        strategy: 'api',
        steps: [
          {
            step: 2,
            clusters: ['a', 'b', 'c'],
            later: ['a', 'b', 'c'],
            soakSeconds: 60,
            maxUnavailable: 2,
            approval: 'Auto',
          },
        ],
      },
    ],
    atOnce: ['member1', 'member2'],
    now: ['member1', 'member2'],
    later: ['a', 'b', 'c', 'member2', 'member3'],
  });
  assert.deepEqual(lines, [
    'rollout shop/web: step 1 member1 first (soak 300s), then step 2 member2, member3 (approval: Manual)',
    'rollout api: step 2 a, b, c (soak 60s, 2 at a time)',
    'not held: the other changes reach member1, member2 at once (objects no rollout strategy selects, new placements, removals, replica counts)',
  ]);
  assert.deepEqual(
    rolloutLines(
      { strategies: [], atOnce: ['a', 'b', 'c'], now: ['a', 'b', 'c'], later: [] },
      { maxNames: 2 },
    ),
    [
      'not held: the other changes reach a, b and 1 more at once (objects no rollout strategy selects, new placements, removals, replica counts)',
    ],
  );
  assert.deepEqual(rolloutLines({ strategies: [], atOnce: [], now: [], later: [] }), []);
});

test('the text and markdown diffs carry the rollout lines after the placement, and nothing without a preview', () => {
  const head = side(
    everywhere(() => [
      [web, rendered(web, { image: 'web:2' })],
      [api, rendered(api)],
      [settings, rendered(settings, { data: 'slow' })],
    ]),
  );
  const diff = diffRenders({ base, head });
  const rollout = preview(head);
  const text = formatDiffText(diff, rollout);
  assert.match(
    text,
    /^# rollouts:\n# {3}rollout shop\/web: step 1 member1 first \(soak 300s\), then step 2 member2, member3 \(approval: Manual\)\n# {3}not held: the other changes reach member1, member2, member3 at once/m,
  );
  assert.equal(
    formatDiffText(diff, { strategies: [], atOnce: [], now: [], later: [] }),
    formatDiffText(diff),
  );
  const md = formatDiffMarkdown(diff, { rollout });
  assert.match(md, /\*\*Rollouts\*\*\n\n- rollout shop\/web: step 1 member1 first/);
  assert.equal(
    formatDiffMarkdown(diff, { rollout: { strategies: [], atOnce: [], now: [], later: [] } }),
    formatDiffMarkdown(diff),
  );
});

test('the markdown rollout section stays within its share of the comment budget', () => {
  const many: RolloutPreview = {
    strategies: Array.from({ length: 500 }, (_, i) => ({
      strategy: `team-${i}/web`,
      steps: [
        {
          step: 1,
          clusters: Array.from({ length: 40 }, (_, j) => `cluster-${j}`),
          later: [],
          soakSeconds: 0,
          approval: 'Auto' as const,
        },
      ],
    })),
    atOnce: [],
    now: Array.from({ length: 40 }, (_, j) => `cluster-${j}`),
    later: [],
  };
  const head = side(
    everywhere(() => [
      [web, rendered(web, { image: 'web:2' })],
      [api, rendered(api)],
      [settings, rendered(settings)],
    ]),
  );
  const md = formatDiffMarkdown(diffRenders({ base, head }), {
    rollout: many,
    maxChars: 20_000,
    maxItems: 1000,
  });
  const section = md.slice(md.indexOf('**Rollouts**'), md.indexOf('<details>'));
  assert.ok(section.length <= 5_000 + 200, `the section is ${section.length} characters`);
  assert.match(section, /- … and \d+ more\n/);
  assert.match(section, /cluster-19 and 20 more/);
  assert.ok(md.length <= 20_000);
});

test("with the hub's holds, the clusters its pass holds are later and the others now, in every step", () => {
  const head = side(
    everywhere(() => [
      [web, rendered(web, { image: 'web:2' })],
      [api, rendered(api)],
      [settings, rendered(settings, { data: 'slow' })],
    ]),
  );
  // A rollout in progress whose step 1 passed: member2 moved this pass, member3 waits.
  const holds = new Map([['shop/web', new Set(['member3'])]]);
  const got = previewRollouts({ strategies: [aStrategy()], templates, clusters, base, head, holds });
  assert.deepEqual(
    got.strategies[0]!.steps.map((s) => [s.step, s.clusters, s.later]),
    [
      [1, ['member1'], []],
      [2, ['member2', 'member3'], ['member3']],
    ],
  );
  assert.deepEqual([got.now, got.later], [['member1', 'member2', 'member3'], ['member3']]);
});

test('a Manual step 1 holds every cluster of a rollout the change starts', () => {
  const head = side(everywhere(() => [[web, rendered(web, { image: 'web:2' })]]));
  const manual = aStrategy({
    steps: [
      { clusters: { clusterNames: ['member1'] }, soakSeconds: 0, approval: 'Manual' },
      { soakSeconds: 0, approval: 'Auto' },
    ],
  });
  const got = previewRollouts({ strategies: [manual], templates, clusters, base, head });
  assert.deepEqual(got.later, ['member1', 'member2', 'member3']);
});
