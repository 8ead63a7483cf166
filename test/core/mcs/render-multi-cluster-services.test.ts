// Multi-cluster services through the whole render (core/mcs, wired in render-fleet.ts): a fleet
// repo with a Service exported from member1 and imported elsewhere, the exported slices as the
// agents report them, and what each cluster's branch gets. The expectations come from Karmada's
// pkg/controllers/mcs/service_import_controller.go (the derived Service),
// pkg/controllers/mcs/endpointslice_controller.go (the imported slices' names and labels),
// pkg/controllers/multiclusterservice/mcs_controller.go and endpointslice_dispatch_controller.go
// (CrossCluster), pkg/util/names/names.go and pkg/util/constants.go (names and label values).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load as parseYaml } from 'js-yaml';
import { loadFleet, type SourceFile } from '../../../src/core/load/load-fleet.js';
import type { PreviousBinding } from '../../../src/core/model/binding.js';
import type { ClusterStatus } from '../../../src/core/model/cluster.js';
import type { Diagnostic } from '../../../src/core/model/diagnostic.js';
import type { ExportedSlice } from '../../../src/core/model/exported-slice.js';
import { previousBindingOf } from '../../../src/core/publish/previous-binding-of.js';
import { renderFleet, type RenderResult } from '../../../src/core/render/render-fleet.js';
import { freshSnapshot } from '../../../src/core/model/snapshot.js';

const clusters: SourceFile = {
  path: 'clusters.yaml',
  content: ['member1', 'member2', 'member3']
    .map(
      (name) =>
        `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: ${name}}\nspec: {}\n`,
    )
    .join('---\n'),
};

function placed(kind: string, apiVersion: string, on: string[]): string {
  return `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: ${kind.toLowerCase()}, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: ${apiVersion}, kind: ${kind}, name: web}]
  placement:
    clusterAffinity: {clusterNames: [${on.join(', ')}]}
`;
}

const namespace = `apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n`;
const service = `apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: 8080}]
`;
const serviceExport = `apiVersion: multicluster.x-k8s.io/v1alpha1\nkind: ServiceExport\nmetadata: {name: web, namespace: shop}\n`;
const serviceImport = `apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceImport
metadata: {name: web, namespace: shop}
spec:
  type: ClusterSetIP
  ports: [{name: http, port: 80, protocol: TCP}]
`;

/** The fleet: Service and ServiceExport on `exportOn`, the ServiceImport on `importOn`. */
function aFleet(opts: { exportOn?: string[]; importOn?: string[]; extra?: string[] } = {}): SourceFile[] {
  const docs = [namespace, service, serviceExport, serviceImport, ...(opts.extra ?? [])];
  const policies = [
    placed('Service', 'v1', opts.exportOn ?? ['member1']),
    placed('ServiceExport', 'multicluster.x-k8s.io/v1alpha1', opts.exportOn ?? ['member1']),
    ...(opts.importOn === undefined || opts.importOn.length > 0
      ? [placed('ServiceImport', 'multicluster.x-k8s.io/v1alpha1', opts.importOn ?? ['member2'])]
      : []),
  ];
  return [
    clusters,
    { path: 'shop.yaml', content: docs.join('---\n') },
    { path: 'policies.yaml', content: policies.join('---\n') },
  ];
}

function aSlice(cluster: string, name: string, addresses: string[], port = 8080): ExportedSlice {
  return {
    cluster,
    namespace: 'shop',
    service: 'web',
    name,
    addressType: 'IPv4',
    endpoints: addresses.map((a) => ({ addresses: [a], conditions: { ready: true, serving: true } })),
    ports: [{ name: 'http', port, protocol: 'TCP' }],
  };
}

/**
 * Renders as a running hub does: once with every cluster Ready, then with `clusterStatus` and the
 * first render's placements as the previous ones (a cluster turning NotReady keeps what it has).
 */
function render(
  files: SourceFile[],
  slices: ExportedSlice[],
  clusterStatus: ReadonlyMap<string, ClusterStatus> = new Map(),
): RenderResult {
  const loaded = loadFleet(files);
  assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.errors));
  const exportedSlices = new Map<string, ExportedSlice[]>();
  for (const s of slices) exportedSlices.set(s.cluster, [...(exportedSlices.get(s.cluster) ?? []), s]);
  const first = renderFleet({
    fleet: loaded.fleet,
    clusterStatus: new Map(),
    previous: new Map(),
    exportedSlices,
  });
  const previous = new Map<string, PreviousBinding>();
  for (const b of first.bindings) {
    const p = previousBindingOf(b);
    if (p) previous.set(b.key, p);
  }
  return renderFleet({ fleet: loaded.fleet, clusterStatus, previous, exportedSlices });
}

/** The fields of a rendered Service or EndpointSlice the tests read. */
interface Manifest {
  metadata: { name: string; labels: Record<string, string>; annotations: Record<string, string> };
  spec: { type?: string; clusterIP?: string; ports?: unknown[]; selector?: Record<string, string> };
  addressType?: string;
  endpoints: { addresses: string[]; conditions: { ready?: boolean; serving?: boolean } }[];
  ports?: unknown[];
}

/** A cluster's file, parsed; undefined when the branch does not hold it. */
function fileOf(result: RenderResult, cluster: string, path: string): Manifest | undefined {
  const text = result.clusters.get(cluster)!.files.get(path);
  return text === undefined ? undefined : (parseYaml(text) as Manifest);
}

function pathsOf(result: RenderResult, cluster: string, under: string): string[] {
  return [...result.clusters.get(cluster)!.files.keys()].filter((p) => p.startsWith(under));
}

function codes(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.filter((d) => d.severity !== 'info').map((d) => `${d.code} ${d.subject}`);
}

const derivedPath = 'shop/Service/derived-web.yaml';
const slices = 'shop/EndpointSlice.discovery.k8s.io/';
const notReady = new Map<string, ClusterStatus>([
  ['member1', { conditions: [{ type: 'Ready', status: 'False' }] }],
]);

test('the importing cluster gets derived-<name>: ClusterIP, the ServiceImport’s ports, no clusterIP (service_import_controller.go)', () => {
  const result = render(aFleet(), [aSlice('member1', 'web-abcde', ['10.0.0.1'])]);
  const derived = fileOf(result, 'member2', derivedPath)!;
  assert.equal(derived.spec.clusterIP, undefined, 'the member allocates the IP: the manifest never holds it');
  assert.deepEqual(derived.spec, { type: 'ClusterIP', ports: [{ name: 'http', port: 80, protocol: 'TCP' }] });
  assert.equal(fileOf(result, 'member1', derivedPath), undefined, 'only where the ServiceImport is placed');
  assert.deepEqual(codes(result.diagnostics), [], 'the derived Service is made by the hub, not missing');
});

test('each exported slice becomes imported-<cluster>-<slice>, labelled to the derived Service and managed by Karmada (endpointslice_controller.go, names.go)', () => {
  const result = render(aFleet(), [aSlice('member1', 'web-abcde', ['10.0.0.2', '10.0.0.1'])]);
  assert.deepEqual(pathsOf(result, 'member2', slices), [`${slices}imported-member1-web-abcde.yaml`]);
  const slice = fileOf(result, 'member2', `${slices}imported-member1-web-abcde.yaml`)!;
  assert.equal(slice.metadata.labels['kubernetes.io/service-name'], 'derived-web');
  assert.equal(
    slice.metadata.labels['endpointslice.kubernetes.io/managed-by'],
    'endpointslice-controller.karmada.io',
  );
  assert.equal(slice.metadata.annotations['endpointslice.karmada.io/provision-cluster'], 'member1');
  assert.equal(slice.addressType, 'IPv4');
  assert.deepEqual(
    slice.endpoints.map((e) => e.addresses[0]),
    ['10.0.0.2', '10.0.0.1'],
    'endpoints as reported (the agent sorts them)',
  );
  assert.deepEqual(slice.ports, [{ name: 'http', port: 8080, protocol: 'TCP' }]);
});

const collectionRows: {
  name: string;
  given: { files?: SourceFile[]; slices: ExportedSlice[]; status?: ReadonlyMap<string, ClusterStatus> };
  want: { slices: string[]; ready?: boolean[]; diagnostics?: string[] };
}[] = [
  {
    name: 'a NotReady exporting cluster keeps its slices, but its endpoints are neither ready nor serving',
    given: { slices: [aSlice('member1', 'web-abcde', ['10.0.0.1'])], status: notReady },
    want: { slices: ['imported-member1-web-abcde'], ready: [false] },
  },
  {
    name: 'a cluster that reports slices where the ServiceExport is not placed exports nothing',
    given: {
      slices: [aSlice('member1', 'web-abcde', ['10.0.0.1']), aSlice('member3', 'web-zzz', ['10.9.0.1'])],
    },
    want: { slices: ['imported-member1-web-abcde'], ready: [true] },
  },
  {
    name: 'a cluster that left the fleet (tombstoned) exports nothing, even with the ServiceExport placed on it',
    given: {
      files: aFleet({ exportOn: ['member1', 'gone'] }),
      slices: [aSlice('member1', 'web-abcde', ['10.0.0.1']), aSlice('gone', 'web-old', ['10.8.0.1'])],
    },
    want: { slices: ['imported-member1-web-abcde'], ready: [true] },
  },
  {
    name: 'two exporting clusters: one slice from each',
    given: {
      files: aFleet({ exportOn: ['member1', 'member3'] }),
      slices: [aSlice('member3', 'web-b', ['10.3.0.1']), aSlice('member1', 'web-a', ['10.1.0.1'])],
    },
    want: { slices: ['imported-member1-web-a', 'imported-member3-web-b'], ready: [true, true] },
  },
  {
    name: 'a ServiceImport whose Service is exported nowhere: the derived Service with no endpoints, and a warning',
    given: { slices: [] },
    want: { slices: [], diagnostics: ['ServiceNotExported ServiceImport/shop/web'] },
  },
  {
    name: 'two exporting clusters with conflicting ports: both slices keep their own, the derived Service takes the ServiceImport’s, and a warning (Karmada picks no winner)',
    given: {
      files: aFleet({ exportOn: ['member1', 'member3'] }),
      slices: [
        aSlice('member1', 'web-a', ['10.1.0.1'], 8080),
        aSlice('member3', 'web-b', ['10.3.0.1'], 9090),
      ],
    },
    want: {
      slices: ['imported-member1-web-a', 'imported-member3-web-b'],
      ready: [true, true],
      diagnostics: ['ServicePortConflict ServiceImport/shop/web'],
    },
  },
];

for (const row of collectionRows) {
  test(`collection: ${row.name}`, () => {
    const result = render(row.given.files ?? aFleet(), row.given.slices, row.given.status);
    const names = pathsOf(result, 'member2', slices).map((p) => p.slice(slices.length, -'.yaml'.length));
    assert.deepEqual(names, row.want.slices);
    const ready = names.map((n) => fileOf(result, 'member2', `${slices}${n}.yaml`)!.endpoints[0]!.conditions);
    assert.deepEqual(
      ready.map((c) => c.ready),
      row.want.ready ?? [],
    );
    if (row.want.ready?.includes(false))
      assert.deepEqual(
        ready.map((c) => c.serving),
        [false],
      );
    assert.ok(fileOf(result, 'member2', derivedPath), 'the derived Service is always rendered');
    assert.deepEqual(fileOf(result, 'member2', derivedPath)!.spec.ports, [
      { name: 'http', port: 80, protocol: 'TCP' },
    ]);
    const warnings = codes(result.diagnostics).filter((c) => !c.startsWith('UnregisteredCluster'));
    assert.deepEqual(warnings, row.want.diagnostics ?? []);
  });
}

test('removing the ServiceImport, or unexporting, takes the objects off the branches', () => {
  const exported = [aSlice('member1', 'web-abcde', ['10.0.0.1'])];
  const before = render(aFleet(), exported);
  assert.equal(pathsOf(before, 'member2', 'shop/').length, 3, 'Namespace, derived Service, slice');
  const noImport = render(aFleet({ importOn: [] }), exported);
  assert.deepEqual(pathsOf(noImport, 'member2', 'shop/'), []);
  const unexported = render(aFleet(), []);
  assert.deepEqual(pathsOf(unexported, 'member2', slices), []);
});

test('a ServiceImport that is not ClusterSetIP derives nothing, as in Karmada', () => {
  const headless = aFleet().map((f) =>
    f.path === 'shop.yaml' ? { ...f, content: f.content.replace('type: ClusterSetIP', 'type: Headless') } : f,
  );
  const result = render(headless, [aSlice('member1', 'web-abcde', ['10.0.0.1'])]);
  assert.equal(fileOf(result, 'member2', derivedPath), undefined);
  assert.deepEqual(pathsOf(result, 'member2', slices), []);
});

test('an object the hub would make that the fleet repo already has is not made again, and a warning says so', () => {
  const own = `apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: imported-member1-web-abcde, namespace: shop}
addressType: IPv4
endpoints: []
`;
  const result = render(aFleet({ extra: [own] }), [aSlice('member1', 'web-abcde', ['10.0.0.1'])]);
  assert.ok(
    codes(result.diagnostics).includes('ImportConflict EndpointSlice/shop/imported-member1-web-abcde'),
  );
});

const crossCluster = (spec: string) => `apiVersion: networking.karmada.io/v1alpha1
kind: MultiClusterService
metadata: {name: web, namespace: shop}
spec:
${spec}`;

test('MultiClusterService CrossCluster: the Service goes to the consumers under its own name, the providers’ slices are dispatched as <cluster>-<slice> (mcs_controller.go, endpointslice_dispatch_controller.go)', () => {
  const mcs = crossCluster(
    '  types: [CrossCluster]\n  providerClusters: [{name: member1}]\n  consumerClusters: [{name: member2}]\n',
  );
  const result = render(aFleet({ importOn: [], extra: [mcs] }), [
    aSlice('member1', 'web-abcde', ['10.0.0.1']),
  ]);
  assert.deepEqual(fileOf(result, 'member2', 'shop/Service/web.yaml')!.spec.selector, { app: 'web' });
  assert.deepEqual(pathsOf(result, 'member2', slices), [`${slices}member1-web-abcde.yaml`]);
  const slice = fileOf(result, 'member2', `${slices}member1-web-abcde.yaml`)!;
  assert.equal(slice.metadata.labels['kubernetes.io/service-name'], 'web');
  assert.equal(
    slice.metadata.labels['endpointslice.kubernetes.io/managed-by'],
    'endpointslice-dispatch-controller.karmada.io',
  );
  assert.equal(slice.metadata.annotations['endpointslice.karmada.io/provision-cluster'], 'member1');
  assert.deepEqual(pathsOf(result, 'member1', slices), [], 'a provider gets no slices of its own');
  assert.deepEqual(pathsOf(result, 'member3', 'shop/'), [], 'neither provider nor consumer');
  assert.deepEqual(codes(result.diagnostics), []);
});

test('MultiClusterService with no consumers listed: every cluster but the provider consumes; without CrossCluster nothing is dispatched', () => {
  const all = crossCluster('  types: [CrossCluster]\n  providerClusters: [{name: member1}]\n');
  const result = render(aFleet({ importOn: [], extra: [all] }), [
    aSlice('member1', 'web-abcde', ['10.0.0.1']),
  ]);
  assert.deepEqual(
    ['member1', 'member2', 'member3'].map((c) => pathsOf(result, c, slices).length),
    [0, 1, 1],
  );
  assert.ok(fileOf(result, 'member3', 'shop/Service/web.yaml'));
  const lb = crossCluster('  types: [LoadBalancer]\n');
  const none = render(aFleet({ importOn: [], extra: [lb] }), [aSlice('member1', 'web-abcde', ['10.0.0.1'])]);
  assert.deepEqual(pathsOf(none, 'member2', 'shop/'), []);
});

test('both APIs from the same collected slices: a ServiceImport and a MultiClusterService on one consumer', () => {
  const mcs = crossCluster(
    '  types: [CrossCluster]\n  providerClusters: [{name: member1}]\n  consumerClusters: [{name: member2}]\n',
  );
  const result = render(aFleet({ extra: [mcs] }), [aSlice('member1', 'web-abcde', ['10.0.0.1'])]);
  assert.deepEqual(pathsOf(result, 'member2', slices), [
    `${slices}imported-member1-web-abcde.yaml`,
    `${slices}member1-web-abcde.yaml`,
  ]);
});

test('what a ServiceImport derives follows it as its dependencies do: its conflict resolution and preservation carry over (Karmada propagates them as the ServiceImport’s dependencies)', () => {
  const overwrite = aFleet().map((f) =>
    f.path === 'policies.yaml'
      ? {
          ...f,
          content: f.content.replace(
            'metadata: {name: serviceimport, namespace: shop}\nspec:\n',
            'metadata: {name: serviceimport, namespace: shop}\nspec:\n  conflictResolution: Overwrite\n  preserveResourcesOnDeletion: true\n',
          ),
        }
      : f,
  );
  assert.ok(overwrite[2]!.content.includes('conflictResolution: Overwrite'));
  const result = render(overwrite, [aSlice('member1', 'web-abcde', ['10.0.0.1'])]);
  for (const path of [derivedPath, `${slices}imported-member1-web-abcde.yaml`]) {
    const { annotations } = fileOf(result, 'member2', path)!.metadata;
    assert.equal(annotations['work.karmada.io/conflict-resolution'], 'overwrite', path);
    assert.equal(annotations['gitfleet.io/preserve-on-deletion'], 'true', path);
    assert.equal(
      annotations['gitfleet.io/required-by'],
      'multicluster.x-k8s.io/ServiceImport/shop/web',
      path,
    );
  }
});

test('a ServiceExport evicted Gracefully from its only cluster still exports from there while its copy stays: consumers keep its endpoints', () => {
  const loaded = loadFleet(aFleet());
  assert.ok(loaded.ok);
  const exportedSlices = new Map([['member1', [aSlice('member1', 'web-abcde', ['10.0.0.1'])]]]);
  const first = renderFleet({
    fleet: loaded.fleet,
    clusterStatus: new Map(),
    previous: new Map(),
    exportedSlices,
  });
  // member1 was judged Unknown and the Service and ServiceExport evicted from it Gracefully
  // (as the taint manager's GracefulEvictCluster leaves them): no other cluster took them.
  const previous = new Map<string, PreviousBinding>();
  for (const b of first.bindings) {
    const p = previousBindingOf(b);
    if (!p) continue;
    const evicted = b.resource.kind === 'Service' || b.resource.kind === 'ServiceExport';
    previous.set(
      b.key,
      evicted
        ? {
            ...p,
            clusters: [],
            evictionTasks: [
              {
                fromCluster: 'member1',
                purgeMode: 'Gracefully',
                reason: 'TaintUntolerated',
                producer: 'TaintManager',
                creationTimestamp: '2026-12-01T15:00:00.000Z',
              },
            ],
          }
        : p,
    );
  }
  const status = new Map<string, ClusterStatus>([
    ['member1', { conditions: [{ type: 'Ready', status: 'Unknown' }] }],
  ]);
  const during = renderFleet({ fleet: loaded.fleet, clusterStatus: status, previous, exportedSlices });
  assert.ok(
    fileOf(during, 'member1', 'shop/ServiceExport.multicluster.x-k8s.io/web.yaml'),
    'the copy stays on member1',
  );
  assert.deepEqual(pathsOf(during, 'member2', slices), [`${slices}imported-member1-web-abcde.yaml`]);
  const slice = fileOf(during, 'member2', `${slices}imported-member1-web-abcde.yaml`)!;
  assert.deepEqual(
    slice.endpoints.map((e) => e.conditions.ready),
    [false],
    'served as not ready while member1 is not Ready',
  );
  // member1 Ready again, its task still running: the endpoints are ready again.
  const ready = new Map<string, ClusterStatus>([
    ['member1', { conditions: [{ type: 'Ready', status: 'True' }] }],
  ]);
  const back = renderFleet({ fleet: loaded.fleet, clusterStatus: ready, previous, exportedSlices });
  assert.deepEqual(
    fileOf(back, 'member2', `${slices}imported-member1-web-abcde.yaml`)!.endpoints.map(
      (e) => e.conditions.ready,
    ),
    [true],
  );
});

test('without status (validate, render), an exported Service is information, not a warning: no agent was asked', () => {
  const loaded = loadFleet(aFleet());
  assert.ok(loaded.ok);
  const fresh = renderFleet(freshSnapshot(loaded.fleet));
  const said = fresh.diagnostics.filter((d) => d.code === 'ServiceNotExported');
  assert.deepEqual(
    said.map((d) => [d.severity, d.message]),
    [
      [
        'info',
        "its ServiceExport is placed on member1; whether their agents report endpoints of it is known from their status branches (gitfleet status, or gitfleet diff with the hub's branches)",
      ],
    ],
  );
  // With status read and nothing reported, it is the warning it was.
  const hub = renderFleet({ ...freshSnapshot(loaded.fleet), exportedSlices: new Map() });
  assert.deepEqual(
    hub.diagnostics.filter((d) => d.code === 'ServiceNotExported').map((d) => d.severity),
    ['warning'],
  );
});

test('without status, a ServiceImport whose ServiceExport is placed nowhere is still a warning: that needs no status', () => {
  const loaded = loadFleet(aFleet({ exportOn: ['member9'] }));
  assert.ok(loaded.ok);
  const fresh = renderFleet(freshSnapshot(loaded.fleet));
  assert.deepEqual(
    fresh.diagnostics.filter((d) => d.code === 'ServiceNotExported').map((d) => d.severity),
    ['warning'],
  );
});
