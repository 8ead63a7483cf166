// A source's objects reach each cluster with the content its render group gave them, through
// placement and overrides exactly as templates do; a group that renders other objects, or
// another policy, is an error naming the source and the clusters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet, type RenderedFile, type SourceFile } from '../../../src/core/load/load-fleet.js';
import { freshSnapshot } from '../../../src/core/model/snapshot.js';
import type { HelmSource } from '../../../src/core/model/template-source.js';
import { renderFleet } from '../../../src/core/render/render-fleet.js';
import {
  attachSourceVariants,
  type SourceVariant,
  type VariantMemo,
} from '../../../src/core/sources/attach-source-variants.js';

const source: HelmSource = {
  kind: 'HelmSource',
  name: 'web',
  source: { file: 'sources/web.yaml', index: 0, line: 1 },
  chart: { path: 'charts/web' },
  releaseName: 'web',
  namespace: 'shop',
  values: {},
  valuesFiles: [],
  clusterValues: [],
};

const clusterDoc = (name: string) =>
  `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${name}\n`;
const fleetFiles: SourceFile[] = [
  { path: 'clusters/member1.yaml', content: clusterDoc('member1') },
  { path: 'clusters/member2.yaml', content: clusterDoc('member2') },
  { path: 'clusters/member3.yaml', content: clusterDoc('member3') },
  {
    path: 'policies/web.yaml',
    content: [
      'apiVersion: policy.karmada.io/v1alpha1',
      'kind: PropagationPolicy',
      'metadata: {name: web, namespace: shop}',
      'spec:',
      '  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}, {apiVersion: v1, kind: ConfigMap}]',
      '  placement: {clusterAffinity: {clusterNames: [member1, member2, member3]}}',
      '---',
      'apiVersion: policy.karmada.io/v1alpha1',
      'kind: OverridePolicy',
      'metadata: {name: team, namespace: shop}',
      'spec:',
      '  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]',
      '  overrideRules:',
      '    - overriders: {labelsOverrider: [{operator: add, value: {team: web}}]}',
      '',
    ].join('\n'),
  },
];

const deployment = (replicas: number, image: string) =>
  [
    '# Source: web/templates/deployment.yaml',
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata: {name: web}',
    'spec:',
    `  replicas: ${replicas}`,
    '  selector: {matchLabels: {app: web}}',
    '  template:',
    '    metadata: {labels: {app: web}}',
    `    spec: {containers: [{name: web, image: "${image}"}]}`,
    '',
  ].join('\n');
const configMap = (greeting: string) =>
  `# Source: web/templates/configmap.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\ndata: {greeting: ${greeting}}\n`;
const files = (
  replicas: number,
  image: string,
  greeting: string,
  extra: RenderedFile[] = [],
): RenderedFile[] => [
  {
    path: 'sources/web.yaml@web/templates/deployment.yaml',
    content: deployment(replicas, image),
    namespace: 'shop',
  },
  { path: 'sources/web.yaml@web/templates/configmap.yaml', content: configMap(greeting), namespace: 'shop' },
  ...extra,
];

function loadWith(variants: (base: RenderedFile[]) => SourceVariant[], memo?: VariantMemo) {
  const base = files(2, 'nginx:1.27', 'hello');
  const loaded = loadFleet(fleetFiles, { rendered: base });
  assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.errors));
  return attachSourceVariants(loaded.fleet, variants(base), memo);
}

test('each cluster gets the content its group rendered, with its own replicas when Duplicated and the overrides applied', () => {
  const attached = loadWith((base) => [
    {
      source,
      base: { clusters: ['member1', 'member3'], files: base },
      clusters: ['member2'],
      files: files(5, 'nginx:1.28', 'bonjour'),
    },
  ]);
  assert.ok(attached.ok, JSON.stringify(!attached.ok && attached.errors));
  const render = renderFleet(freshSnapshot(attached.fleet));
  const file = (cluster: string, path: string) => render.clusters.get(cluster)?.files.get(path) ?? '';
  for (const cluster of ['member1', 'member3']) {
    assert.match(file(cluster, 'shop/Deployment.apps/web.yaml'), /replicas: 2\n/);
    assert.match(file(cluster, 'shop/Deployment.apps/web.yaml'), /image: nginx:1\.27/);
    assert.match(file(cluster, 'shop/ConfigMap/web.yaml'), /greeting: hello/);
  }
  const member2 = file('member2', 'shop/Deployment.apps/web.yaml');
  assert.match(member2, /replicas: 5\n/);
  assert.match(member2, /image: nginx:1\.28/);
  assert.match(member2, /team: web/, 'the OverridePolicy applies to the variant too');
  assert.match(member2, /gitfleet\.io\/source: "sources\/web\.yaml@web\/templates\/deployment\.yaml"/);
  assert.match(file('member2', 'shop/ConfigMap/web.yaml'), /greeting: bonjour/);
  assert.match(file('member1', 'shop/Deployment.apps/web.yaml'), /team: web/);
});

test('templates keep their identity from one load to the next when their variants did not change', () => {
  const memo: VariantMemo = new WeakMap();
  const loaded = loadFleet(fleetFiles, { rendered: files(2, 'nginx:1.27', 'hello') });
  assert.ok(loaded.ok);
  const variant = (greeting: string): SourceVariant[] =>
    [{ source, base: { clusters: ['member1'], files: [] }, clusters: ['member2'], files: [] }].map((v) => ({
      ...v,
      base: { ...v.base, files: files(2, 'nginx:1.27', 'hello') },
      files: files(2, 'nginx:1.27', greeting),
    }));
  const once = attachSourceVariants(loaded.fleet, variant('bonjour'), memo);
  const twice = attachSourceVariants(loaded.fleet, variant('bonjour'), memo);
  const changed = attachSourceVariants(loaded.fleet, variant('hola'), memo);
  assert.ok(once.ok && twice.ok && changed.ok);
  const cm = (f: typeof once) =>
    f.ok ? f.fleet.templates.find((t) => t.ref.kind === 'ConfigMap') : undefined;
  assert.ok(cm(once)?.variants?.has('member2'));
  assert.equal(cm(twice), cm(once));
  assert.notEqual(cm(changed), cm(once));
  const deploy = (f: typeof once) =>
    f.ok ? f.fleet.templates.find((t) => t.ref.kind === 'Deployment') : undefined;
  assert.equal(deploy(once)?.variants, undefined, 'a template rendered the same everywhere has no variant');
});

test('a group that renders an object the others do not is an error naming the source, the object and the clusters', () => {
  const extra: RenderedFile = {
    path: 'sources/web.yaml@web/templates/monitor.yaml',
    content: 'apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: web}\nspec: {}\n',
    namespace: 'shop',
  };
  const attached = loadWith((base) => [
    {
      source,
      base: { clusters: ['member1'], files: base },
      clusters: ['member2', 'member3'],
      files: files(2, 'nginx:1.27', 'hello', [extra]),
    },
  ]);
  assert.ok(!attached.ok);
  assert.equal(attached.errors.length, 1);
  assert.equal(attached.errors[0]!.code, 'SourceRenderFailed');
  assert.equal(attached.errors[0]!.file, 'sources/web.yaml');
  assert.equal(
    attached.errors[0]!.message,
    'HelmSource/web: rendered for member2, member3, it renders ServiceMonitor/web, which it does not render for member1: a source must render the same objects for every cluster (placement decides where each goes)',
  );
});

test('a policy a source renders differently per cluster is an error; templates alone may differ', () => {
  const policy = (name: string): RenderedFile => ({
    path: 'sources/web.yaml@web/templates/policy.yaml',
    content: `apiVersion: policy.karmada.io/v1alpha1\nkind: OverridePolicy\nmetadata: {name: extra}\nspec:\n  resourceSelectors: [{apiVersion: v1, kind: ConfigMap, name: ${name}}]\n  overrideRules: []\n`,
    namespace: 'shop',
  });
  const base = files(2, 'nginx:1.27', 'hello', [policy('web')]);
  const loaded = loadFleet(fleetFiles, { rendered: base });
  assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.errors));
  const attached = attachSourceVariants(loaded.fleet, [
    {
      source,
      base: { clusters: ['member1'], files: base },
      clusters: ['member2'],
      files: files(2, 'nginx:1.27', 'hello', [policy('other')]),
    },
  ]);
  assert.ok(!attached.ok);
  assert.match(
    attached.errors[0]!.message,
    /^HelmSource\/web: rendered for member2, it renders OverridePolicy\/default\/extra otherwise than for member1, and only templates may differ between clusters: /,
  );
});
