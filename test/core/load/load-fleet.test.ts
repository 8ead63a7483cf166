import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet, type SourceFile } from '../../../src/core/load/load-fleet.js';
import { defaultFleetConfig } from '../../../src/core/model/fleet-config.js';
import type { Fleet } from '../../../src/core/model/fleet.js';
import { aCluster, aPlacement, aPropagationPolicy, anOverridePolicy } from '../builders.js';
import { clusterDoc, configMapDoc, fileOf, mustLoad, policyDoc } from './documents.js';

const smallFleet: SourceFile[] = [
  {
    path: 'apps/web.yaml',
    content: `# the web app
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  replicas: 3
  template:
    spec:
      volumes:
        - name: cfg
          configMap: {name: web, defaultMode: 0644}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: web
  namespace: shop
spec:
  resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
      name: web
  placement:
    clusterAffinity:
      clusterNames: [member1, member2]
    replicaScheduling:
      replicaSchedulingType: Divided
      weightPreference:
        staticWeightList:
          - targetCluster: {clusterNames: [member1]}
            weight: 2
---
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata:
  name: web-tag
  namespace: shop
spec:
  resourceSelectors:
    - {apiVersion: apps/v1, kind: Deployment, name: web}
  overrideRules:
    - targetCluster: {clusterNames: [member2]}
      overriders:
        imageOverrider:
          - {component: Tag, operator: replace, value: "1.27"}
`,
  },
  {
    path: 'clusters/members.yaml',
    content: `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: member1, labels: {env: prod}}
spec: {syncMode: Pull, provider: aws, region: eu-west-1, zones: [eu-west-1a]}
---
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: member2}
spec:
  taints: [{key: maintenance, effect: NoSchedule}]
`,
  },
  { path: 'cluster-scoped/ns.yml', content: 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n' },
];

test('A small valid fleet loads into the typed model, with Karmada defaults and source lines.', () => {
  const fleet = mustLoad(smallFleet);
  const want: Fleet = {
    templates: [
      {
        ref: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' },
        key: 'apps/Deployment/shop/web',
        object: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'web', namespace: 'shop' },
          spec: {
            replicas: 3,
            template: {
              spec: { volumes: [{ name: 'cfg', configMap: { name: 'web', defaultMode: 0o644 } }] },
            },
          },
        },
        source: { file: 'apps/web.yaml', index: 0, line: 2 },
      },
      {
        ref: { apiVersion: 'v1', kind: 'Namespace', namespace: '', name: 'shop' },
        key: '/Namespace//shop',
        object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
        source: { file: 'cluster-scoped/ns.yml', index: 0, line: 1 },
      },
    ],
    clusters: [
      aCluster('member1', {
        labels: { env: 'prod' },
        provider: 'aws',
        region: 'eu-west-1',
        zones: ['eu-west-1a'],
        source: { file: 'clusters/members.yaml', index: 0, line: 1 },
      }),
      aCluster('member2', {
        taints: [{ key: 'maintenance', effect: 'NoSchedule' }],
        source: { file: 'clusters/members.yaml', index: 1, line: 6 },
      }),
    ],
    propagationPolicies: [
      aPropagationPolicy(
        'web',
        [{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' }],
        {
          namespace: 'shop',
          placement: aPlacement({
            clusterAffinity: { clusterNames: ['member1', 'member2'] },
            replicaScheduling: {
              replicaSchedulingType: 'Divided',
              replicaDivisionPreference: 'Weighted',
              weightPreference: {
                staticWeightList: [{ targetCluster: { clusterNames: ['member1'] }, weight: 2 }],
              },
            },
          }),
          source: { file: 'apps/web.yaml', index: 1, line: 15 },
        },
      ),
    ],
    overridePolicies: [
      anOverridePolicy(
        'web-tag',
        [
          {
            targetCluster: { clusterNames: ['member2'] },
            overriders: { imageOverrider: [{ component: 'Tag', operator: 'replace', value: '1.27' }] },
          },
        ],
        {
          namespace: 'shop',
          resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web' }],
          source: { file: 'apps/web.yaml', index: 2, line: 35 },
        },
      ),
    ],
    config: defaultFleetConfig(),
  };
  assert.deepEqual(fleet, want);
});

test('The same files in any order load into deep-equal fleets.', () => {
  const forward = mustLoad(smallFleet);
  const backward = mustLoad([...smallFleet].reverse());
  const shuffled = mustLoad([smallFleet[1]!, smallFleet[2]!, smallFleet[0]!]);
  assert.deepEqual(backward, forward);
  assert.deepEqual(shuffled, forward);
});

test('Files are ordered by the bytes of their paths, not by UTF-16 code units.', () => {
  // U+FF5E (3 UTF-8 bytes, EF BD 9E) sorts before U+1F600 (4 bytes, F0 9F 98 80), though its UTF-16 unit is larger.
  const files = [fileOf('\u{1F600}.yaml', configMapDoc('b')), fileOf('\uFF5E.yaml', configMapDoc('a'))];
  assert.deepEqual(
    mustLoad(files).templates.map((t) => t.source.file),
    ['\uFF5E.yaml', '\u{1F600}.yaml'],
  );
});

test('A v1 List is expanded into its items, each keeping the file and document index of the List.', () => {
  const list = { apiVersion: 'v1', kind: 'List', items: [configMapDoc('a'), clusterDoc('member1')] };
  const fleet = mustLoad([fileOf('list.yaml', configMapDoc('first'), list)]);
  assert.deepEqual(
    fleet.templates.map((t) => [t.ref.name, t.source]),
    [
      ['first', { file: 'list.yaml', index: 0, line: 1 }],
      ['a', { file: 'list.yaml', index: 1, line: 3 }],
    ],
  );
  assert.deepEqual(
    fleet.clusters.map((c) => [c.name, c.source]),
    [['member1', { file: 'list.yaml', index: 1, line: 3 }]],
  );
});

test('An error inside a List names the item.', () => {
  const list = { apiVersion: 'v1', kind: 'List', items: [configMapDoc('a'), configMapDoc('a')] };
  const result = loadFleet([fileOf('list.yaml', list)]);
  assert.ok(!result.ok);
  assert.equal(result.errors[0]?.code, 'DuplicateIdentity');
  assert.match(
    result.errors[0]?.message ?? '',
    /^items\[1\]: ConfigMap\/default\/a: defined twice, at list\.yaml#0 \(line 1\) items\[0\] and at list\.yaml#0 \(line 1\) items\[1\]/,
  );
});

test("A custom resource's namespace is recorded exactly as written: only its CRD knows its scope.", () => {
  const fleet = mustLoad([
    fileOf('a.yaml', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'x' } }),
  ]);
  assert.equal(fleet.templates[0]?.ref.namespace, '');
  assert.equal(fleet.templates[0]?.object.metadata.namespace, undefined);
  assert.equal(fleet.templates[0]?.key, 'example.com/Widget//x');
});

test('Empty documents are skipped but still count for the index of the next one.', () => {
  const fleet = mustLoad([
    { path: 'a.yaml', content: `---\n---\n# nothing\n---\n${JSON.stringify(configMapDoc('x'))}\n---\n` },
  ]);
  assert.deepEqual(
    fleet.templates.map((t) => t.source),
    [{ file: 'a.yaml', index: 2, line: 5 }],
  );
});

test('Two versions of one kind share an identity: the version is not part of it.', () => {
  const v1 = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' } };
  const v2 = { ...v1, apiVersion: 'example.com/v2' };
  const result = loadFleet([fileOf('a.yaml', v1, v2)]);
  assert.ok(!result.ok);
  assert.equal(result.errors[0]?.code, 'DuplicateIdentity');
});

test('A policy and a template of the same name do not clash; two policies of one kind and name do.', () => {
  const pp = policyDoc(
    'PropagationPolicy',
    'web',
    { resourceSelectors: [{ apiVersion: 'v1', kind: 'ConfigMap' }] },
    'default',
  );
  assert.equal(loadFleet([fileOf('a.yaml', pp, configMapDoc('web'))]).ok, true);
  const same = { ...pp, metadata: { name: 'web' } }; // no namespace: `default`, as kubectl would put it
  const result = loadFleet([fileOf('a.yaml', pp), fileOf('b.yaml', same)]);
  assert.ok(!result.ok);
  assert.match(result.errors[0]?.message ?? '', /PropagationPolicy\/default\/web: defined twice/);
});

test('Two clusters of the same name are a duplicate.', () => {
  const result = loadFleet([
    fileOf('a.yaml', clusterDoc('m1')),
    fileOf('b.yaml', clusterDoc('m1', { region: 'x' })),
  ]);
  assert.ok(!result.ok);
  assert.equal(result.errors[0]?.code, 'DuplicateIdentity');
  assert.match(
    result.errors[0]?.message ?? '',
    /Cluster\/m1: defined twice, at a\.yaml#0 \(line 1\) and at b\.yaml#0 \(line 1\)/,
  );
});

test('Only .yaml and .yml files outside dot-directories are read, whatever the adapter passed in.', () => {
  const broken = ': not yaml [';
  const fleet = mustLoad([
    fileOf('apps/a.yaml', configMapDoc('a')),
    fileOf('apps/b.yml', configMapDoc('b')),
    { path: 'README.md', content: broken },
    { path: 'apps/c.json', content: broken },
    { path: '.github/workflows/ci.yaml', content: broken },
    { path: '.gitlab-ci.yml', content: broken },
    { path: 'apps/.hidden/x.yaml', content: broken },
  ]);
  assert.deepEqual(
    fleet.templates.map((t) => t.ref.name),
    ['a', 'b'],
  );
});
