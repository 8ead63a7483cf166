import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deepCopy, getPath, type KubeObject } from '../../../src/core/model/kube-object.js';
import type { ImageOverrider } from '../../../src/core/model/override-policy.js';
import { applyImageOverrider } from '../../../src/core/override/image-overrider.js';
import { aConfigMap, aDeployment } from '../builders.js';
import { aJob, aPod, aWorkload } from './workload-builders.js';

const DIGEST = 'sha256:50d858e0985ecc7f60418aaf0cc5ab587f42c2570a884095a9e8ccacd0f6545c';
const DIGEST2 = 'sha256:0000000000000000000000000000000000000000000000000000000000000001';

function deploymentImages(object: KubeObject): unknown {
  const containers = getPath(object, ['spec', 'template', 'spec', 'containers']) as { image?: unknown }[];
  return containers.map((c) => c.image);
}

// Component × operator on `fictional.registry.example/subpath/imagename:v1.0.0`-style images.
const operators: { name: string; given: { image: string; overrider: ImageOverrider }; want: string }[] = [
  {
    name: 'Registry add appends to the hostname.',
    given: {
      image: 'registry.example/app:v1',
      overrider: { component: 'Registry', operator: 'add', value: '-mirror' },
    },
    want: 'registry.example-mirror/app:v1',
  },
  {
    name: 'Registry add on an image without a hostname makes the value the hostname.',
    given: { image: 'nginx:1.27', overrider: { component: 'Registry', operator: 'add', value: 'mirror.io' } },
    want: 'mirror.io/nginx:1.27',
  },
  {
    name: 'Registry replace sets the hostname.',
    given: {
      image: 'registry.example/app:v1',
      overrider: { component: 'Registry', operator: 'replace', value: 'gcr.io' },
    },
    want: 'gcr.io/app:v1',
  },
  {
    name: 'Registry remove drops the hostname.',
    given: {
      image: 'registry.example:5000/app:v1',
      overrider: { component: 'Registry', operator: 'remove' },
    },
    want: 'app:v1',
  },
  {
    name: 'Repository add appends to the repository.',
    given: {
      image: 'registry.example/app:v1',
      overrider: { component: 'Repository', operator: 'add', value: '-debug' },
    },
    want: 'registry.example/app-debug:v1',
  },
  {
    name: 'Repository replace sets the repository.',
    given: {
      image: 'gcr.io/kube-apiserver:v1.19.0',
      overrider: { component: 'Repository', operator: 'replace', value: 'kube-controller-manager' },
    },
    want: 'gcr.io/kube-controller-manager:v1.19.0',
  },
  {
    name: 'Repository remove leaves the hostname and tag (as Karmada does, even if that is no valid image).',
    given: { image: 'registry.example/app:v1', overrider: { component: 'Repository', operator: 'remove' } },
    want: 'registry.example/:v1',
  },
  {
    name: 'Tag add appends to the tag.',
    given: { image: 'nginx:1.27', overrider: { component: 'Tag', operator: 'add', value: '-alpine' } },
    want: 'nginx:1.27-alpine',
  },
  {
    name: 'Tag add on an image without a tag makes the value the tag.',
    given: { image: 'nginx', overrider: { component: 'Tag', operator: 'add', value: 'latest' } },
    want: 'nginx:latest',
  },
  {
    name: 'Tag replace sets the tag.',
    given: { image: 'nginx:1.27', overrider: { component: 'Tag', operator: 'replace', value: '1.28' } },
    want: 'nginx:1.28',
  },
  {
    name: 'Tag replace with a digest swaps the tag for the digest.',
    given: { image: 'nginx:1.27', overrider: { component: 'Tag', operator: 'replace', value: DIGEST } },
    want: `nginx@${DIGEST}`,
  },
  {
    name: 'Tag replace with a tag swaps a digest for the tag.',
    given: { image: `nginx@${DIGEST}`, overrider: { component: 'Tag', operator: 'replace', value: 'v2' } },
    want: 'nginx:v2',
  },
  {
    name: 'Tag replace with a digest replaces a digest.',
    given: { image: `nginx@${DIGEST}`, overrider: { component: 'Tag', operator: 'replace', value: DIGEST2 } },
    want: `nginx@${DIGEST2}`,
  },
  {
    name: 'Tag replace with something neither a tag nor a digest leaves the image alone, as Karmada does.',
    given: { image: 'nginx:1.27', overrider: { component: 'Tag', operator: 'replace', value: 'not a tag' } },
    want: 'nginx:1.27',
  },
  {
    name: 'Tag remove drops the tag.',
    given: { image: 'nginx:1.27', overrider: { component: 'Tag', operator: 'remove' } },
    want: 'nginx',
  },
  {
    name: 'Tag remove drops a digest.',
    given: { image: `a.b/c@${DIGEST}`, overrider: { component: 'Tag', operator: 'remove' } },
    want: 'a.b/c',
  },
  {
    name: 'An image with a tag and a digest keeps only the (changed) tag.',
    given: {
      image: `nginx:1.2@${DIGEST}`,
      overrider: { component: 'Registry', operator: 'replace', value: 'm.io' },
    },
    want: 'm.io/nginx:1.2',
  },
];

for (const { name, given, want } of operators) {
  test(name, () => {
    const object = aDeployment('app', { images: [given.image] });
    const got = applyImageOverrider(object, given.overrider);
    assert.ok(got.ok, got.ok ? '' : got.error);
    assert.deepEqual(deploymentImages(got.object), [want]);
  });
}

const replaceRegistry: ImageOverrider = { component: 'Registry', operator: 'replace', value: 'm.io' };

const kinds: { name: string; given: KubeObject; want: { path: string[]; images: unknown } }[] = [
  {
    name: 'Every container of a Deployment is rewritten, init containers are not.',
    given: (() => {
      const d = aDeployment('app', { images: ['a:1', 'b:2'] });
      (getPath(d, ['spec', 'template', 'spec']) as Record<string, unknown>).initContainers = [
        { name: 'init', image: 'i:1' },
      ];
      return d;
    })(),
    want: {
      path: ['spec', 'template', 'spec'],
      images: { containers: ['m.io/a:1', 'm.io/b:2'], init: ['i:1'] },
    },
  },
  {
    name: 'The containers of a Pod are rewritten.',
    given: aPod(['a:1', 'b:2']),
    want: { path: ['spec'], images: { containers: ['m.io/a:1', 'm.io/b:2'], init: [] } },
  },
  {
    name: 'The containers of a Job are rewritten.',
    given: aJob(1),
    want: { path: ['spec', 'template', 'spec'], images: { containers: ['m.io/busybox:1.36'], init: [] } },
  },
  {
    name: 'A DaemonSet of any apiVersion is rewritten (Karmada matches the kind only).',
    given: aWorkload('apps/v1beta2', 'DaemonSet', {
      template: { spec: { containers: [{ name: 'x', image: 'a:1' }] } },
    }),
    want: { path: ['spec', 'template', 'spec'], images: { containers: ['m.io/a:1'], init: [] } },
  },
];

for (const { name, given, want } of kinds) {
  test(name, () => {
    const got = applyImageOverrider(given, replaceRegistry);
    assert.ok(got.ok, got.ok ? '' : got.error);
    const spec = getPath(got.object, want.path) as Record<string, { image: string }[] | undefined>;
    const images = (list: { image: string }[] | undefined): string[] => (list ?? []).map((c) => c.image);
    assert.deepEqual({ containers: images(spec.containers), init: images(spec.initContainers) }, want.images);
  });
}

test('Without a predicate, kinds Karmada does not know are left alone.', () => {
  const cronJob = aWorkload('batch/v1', 'CronJob', {
    jobTemplate: { spec: { template: { spec: { containers: [{ name: 'x', image: 'a:1' }] } } } },
  });
  const got = applyImageOverrider(cronJob, replaceRegistry);
  assert.deepEqual(got, { ok: true, object: cronJob });
});

test('A predicate rewrites exactly the string at its path.', () => {
  const cronJob = aWorkload('batch/v1', 'CronJob', {
    jobTemplate: {
      spec: {
        template: {
          spec: {
            containers: [
              { name: 'x', image: 'a:1' },
              { name: 'y', image: 'b:1' },
            ],
          },
        },
      },
    },
  });
  const path = '/spec/jobTemplate/spec/template/spec/containers/1/image';
  const got = applyImageOverrider(cronJob, { ...replaceRegistry, predicate: { path } });
  assert.ok(got.ok, got.ok ? '' : got.error);
  const containers = getPath(got.object, ['spec', 'jobTemplate', 'spec', 'template', 'spec', 'containers']);
  assert.deepEqual(containers, [
    { name: 'x', image: 'a:1' },
    { name: 'y', image: 'm.io/b:1' },
  ]);
});

const failures: { name: string; given: { object: KubeObject; overrider: ImageOverrider }; want: string }[] = [
  {
    name: 'An invalid image fails with the reason.',
    given: { object: aDeployment('app', { images: ['Nginx:1'] }), overrider: replaceRegistry },
    want: '/spec/template/spec/containers/0/image: invalid image "Nginx:1": repository name must be lowercase',
  },
  {
    name: 'A container without an image fails, as the empty image does not parse.',
    given: {
      object: aWorkload('v1', 'Pod', { containers: [{ name: 'noimage' }] }),
      overrider: replaceRegistry,
    },
    want: '/spec/containers/0/image: invalid image "": repository name must have at least one component',
  },
  {
    name: 'A predicate path that does not start with "/" fails.',
    given: {
      object: aConfigMap('c', { img: 'a:1' }),
      overrider: { ...replaceRegistry, predicate: { path: 'data/img' } },
    },
    want: 'predicate.path "data/img" must start with "/"',
  },
  {
    name: 'A predicate path that is not there fails.',
    given: {
      object: aConfigMap('c', { img: 'a:1' }),
      overrider: { ...replaceRegistry, predicate: { path: '/data/nope' } },
    },
    want: 'predicate.path /data/nope: path not found',
  },
  {
    name: 'A predicate path that is not a string fails.',
    given: {
      object: aConfigMap('c', { img: 'a:1' }),
      overrider: { ...replaceRegistry, predicate: { path: '/data' } },
    },
    want: 'predicate.path /data: the value is not a string',
  },
  {
    name: 'Containers that are not a list fail.',
    given: { object: aWorkload('v1', 'Pod', { containers: { name: 'x' } }), overrider: replaceRegistry },
    want: '/spec/containers: not a list',
  },
];

for (const { name, given, want } of failures) {
  test(name, () => {
    const before = deepCopy(given.object);
    const got = applyImageOverrider(given.object, given.overrider);
    assert.deepEqual(got, { ok: false, error: want });
    assert.deepEqual(given.object, before);
  });
}

test('The template is never changed.', () => {
  const object = aDeployment('app', { images: ['a:1'] });
  const before = deepCopy(object);
  const got = applyImageOverrider(object, replaceRegistry);
  assert.ok(got.ok);
  assert.deepEqual(object, before);
});
