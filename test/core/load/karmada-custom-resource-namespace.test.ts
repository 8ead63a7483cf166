// A custom resource written without metadata.namespace whose CRD says `scope: Namespaced` lives
// in `default`, as kubectl puts it (and as Karmada then sees it: its detector and
// PropagationPolicies only know the object in its namespace). The fleet below follows Karmada's
// samples/guestbook (guestbooks-crd.yaml: scope Namespaced; guestbook.yaml: no namespace;
// guestbooks-propagationpolicy.yaml: a PropagationPolicy without a namespace, so in `default`;
// guestbooks-clusterpropagationpolicy.yaml: the CRD itself to member1), written here in our own words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withClusterScopes } from '../../../src/core/load/default-namespace.js';
import type { ClusterStatus } from '../../../src/core/model/cluster.js';
import { freshSnapshot } from '../../../src/core/model/snapshot.js';
import { renderFleet } from '../../../src/core/render/render-fleet.js';
import { clusterDoc, fileOf, mustFail, mustLoad, policyDoc } from './documents.js';

const crd = (scope: string, group = 'shop.example.io', kind = 'Storefront') => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `storefronts.${group}` },
  spec: {
    group,
    names: { kind, plural: 'storefronts', singular: 'storefront', listKind: `${kind}List` },
    scope,
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }],
  },
});
const storefront = (namespace?: string) => ({
  apiVersion: 'shop.example.io/v1',
  kind: 'Storefront',
  metadata: { name: 'front', ...(namespace ? { namespace } : {}) },
  spec: { replicas: 2 },
});
const policy = policyDoc('PropagationPolicy', 'storefronts', {
  resourceSelectors: [{ apiVersion: 'shop.example.io/v1', kind: 'Storefront' }],
  placement: { clusterAffinity: { clusterNames: ['member1'] } },
});
const crdPolicy = policyDoc('ClusterPropagationPolicy', 'storefront-crd', {
  resourceSelectors: [
    {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      name: 'storefronts.shop.example.io',
    },
  ],
  placement: { clusterAffinity: { clusterNames: ['member1'] } },
});
const clusters = [
  fileOf('clusters/member1.yaml', clusterDoc('member1')),
  fileOf('clusters/member2.yaml', clusterDoc('member2')),
];

test('A namespaced custom resource without a namespace belongs to default and propagates (samples/guestbook).', () => {
  const fleet = mustLoad([
    ...clusters,
    fileOf('crds/storefront.yaml', crd('Namespaced')),
    fileOf('apps/front.yaml', storefront()),
    fileOf('policies/storefronts.yaml', policy, crdPolicy),
  ]);
  const front = fleet.templates.find((t) => t.ref.kind === 'Storefront')!;
  assert.equal(front.ref.namespace, 'default');
  assert.equal(front.key, 'shop.example.io/Storefront/default/front');
  assert.equal(front.object.metadata.namespace, 'default');
  const render = renderFleet(freshSnapshot(fleet));
  const member1 = [...render.clusters.get('member1')!.files.keys()];
  assert.ok(
    member1.some((p) => p.includes('front')),
    member1.join('\n'),
  );
  assert.ok(
    member1.some((p) => p.includes('storefronts.shop.example.io')),
    member1.join('\n'),
  );
  assert.equal(render.clusters.get('member2')!.files.size, 0);
  assert.ok(!render.diagnostics.some((d) => d.code === 'NoPolicyMatch'), JSON.stringify(render.diagnostics));
});

test('The CRD may come after its custom resources in the repo.', () => {
  const fleet = mustLoad([fileOf('a/front.yaml', storefront()), fileOf('z/crd.yaml', crd('Namespaced'))]);
  assert.equal(fleet.templates.find((t) => t.ref.kind === 'Storefront')!.ref.namespace, 'default');
});

test('A cluster-scoped custom resource stays without a namespace.', () => {
  const fleet = mustLoad([fileOf('crd.yaml', crd('Cluster')), fileOf('front.yaml', storefront())]);
  assert.equal(fleet.templates.find((t) => t.ref.kind === 'Storefront')!.ref.namespace, '');
});

test('A custom resource whose CRD is not in the fleet is left as written.', () => {
  const fleet = mustLoad([fileOf('front.yaml', storefront())]);
  assert.equal(fleet.templates.find((t) => t.ref.kind === 'Storefront')!.ref.namespace, '');
});

test('The same custom resource written with and without namespace default is one object, defined twice.', () => {
  const errors = mustFail([
    fileOf('crd.yaml', crd('Namespaced')),
    fileOf('a.yaml', storefront()),
    fileOf('b.yaml', storefront('default')),
  ]);
  assert.equal(errors.length, 1, JSON.stringify(errors));
  assert.equal(errors[0]!.code, 'DuplicateIdentity');
  assert.match(errors[0]!.message, /Storefront\/default\/front: defined twice/);
});

const reporting = (namespaced: boolean | undefined): ClusterStatus => ({
  apiEnablements: [
    {
      groupVersion: 'shop.example.io/v1',
      resources: [
        { name: 'storefronts', kind: 'Storefront', ...(namespaced === undefined ? {} : { namespaced }) },
      ],
    },
  ],
});

test('Where the CRD is not in the fleet, the scope the clusters report decides.', () => {
  const fleet = mustLoad([
    ...clusters,
    fileOf('apps/front.yaml', storefront()),
    fileOf('policies/p.yaml', policy),
  ]);
  const status = new Map([
    ['member1', reporting(true)],
    ['member2', reporting(true)],
  ]);
  const scoped = withClusterScopes(fleet, status);
  const front = scoped.templates.find((t) => t.ref.kind === 'Storefront')!;
  assert.equal(front.key, 'shop.example.io/Storefront/default/front');
  const render = renderFleet({ fleet: scoped, clusterStatus: status, previous: new Map() });
  assert.ok([...render.clusters.get('member1')!.files.keys()].some((p) => p.includes('front')));
});

test('Without a scope every reporting cluster agrees on, the custom resource is left as written.', () => {
  const fleet = mustLoad([fileOf('front.yaml', storefront())]);
  const cases: { name: string; status: Map<string, ClusterStatus> }[] = [
    { name: 'no status', status: new Map() },
    { name: 'scope not reported', status: new Map([['member1', reporting(undefined)]]) },
    { name: 'reported cluster-scoped', status: new Map([['member1', reporting(false)]]) },
    {
      name: 'clusters disagree',
      status: new Map([
        ['member1', reporting(true)],
        ['member2', reporting(false)],
      ]),
    },
  ];
  for (const c of cases) assert.equal(withClusterScopes(fleet, c.status), fleet, c.name);
});
