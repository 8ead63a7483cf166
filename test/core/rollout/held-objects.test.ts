// What a rollout holds, on the canonical YAML the render writes (core/rollout/held-objects.ts):
// a change of the replicas Karmada revises per cluster (a Deployment's spec.replicas, a Job's
// spec.parallelism and spec.completions) is the scheduler's and moves at once; any other change
// is content and is held; a held object keeps its old text with the render's replicas; the
// digest of a strategy's objects leaves the replicas out and does not depend on the path order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet, type SourceFile } from '../../../src/core/load/load-fleet.js';
import { freshSnapshot } from '../../../src/core/model/snapshot.js';
import { renderFleet } from '../../../src/core/render/render-fleet.js';
import { classifyChange, contentDigest, heldText } from '../../../src/core/rollout/held-objects.js';

const deployment = 'shop/Deployment.apps/web.yaml';
const job = 'shop/Job.batch/migrate.yaml';
const config = 'shop/ConfigMap/web-config.yaml';

interface Variant {
  image?: string;
  jobImage?: string;
  /** Static weights of member1 and member2 (Divided). */
  weights?: [number, number];
  replicas?: number;
  parallelism?: number;
  completions?: number;
  configReplicas?: string;
  greeting?: string;
  /** Duplicated instead of Divided. */
  duplicated?: boolean;
}

/** Returns member2's rendered files of a small fleet: a Deployment, a Job and a ConfigMap. */
function renderOn(v: Variant = {}, cluster = 'member2'): Map<string, string> {
  const weights = v.weights ?? [1, 1];
  const scheduling = v.duplicated
    ? '    replicaScheduling: {replicaSchedulingType: Duplicated}'
    : [
        '    replicaScheduling:',
        '      replicaSchedulingType: Divided',
        '      replicaDivisionPreference: Weighted',
        '      weightPreference:',
        '        staticWeightList:',
        `        - {targetCluster: {clusterNames: [member1]}, weight: ${weights[0]}}`,
        `        - {targetCluster: {clusterNames: [member2]}, weight: ${weights[1]}}`,
      ].join('\n');
  const files: SourceFile[] = [
    {
      path: 'clusters.yaml',
      content: ['member1', 'member2']
        .map(
          (n) => `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: ${n}}\nspec: {}\n`,
        )
        .join('---\n'),
    },
    {
      path: 'apps/shop.yaml',
      content: `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: ${v.replicas ?? 6}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: "${v.image ?? 'web:1.0'}"}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: migrate, namespace: shop}
spec:
  parallelism: ${v.parallelism ?? 4}
  completions: ${v.completions ?? 8}
  template:
    spec:
      restartPolicy: Never
      containers: [{name: migrate, image: "${v.jobImage ?? 'migrate:1.0'}"}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: web-config, namespace: shop}
data: {replicas: "${v.configReplicas ?? '3'}", greeting: ${v.greeting ?? 'hello'}}
`,
    },
    {
      path: 'policies/shop.yaml',
      content: `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: shop, namespace: shop}
spec:
  resourceSelectors:
  - {apiVersion: apps/v1, kind: Deployment}
  - {apiVersion: batch/v1, kind: Job}
  - {apiVersion: v1, kind: ConfigMap}
  placement:
${scheduling}
`,
    },
  ];
  const loaded = loadFleet(files);
  assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.errors));
  const out = renderFleet(freshSnapshot(loaded.fleet)).clusters.get(cluster);
  assert.ok(out, `${cluster} is rendered`);
  return new Map(out.files);
}

function text(files: Map<string, string>, path: string): string {
  const found = files.get(path);
  assert.ok(found !== undefined, `${path} is rendered`);
  return found;
}

const base = renderOn();

test('the fixture: the weights move replicas, the replica lines are where the module looks for them', () => {
  assert.match(text(base, deployment), /^spec:\n {2}replicas: 3\n/m);
  assert.match(text(renderOn({ weights: [1, 2] }), deployment), /^ {2}replicas: 4$/m);
  assert.match(text(base, job), /^ {2}completions: 4\n {2}parallelism: 2$/m);
  assert.match(text(base, config), /^ {2}replicas: "3"$/m);
});

// Each row: the variant rendered after `base`, and the change of each path on member2.
const changes: { name: string; after: Variant; want: Record<string, string> }[] = [
  { name: 'nothing changed', after: {}, want: { [deployment]: 'same', [job]: 'same', [config]: 'same' } },
  {
    name: 'the scheduler moves replicas (weights 1:2)',
    after: { weights: [1, 2] },
    want: { [deployment]: 'schedule', [job]: 'schedule', [config]: 'same' },
  },
  {
    name: 'a new image of the Deployment',
    after: { image: 'web:1.1' },
    want: { [deployment]: 'content', [job]: 'same', [config]: 'same' },
  },
  {
    name: 'a new image and replicas moved at once',
    after: { image: 'web:1.1', weights: [2, 1] },
    want: { [deployment]: 'content', [job]: 'schedule', [config]: 'same' },
  },
  {
    name: "the Job's parallelism only",
    after: { parallelism: 8 },
    want: { [deployment]: 'same', [job]: 'schedule', [config]: 'same' },
  },
  {
    name: "the Job's completions only",
    after: { completions: 16 },
    want: { [deployment]: 'same', [job]: 'schedule', [config]: 'same' },
  },
  {
    name: "the Job's image",
    after: { jobImage: 'migrate:1.1' },
    want: { [deployment]: 'same', [job]: 'content', [config]: 'same' },
  },
  {
    name: 'a ConfigMap key named replicas is content',
    after: { configReplicas: '5' },
    want: { [deployment]: 'same', [job]: 'same', [config]: 'content' },
  },
  {
    name: 'another ConfigMap key',
    after: { greeting: 'hi' },
    want: { [deployment]: 'same', [job]: 'same', [config]: 'content' },
  },
];

for (const row of changes) {
  test(`classifyChange: ${row.name}`, () => {
    const after = renderOn(row.after);
    const got = Object.fromEntries(
      Object.keys(row.want).map((p) => [p, classifyChange(p, text(base, p), text(after, p), true)]),
    );
    assert.deepEqual(got, row.want);
  });
}

test('classifyChange: absent before or after', () => {
  const web = text(base, deployment);
  assert.equal(
    classifyChange(deployment, undefined, web, true),
    'placed',
    'the scheduler placed an existing template',
  );
  assert.equal(classifyChange(deployment, undefined, web, false), 'content', 'a new template is content');
  assert.equal(classifyChange(deployment, web, undefined, true), 'removed');
  assert.equal(classifyChange(deployment, undefined, undefined, true), 'same');
});

test('classifyChange: a Deployment of another group, or a custom resource, has no replica fields: any change is content', () => {
  const web = text(base, deployment);
  const moved = text(renderOn({ weights: [1, 2] }), deployment);
  assert.equal(classifyChange('shop/Deployment.extensions/web.yaml', web, moved, true), 'content');
  assert.equal(classifyChange('shop/Rollout.argoproj.io/web.yaml', web, moved, true), 'content');
  assert.equal(classifyChange('shop/StatefulSet.apps/web.yaml', web, moved, true), 'schedule');
  assert.equal(classifyChange('shop/ReplicaSet.apps/web.yaml', web, moved, true), 'schedule');
});

test('heldText: the old text with the render replicas is exactly the old content rendered with the new schedule', () => {
  const before = renderOn({ image: 'web:1.0', jobImage: 'migrate:1.0' });
  const after = renderOn({ image: 'web:1.1', jobImage: 'migrate:1.1', weights: [1, 3] });
  const oldContentNewSchedule = renderOn({ weights: [1, 3] });
  for (const path of [deployment, job]) {
    assert.notEqual(text(before, path), text(oldContentNewSchedule, path), `${path}: the schedule moved`);
    assert.equal(
      heldText(path, text(before, path), text(after, path)),
      text(oldContentNewSchedule, path),
      path,
    );
  }
});

test('heldText: nothing but the replica lines is taken from the render', () => {
  const before = text(base, deployment);
  const after = text(renderOn({ image: 'web:2.0', weights: [1, 2] }), deployment);
  const held = heldText(deployment, before, after);
  assert.match(held, /image: web:1\.0/);
  assert.doesNotMatch(held, /web:2\.0/);
  assert.match(held, /^ {2}replicas: 4$/m);
  const changed = held.split('\n').filter((line, i) => line !== before.split('\n')[i]);
  assert.deepEqual(changed, ['  replicas: 4']);
});

test('heldText: a ConfigMap (no replica fields), an object the render removes, or a render without replica lines keeps the old text', () => {
  const before = text(base, config);
  assert.equal(heldText(config, before, text(renderOn({ configReplicas: '9' }), config)), before);
  assert.equal(heldText(deployment, text(base, deployment), undefined), text(base, deployment));
  const noReplicas = text(renderOn({ image: 'web:3' }), deployment).replace(/^ {2}replicas: \d+\n/m, '');
  assert.equal(heldText(deployment, text(base, deployment), noReplicas), text(base, deployment));
});

test('contentDigest: replicas left out, path order ignored, content and paths counted', () => {
  const files = (v: Variant) => [...renderOn(v)].filter(([p]) => p !== '_cluster/Namespace/shop.yaml');
  const digest = contentDigest(files({}));
  assert.match(digest, /^[0-9a-f]{24}$/);
  assert.equal(
    contentDigest(files({ weights: [1, 5] })),
    digest,
    'the scheduler moving replicas is no change',
  );
  assert.equal(contentDigest(files({ parallelism: 10, completions: 20 })), digest);
  assert.equal(contentDigest([...files({})].reverse()), digest, 'the order of the paths does not matter');
  assert.notEqual(contentDigest(files({ image: 'web:1.1' })), digest);
  assert.notEqual(
    contentDigest(files({ configReplicas: '4' })),
    digest,
    "a ConfigMap's replicas key is content",
  );
  assert.notEqual(contentDigest(files({}).slice(1)), digest, 'an object fewer');
  const [first, ...rest] = files({});
  assert.notEqual(contentDigest([[`${first![0]}.moved`, first![1]], ...rest]), digest, 'the path counts');
  assert.notEqual(contentDigest([]), digest);
});

test('contentDigest: where a path ends and its text starts is part of the digest', () => {
  assert.notEqual(contentDigest([['a', 'bc']]), contentDigest([['ab', 'c']]));
});

// Surprising (reported, not changed): the unit of "content" is the text, so a person scaling a
// Duplicated workload (every cluster runs the template's replicas, none set by the scheduler)
// is taken for the scheduler's move and reaches every cluster at once, unheld.
test('a replicas change of a Duplicated Deployment written by a person is classed as the scheduler', () => {
  const before = renderOn({ duplicated: true, replicas: 3 });
  const after = renderOn({ duplicated: true, replicas: 30 });
  assert.match(text(after, deployment), /^ {2}replicas: 30$/m);
  assert.equal(
    classifyChange(deployment, text(before, deployment), text(after, deployment), true),
    'schedule',
  );
  assert.equal(
    contentDigest([[deployment, text(before, deployment)]]),
    contentDigest([[deployment, text(after, deployment)]]),
  );
});
