// RolloutStrategy and ClusterRolloutStrategy (gitfleet.io/v1alpha1) in the fleet repo
// (core/load/parse-rollout-strategy.ts): loaded into Fleet.rolloutStrategies with their defaults
// (soakSeconds 0, approval Auto, progressDeadlineSeconds 600, onFailure Halt; a RolloutStrategy
// without metadata.namespace in `default`), every problem refused with the file, the document
// and the field named, and never propagated to a cluster.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRolloutStrategy } from '../../../src/core/load/parse-rollout-strategy.js';
import { formatLoadError } from '../../../src/core/load/load-error.js';
import type { RolloutStrategy } from '../../../src/core/model/rollout.js';
import { freshSnapshot } from '../../../src/core/model/snapshot.js';
import { renderFleet } from '../../../src/core/render/render-fleet.js';
import { clusterDoc, fileOf, mustFail, mustLoad, policyDoc } from './documents.js';

const file = 'policies/rollout.yaml';
const web = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

function strategyDoc(
  spec: unknown,
  opts: { kind?: 'RolloutStrategy' | 'ClusterRolloutStrategy'; name?: string; namespace?: string } = {},
): Record<string, unknown> {
  const metadata: Record<string, unknown> = { name: opts.name ?? 'web' };
  if (opts.namespace !== undefined) metadata['namespace'] = opts.namespace;
  return {
    apiVersion: 'gitfleet.io/v1alpha1',
    kind: opts.kind ?? 'RolloutStrategy',
    metadata,
    ...(spec === undefined ? {} : { spec }),
  };
}

const minimal = { resourceSelectors: [web], steps: [{}] };

function loadOne(doc: unknown): RolloutStrategy {
  const fleet = mustLoad([fileOf(file, doc)]);
  assert.equal(fleet.rolloutStrategies?.length, 1, JSON.stringify(fleet.rolloutStrategies));
  return fleet.rolloutStrategies[0]!;
}

test('approvers: the key files, and self-approval refused unless allowed', () => {
  const spec = {
    ...minimal,
    approvers: { allowedSigners: 'keys/approvers', openpgpKeys: 'keys/approvers.asc' },
  };
  assert.deepEqual(loadOne(strategyDoc(spec, { namespace: 'shop' })).approvers, {
    allowedSigners: 'keys/approvers',
    openpgpKeys: 'keys/approvers.asc',
    allowSelfApproval: false,
  });
  const allowed = { ...minimal, approvers: { openpgpKeys: 'k.asc', allowSelfApproval: true } };
  assert.deepEqual(loadOne(strategyDoc(allowed, { namespace: 'shop' })).approvers, {
    openpgpKeys: 'k.asc',
    allowSelfApproval: true,
  });
});

test('a RolloutStrategy with only selectors and one empty step gets every default', () => {
  assert.deepEqual(loadOne(strategyDoc(minimal, { namespace: 'shop' })), {
    kind: 'RolloutStrategy',
    namespace: 'shop',
    name: 'web',
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' }],
    steps: [{ soakSeconds: 0, approval: 'Auto' }],
    progressDeadlineSeconds: 600,
    onFailure: 'Halt',
    source: { file, index: 0, line: 1 },
  });
});

test('a RolloutStrategy without metadata.namespace is in default, and so are its selectors', () => {
  const s = loadOne(strategyDoc(minimal));
  assert.equal(s.namespace, 'default');
  assert.equal(s.resourceSelectors[0]!.namespace, 'default');
});

test('every field written is kept, step by step and in order', () => {
  const s = loadOne(
    strategyDoc(
      {
        resourceSelectors: [
          web,
          { apiVersion: 'v1', kind: 'ConfigMap', labelSelector: { matchLabels: { app: 'web' } } },
        ],
        steps: [
          { clusters: { clusterNames: ['canary'] }, soakSeconds: 300 },
          {
            clusters: { labelSelector: { matchLabels: { env: 'prod' } }, exclude: ['canary'] },
            maxUnavailable: 2,
            approval: 'Manual',
          },
          { approval: 'Auto' },
        ],
        progressDeadlineSeconds: 120,
        onFailure: 'Rollback',
      },
      { namespace: 'shop' },
    ),
  );
  assert.deepEqual(s.steps, [
    { clusters: { clusterNames: ['canary'] }, soakSeconds: 300, approval: 'Auto' },
    {
      clusters: { labelSelector: { matchLabels: { env: 'prod' } }, exclude: ['canary'] },
      soakSeconds: 0,
      maxUnavailable: 2,
      approval: 'Manual',
    },
    { soakSeconds: 0, approval: 'Auto' },
  ]);
  assert.equal(s.progressDeadlineSeconds, 120);
  assert.equal(s.onFailure, 'Rollback');
  assert.deepEqual(s.resourceSelectors[1], {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    namespace: 'shop',
    labelSelector: { matchLabels: { app: 'web' } },
  });
});

test('a ClusterRolloutStrategy has no namespace and its selectors may name any namespace, or none', () => {
  const s = loadOne(
    strategyDoc(
      {
        resourceSelectors: [
          { ...web, namespace: 'shop' },
          { apiVersion: 'apps/v1', kind: 'StatefulSet' },
        ],
        steps: [{}],
      },
      { kind: 'ClusterRolloutStrategy', name: 'everything' },
    ),
  );
  assert.equal(s.kind, 'ClusterRolloutStrategy');
  assert.equal(s.namespace, '');
  assert.deepEqual(s.resourceSelectors, [
    { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' },
    { apiVersion: 'apps/v1', kind: 'StatefulSet' },
  ]);
});

test('a ClusterRolloutStrategy written with metadata.namespace stays cluster-scoped, as a ClusterPropagationPolicy does', () => {
  const s = loadOne(strategyDoc(minimal, { kind: 'ClusterRolloutStrategy', namespace: 'shop' }));
  assert.equal(s.namespace, '');
  assert.equal(s.resourceSelectors[0]!.namespace, undefined);
});

test('a fleet without strategies has no rolloutStrategies field', () => {
  assert.equal(mustLoad([fileOf(file, clusterDoc('member1'))]).rolloutStrategies, undefined);
});

test('a strategy of a version gitfleet.io does not have is an error, not a skipped template', () => {
  const errors = mustFail([fileOf(file, { ...strategyDoc(minimal), apiVersion: 'gitfleet.io/v1beta1' })]);
  assert.deepEqual(
    errors.map((e) => [e.code, e.message]),
    [
      [
        'UnknownKind',
        'RolloutStrategy/web: gitfleet.io/v1beta1 is not a version gitfleet knows; known: v1alpha1',
      ],
    ],
  );
});

// Each row: the spec (or the whole document), and the one error it gives.
const errors: {
  name: string;
  spec?: unknown;
  doc?: Record<string, unknown>;
  opts?: Parameters<typeof strategyDoc>[1];
  message: string;
}[] = [
  { name: 'no spec', spec: undefined, message: 'RolloutStrategy/shop/web: spec: is required' },
  {
    name: 'a spec that is no mapping',
    spec: 'fast',
    message: 'RolloutStrategy/shop/web: spec: must be a mapping',
  },
  {
    name: 'no resourceSelectors',
    spec: { steps: [{}] },
    message: 'RolloutStrategy/shop/web: spec.resourceSelectors: is required and must have at least one item',
  },
  {
    name: 'an empty resourceSelectors list',
    spec: { resourceSelectors: [], steps: [{}] },
    message: 'RolloutStrategy/shop/web: spec.resourceSelectors: is required and must have at least one item',
  },
  {
    name: 'a selector without kind',
    spec: { resourceSelectors: [{ apiVersion: 'apps/v1', name: 'web' }], steps: [{}] },
    message: 'RolloutStrategy/shop/web: spec.resourceSelectors[0].kind: is required',
  },
  {
    name: 'no steps',
    spec: { resourceSelectors: [web] },
    message: 'RolloutStrategy/shop/web: spec.steps: is required and must have at least one item',
  },
  {
    name: 'an empty steps list',
    spec: { resourceSelectors: [web], steps: [] },
    message: 'RolloutStrategy/shop/web: spec.steps: is required and must have at least one item',
  },
  {
    name: 'steps that are no list',
    spec: { resourceSelectors: [web], steps: { soakSeconds: 1 } },
    message: 'RolloutStrategy/shop/web: spec.steps: must be a list, not a mapping',
  },
  {
    name: 'a step that is no mapping',
    spec: { resourceSelectors: [web], steps: ['canary'] },
    message: 'RolloutStrategy/shop/web: spec.steps[0]: must be a mapping',
  },
  {
    name: 'a negative soakSeconds',
    spec: { resourceSelectors: [web], steps: [{ soakSeconds: -1 }] },
    message: 'RolloutStrategy/shop/web: spec.steps[0].soakSeconds: must not be negative',
  },
  {
    name: 'a soakSeconds that is no integer',
    spec: { resourceSelectors: [web], steps: [{ soakSeconds: '5m' }] },
    message: 'RolloutStrategy/shop/web: spec.steps[0].soakSeconds: must be an integer, not string "5m"',
  },
  {
    name: 'a fractional soakSeconds',
    spec: { resourceSelectors: [web], steps: [{ soakSeconds: 1.5 }] },
    message: 'RolloutStrategy/shop/web: spec.steps[0].soakSeconds: must be an integer, not number 1.5',
  },
  {
    name: 'maxUnavailable 0',
    spec: { resourceSelectors: [web], steps: [{ maxUnavailable: 0 }] },
    message: 'RolloutStrategy/shop/web: spec.steps[0].maxUnavailable: must be at least 1',
  },
  {
    name: 'a percentage maxUnavailable',
    spec: { resourceSelectors: [web], steps: [{ maxUnavailable: '50%' }] },
    message: 'RolloutStrategy/shop/web: spec.steps[0].maxUnavailable: must be an integer, not string "50%"',
  },
  {
    name: 'an unknown approval',
    spec: { resourceSelectors: [web], steps: [{ approval: 'manual' }] },
    message:
      'RolloutStrategy/shop/web: spec.steps[0].approval: unsupported value "manual": must be one of Auto, Manual',
  },
  {
    name: 'approvers naming no key file',
    spec: { ...minimal, approvers: { allowSelfApproval: true } },
    message:
      'RolloutStrategy/shop/web: spec.approvers: names no key file: give allowedSigners (allowed_signers lines) and/or openpgpKeys (armored public keys)',
  },
  {
    name: 'an allowSelfApproval that is no boolean',
    spec: { ...minimal, approvers: { allowedSigners: 'keys/approvers', allowSelfApproval: 'yes' } },
    message:
      'RolloutStrategy/shop/web: spec.approvers.allowSelfApproval: must be a boolean, not string "yes"',
  },
  {
    name: 'an unknown onFailure',
    spec: { ...minimal, onFailure: 'Retry' },
    message:
      'RolloutStrategy/shop/web: spec.onFailure: unsupported value "Retry": must be one of Halt, Rollback',
  },
  {
    name: 'progressDeadlineSeconds 0',
    spec: { ...minimal, progressDeadlineSeconds: 0 },
    message: 'RolloutStrategy/shop/web: spec.progressDeadlineSeconds: must be at least 1',
  },
  {
    name: 'a step clusters that is no mapping',
    spec: { resourceSelectors: [web], steps: [{ clusters: ['canary'] }] },
    message: 'RolloutStrategy/shop/web: spec.steps[0].clusters: must be a mapping',
  },
  {
    name: 'a clusterNames that is no list',
    spec: { resourceSelectors: [web], steps: [{ clusters: { clusterNames: 'canary' } }] },
    message:
      'RolloutStrategy/shop/web: spec.steps[0].clusters.clusterNames: must be a list, not string "canary"',
  },
  {
    name: "a RolloutStrategy's selector of another namespace",
    spec: { resourceSelectors: [{ ...web, namespace: 'billing' }], steps: [{}] },
    message:
      'RolloutStrategy/shop/web: spec.resourceSelectors[0].namespace: "billing": namespace of resource selector must be the same as the namespace of the policy',
  },
  {
    name: "a default-namespace RolloutStrategy's selector of another namespace",
    spec: { resourceSelectors: [{ ...web, namespace: 'shop' }], steps: [{}] },
    opts: {},
    message:
      'RolloutStrategy/default/web: spec.resourceSelectors[0].namespace: "shop": namespace of resource selector must be the same as the namespace of the policy',
  },
  {
    name: 'a ClusterRolloutStrategy without steps',
    spec: { resourceSelectors: [web] },
    opts: { kind: 'ClusterRolloutStrategy' },
    message: 'ClusterRolloutStrategy/web: spec.steps: is required and must have at least one item',
  },
];

for (const row of errors) {
  test(`refused: ${row.name}`, () => {
    const doc = row.doc ?? strategyDoc(row.spec, row.opts ?? { namespace: 'shop' });
    // A document of its own after another, so the error's document index is seen to be its own.
    const found = mustFail([fileOf(file, clusterDoc('member1'), doc)]);
    assert.deepEqual(
      found.map((e) => formatLoadError(e)),
      [`${file}#1:3: ${row.message}`],
    );
    assert.equal(found[0]!.code, 'InvalidPolicy');
  });
}

test('every problem of one strategy is reported at once', () => {
  const found = mustFail([
    fileOf(
      file,
      strategyDoc(
        {
          resourceSelectors: [],
          steps: [{ soakSeconds: -5, maxUnavailable: 0, approval: 'Later' }],
          onFailure: 'Pause',
        },
        { namespace: 'shop' },
      ),
    ),
  ]);
  assert.deepEqual(
    found.map((e) => e.message),
    [
      'RolloutStrategy/shop/web: spec.resourceSelectors: is required and must have at least one item',
      'RolloutStrategy/shop/web: spec.steps[0].soakSeconds: must not be negative',
      'RolloutStrategy/shop/web: spec.steps[0].maxUnavailable: must be at least 1',
      'RolloutStrategy/shop/web: spec.steps[0].approval: unsupported value "Later": must be one of Auto, Manual',
      'RolloutStrategy/shop/web: spec.onFailure: unsupported value "Pause": must be one of Halt, Rollback',
    ],
  );
});

test('a strategy defined twice is refused with both places; another kind or namespace of the same name is not the same', () => {
  const found = mustFail([
    fileOf(file, strategyDoc(minimal, { namespace: 'default' })),
    fileOf('policies/zz-again.yaml', strategyDoc(minimal)),
  ]);
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.equal(found[0]!.code, 'DuplicateIdentity');
  assert.equal(found[0]!.file, 'policies/zz-again.yaml');
  assert.match(
    found[0]!.message,
    /^RolloutStrategy\/default\/web: defined twice, at policies\/rollout\.yaml#0 \(line 1\) and at policies\/zz-again\.yaml#0 \(line 1\)$/,
  );
  const fleet = mustLoad([
    fileOf(
      file,
      strategyDoc(minimal, { namespace: 'shop' }),
      strategyDoc(minimal, { namespace: 'billing' }),
      strategyDoc(minimal, { kind: 'ClusterRolloutStrategy' }),
    ),
  ]);
  assert.deepEqual(
    fleet.rolloutStrategies?.map((s) => `${s.kind} ${s.namespace}/${s.name}`),
    ['RolloutStrategy shop/web', 'RolloutStrategy billing/web', 'ClusterRolloutStrategy /web'],
  );
});

test('a strategy is never a template: a ClusterPropagationPolicy selecting its kind places nothing', () => {
  const fleet = mustLoad([
    fileOf('clusters.yaml', clusterDoc('member1')),
    fileOf(
      file,
      strategyDoc(minimal, { namespace: 'shop' }),
      strategyDoc(minimal, { kind: 'ClusterRolloutStrategy' }),
    ),
    fileOf(
      'policies/all.yaml',
      policyDoc('ClusterPropagationPolicy', 'all', {
        resourceSelectors: [
          { apiVersion: 'gitfleet.io/v1alpha1', kind: 'RolloutStrategy' },
          { apiVersion: 'gitfleet.io/v1alpha1', kind: 'ClusterRolloutStrategy' },
        ],
        placement: { clusterAffinity: { clusterNames: ['member1'] } },
      }),
    ),
  ]);
  assert.deepEqual(fleet.templates, []);
  const render = renderFleet(freshSnapshot(fleet));
  assert.deepEqual([...(render.clusters.get('member1')?.files.keys() ?? [])], []);
  assert.deepEqual(render.bindings, []);
});

test('parseRolloutStrategy directly: the kind, namespace and source are taken as given', () => {
  const source = { file: 'x.yaml', index: 4, line: 9 };
  const parsed = parseRolloutStrategy({
    object: { spec: { resourceSelectors: [web], steps: [{ soakSeconds: 10 }] } },
    kind: 'ClusterRolloutStrategy',
    namespace: '',
    name: 'all',
    source,
  });
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.strategy, {
    kind: 'ClusterRolloutStrategy',
    namespace: '',
    name: 'all',
    resourceSelectors: [web],
    steps: [{ soakSeconds: 10, approval: 'Auto' }],
    progressDeadlineSeconds: 600,
    onFailure: 'Halt',
    source,
  });
  const bad = parseRolloutStrategy({
    object: {},
    kind: 'RolloutStrategy',
    namespace: 'shop',
    name: 'web',
    source,
  });
  assert.deepEqual(bad, { ok: false, issues: [{ path: 'spec', message: 'is required' }] });
});

test('null fields read as absent, as Go decodes them: defaults apply', () => {
  const s = loadOne(
    strategyDoc(
      {
        resourceSelectors: [web],
        steps: [{ clusters: null, soakSeconds: null, maxUnavailable: null, approval: null }],
        progressDeadlineSeconds: null,
        onFailure: null,
      },
      { namespace: 'shop' },
    ),
  );
  assert.deepEqual(s.steps, [{ soakSeconds: 0, approval: 'Auto' }]);
  assert.equal(s.progressDeadlineSeconds, 600);
  assert.equal(s.onFailure, 'Halt');
});

// Unknown fields, wherever they are, name the field (and the file and document). A typo inside a
// step's clusters or a selector must not load either: `clusters: {clusterName: [canary]}` would
// read as an empty ClusterAffinity, which matches every cluster, so the canary step would move the
// whole fleet at once; `nmae: web` would select every Deployment of the namespace.
const unknownFields: { name: string; spec: unknown; field: string }[] = [
  {
    name: 'a misspelt clusterNames in a step',
    spec: { resourceSelectors: [web], steps: [{ clusters: { clusterName: ['canary'] } }, {}] },
    field: 'spec.steps[0].clusters.clusterName',
  },
  {
    name: 'an unknown field of a step label selector',
    spec: {
      resourceSelectors: [web],
      steps: [{ clusters: { labelSelector: { matchLabel: { env: 'prod' } } } }],
    },
    field: 'spec.steps[0].clusters.labelSelector.matchLabel',
  },
  {
    name: 'a misspelt name in a resource selector',
    spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', nmae: 'web' }], steps: [{}] },
    field: 'spec.resourceSelectors[0].nmae',
  },
  {
    name: 'an unknown field of spec',
    spec: { ...minimal, maxSurge: 1 },
    field: 'spec.maxSurge',
  },
  {
    name: 'an unknown field of a step',
    spec: { resourceSelectors: [web], steps: [{}, { soak: 60 }] },
    field: 'spec.steps[1].soak',
  },
];

for (const row of unknownFields) {
  test(`refused: ${row.name}, naming the field`, () => {
    const found = mustFail([fileOf(file, strategyDoc(row.spec, { namespace: 'shop' }))]);
    assert.equal(found.length, 1, JSON.stringify(found));
    assert.equal(found[0]!.file, file);
    assert.equal(found[0]!.index, 0);
    assert.ok(
      found[0]!.message.startsWith(`RolloutStrategy/shop/web: ${row.field}: unknown field`),
      found[0]!.message,
    );
  });
}

test('refused: an unknown top-level field is named, not only the spec it left out', () => {
  const found = mustFail([
    fileOf(file, {
      apiVersion: 'gitfleet.io/v1alpha1',
      kind: 'ClusterRolloutStrategy',
      metadata: { name: 'all' },
      specs: minimal,
    }),
  ]);
  assert.ok(
    found.some((e) => e.message.startsWith('ClusterRolloutStrategy/all: specs: unknown field')),
    JSON.stringify(found),
  );
});

test('refused: an unknown field of a RolloutStrategy without namespace names it in default, as the loader places it', () => {
  const found = mustFail([fileOf(file, strategyDoc({ ...minimal, onFaliure: 'Halt' }))]);
  assert.deepEqual(
    found.map((e) => e.message),
    ['RolloutStrategy/default/web: spec.onFaliure: unknown field; did you mean onFailure?'],
  );
});
