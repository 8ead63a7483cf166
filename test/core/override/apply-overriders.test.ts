import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deepCopy, getPath, type KubeObject } from '../../../src/core/model/kube-object.js';
import type { OverridePolicy, Overriders } from '../../../src/core/model/override-policy.js';
import { applyOverriders } from '../../../src/core/override/apply-overriders.js';
import { selectOverriders, type SelectedOverriders } from '../../../src/core/override/select-overriders.js';
import { aCluster, aConfigMap, aDeployment, anOverridePolicy } from '../builders.js';

function selected(
  overriders: Overriders,
  policy: Partial<OverridePolicy> & { name?: string } = {},
): SelectedOverriders {
  return {
    policy: anOverridePolicy(policy.name ?? 'nginx-op', [{ overriders }], policy),
    ruleIndex: 0,
    overriders,
  };
}

test('Overriders of one rule run in Karmada order: image, command, args, labels, annotations, field, plaintext.', () => {
  // Each later overrider reads or overwrites what an earlier one wrote, so any other order gives
  // a different object.
  const object = aDeployment('nginx', { images: ['nginx:1.27'] });
  object.metadata.annotations = { cfg: '{"image":"none"}' };
  const got = applyOverriders(object, [
    selected({
      plaintext: [
        { path: '/metadata/labels/order', operator: 'replace', value: 'plaintext-last' },
        { path: '/spec/template/spec/containers/0/args/0', operator: 'replace', value: 'plaintext' },
      ],
      fieldOverrider: [
        {
          fieldPath: '/metadata/annotations/cfg',
          json: [{ subPath: '/image', operator: 'replace', value: 'field' }],
        },
      ],
      annotationsOverrider: [{ operator: 'add', value: { cfg: '{"image":"annotations"}' } }],
      labelsOverrider: [{ operator: 'add', value: { order: 'labels' } }],
      argsOverrider: [{ containerName: 'nginx', operator: 'add', value: ['args'] }],
      commandOverrider: [{ containerName: 'nginx', operator: 'add', value: ['command'] }],
      imageOverrider: [{ component: 'Tag', operator: 'replace', value: '1.28' }],
    }),
  ]);
  assert.ok(got.ok, got.ok ? '' : got.error);
  assert.deepEqual(getPath(got.object, ['spec', 'template', 'spec', 'containers', 0]), {
    name: 'nginx',
    image: 'nginx:1.28',
    command: ['command'],
    args: ['plaintext'],
  });
  assert.deepEqual(got.object.metadata.labels, { order: 'plaintext-last' });
  assert.deepEqual(got.object.metadata.annotations, { cfg: '{"image":"field"}' });
});

test('Entries of one overrider list apply in list order.', () => {
  const got = applyOverriders(aDeployment('nginx', { images: ['nginx:1.27'] }), [
    selected({
      imageOverrider: [
        { component: 'Tag', operator: 'replace', value: '1.28' },
        { component: 'Tag', operator: 'add', value: '-alpine' },
      ],
    }),
  ]);
  assert.ok(got.ok);
  assert.equal(
    getPath(got.object, ['spec', 'template', 'spec', 'containers', 0, 'image']),
    'nginx:1.28-alpine',
  );
});

test('A later policy wins on the same path.', () => {
  const cluster = aCluster('member1');
  const object = aDeployment('nginx', { replicas: 3 });
  const replicas = (value: number): Overriders => ({
    plaintext: [{ path: '/spec/replicas', operator: 'replace', value }],
  });
  const policies = [
    anOverridePolicy('b', [{ overriders: replicas(20) }]),
    anOverridePolicy('a', [{ overriders: replicas(10) }]),
    anOverridePolicy('cluster-wide', [{ overriders: replicas(99) }], { namespace: '' }),
    anOverridePolicy('by-name', [{ overriders: replicas(30) }], {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'nginx' }],
    }),
  ];
  const got = applyOverriders(object, selectOverriders({ object, cluster, policies }));
  assert.ok(got.ok);
  assert.equal(getPath(got.object, ['spec', 'replicas']), 30);
  const withoutByName = applyOverriders(
    object,
    selectOverriders({ object, cluster, policies: policies.slice(0, 3) }),
  );
  assert.ok(withoutByName.ok);
  assert.equal(getPath(withoutByName.object, ['spec', 'replicas']), 20);
});

const failures: { name: string; given: { object: KubeObject; entry: SelectedOverriders }; want: string }[] = [
  {
    name: 'A plaintext replace of a missing path names the policy, rule, overrider and path.',
    given: {
      object: aDeployment('nginx'),
      entry: selected({
        plaintext: [
          { path: '/spec/replicas', operator: 'replace', value: 2 },
          { path: '/spec/foo', operator: 'replace', value: 1 },
        ],
      }),
    },
    want: 'OverridePolicy/default/nginx-op rule 0 plaintext[1]: replace /spec/foo: path not found',
  },
  {
    name: 'A plaintext remove of a missing path fails.',
    given: {
      object: aDeployment('nginx'),
      entry: selected({ plaintext: [{ path: '/spec/paused', operator: 'remove' }] }),
    },
    want: 'OverridePolicy/default/nginx-op rule 0 plaintext[0]: remove /spec/paused: path not found',
  },
  {
    name: 'A ClusterOverridePolicy is named without a namespace.',
    given: {
      object: aDeployment('nginx', { images: ['nginx:1'] }),
      entry: selected(
        {
          imageOverrider: [{ component: 'Tag', operator: 'replace', value: 'x' }],
          fieldOverrider: [{ fieldPath: '/nope', json: [] }],
        },
        { name: 'global', namespace: '' },
      ),
    },
    want: 'ClusterOverridePolicy/global rule 0 fieldOverrider[0]: fieldPath /nope: path not found',
  },
  {
    name: 'An invalid image names the image overrider.',
    given: {
      object: aDeployment('nginx', { images: ['ok:1', 'Bad:1'] }),
      entry: selected({ imageOverrider: [{ component: 'Registry', operator: 'replace', value: 'm.io' }] }),
    },
    want: 'OverridePolicy/default/nginx-op rule 0 imageOverrider[0]: /spec/template/spec/containers/1/image: invalid image "Bad:1": repository name must be lowercase',
  },
  {
    name: 'A field overrider on a non-string value fails.',
    given: {
      object: aDeployment('nginx'),
      entry: selected({
        fieldOverrider: [
          { fieldPath: '/spec/replicas', yaml: [{ subPath: '/a', operator: 'add', value: 1 }] },
        ],
      }),
    },
    want: 'OverridePolicy/default/nginx-op rule 0 fieldOverrider[0]: fieldPath /spec/replicas: the value is a number, not a string',
  },
  {
    name: 'A plaintext patch that removes the kind fails.',
    given: {
      object: aConfigMap('c'),
      entry: selected({ plaintext: [{ path: '/kind', operator: 'remove' }] }),
    },
    want: 'OverridePolicy/default/nginx-op rule 0 plaintext: the patched object has no kind',
  },
];

for (const { name, given, want } of failures) {
  test(name, () => {
    const before = deepCopy(given.object);
    assert.deepEqual(applyOverriders(given.object, [given.entry]), { ok: false, error: want });
    assert.deepEqual(given.object, before, 'the template is not changed');
  });
}

test('The rule index in a failure is the rule index within the policy.', () => {
  const policy = anOverridePolicy('multi', [
    { targetCluster: { clusterNames: ['elsewhere'] }, overriders: {} },
    { overriders: { plaintext: [{ path: '/nope/x', operator: 'add', value: 1 }] } },
  ]);
  const object = aConfigMap('c');
  const got = applyOverriders(
    object,
    selectOverriders({ object, cluster: aCluster('member1'), policies: [policy] }),
  );
  assert.deepEqual(got, {
    ok: false,
    error: 'OverridePolicy/default/multi rule 1 plaintext[0]: add /nope/x: path not found',
  });
});

test('With nothing selected the result is an equal copy, not the template itself.', () => {
  const object = aDeployment('nginx');
  const got = applyOverriders(object, []);
  assert.ok(got.ok);
  assert.deepEqual(got.object, object);
  assert.notEqual(got.object, object);
});

test('Overriders that change nothing still return a copy the caller may change freely.', () => {
  const object = aConfigMap('c', { a: '1' });
  const got = applyOverriders(object, [
    selected({ labelsOverrider: [{ operator: 'remove', value: { x: '' } }] }),
  ]);
  assert.ok(got.ok);
  (got.object.data as Record<string, string>).a = 'changed';
  assert.deepEqual(object.data, { a: '1' });
});

test('Applying overriders never changes the template or the policies.', () => {
  const object = aDeployment('nginx', { images: ['nginx:1.27'] });
  const entry = selected({
    imageOverrider: [{ component: 'Registry', operator: 'add', value: 'mirror.io' }],
    labelsOverrider: [{ operator: 'add', value: { a: 'b' } }],
    plaintext: [{ path: '/spec/template/metadata/annotations', operator: 'add', value: { k: 'v' } }],
  });
  const before = deepCopy({ object, entry });
  const got = applyOverriders(object, [entry]);
  assert.ok(got.ok);
  (getPath(got.object, ['spec', 'template', 'metadata', 'annotations']) as Record<string, string>).k =
    'changed';
  assert.deepEqual({ object, entry }, before);
});
