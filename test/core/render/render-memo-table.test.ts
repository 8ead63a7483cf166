// The memo table (core/render/incremental-render.ts) as a test: a small fleet is rendered, then
// one input changes and the fleet is rendered again with the memo, as a running hub does. Each
// row names the input and, for every entry of the table, what is computed again: the ids whose
// memo entry is a new object (reused entries are last time's object). The output must still
// equal a fresh render.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadFleet, type LoadMemo, type SourceFile } from '../../../src/core/load/load-fleet.js';
import type { PreviousBinding } from '../../../src/core/model/binding.js';
import type { ClusterStatus } from '../../../src/core/model/cluster.js';
import type { ExportedSlice } from '../../../src/core/model/exported-slice.js';
import type { GracefulEvictionTask, PurgeMode, TimedTaint } from '../../../src/core/model/failover.js';
import type { Snapshot } from '../../../src/core/model/snapshot.js';
import { previousBindingOf } from '../../../src/core/publish/previous-binding-of.js';
import { renderMemoTable } from '../../../src/core/render/incremental-render.js';
import { renderFleet, type RenderMemo, type RenderResult } from '../../../src/core/render/render-fleet.js';

const web = 'apps/Deployment/shop/web';
const webConfig = '/ConfigMap/shop/web-config';
const api = 'apps/Deployment/billing/api';
const shop = '/Namespace//shop';
const hpa = 'autoscaling/HorizontalPodAutoscaler/shop/web';
/** The Namespace the repo has no template for, made up for the one cluster api runs on. */
const billingOnStaging = `/Namespace//billing\u0000staging`;

const base: SourceFile[] = [
  {
    path: 'fleet.yaml',
    content: `apiVersion: gitfleet.io/v1alpha1
kind: FleetConfig
metadata: {name: fleet}
spec:
  guards: {maxDeleteFraction: 0.5, minObjects: 10}
`,
  },
  {
    path: 'clusters.yaml',
    content: ['prod-a', 'prod-b', 'staging']
      .map(
        (name) => `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata:
  name: ${name}
  labels: {env: ${name.startsWith('prod') ? 'prod' : 'staging'}}
spec: {}
`,
      )
      .join('---\n'),
  },
  {
    path: 'shop.yaml',
    content: `apiVersion: v1
kind: Namespace
metadata:
  name: shop
  labels: {team: shop}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 4
  template:
    spec:
      containers:
        - name: web
          image: web:1
          envFrom: [{configMapRef: {name: web-config}}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: web-config, namespace: shop}
data: {greeting: hello}
`,
  },
  {
    path: 'billing.yaml',
    content: `apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: billing}
spec:
  replicas: 1
  template:
    spec:
      containers: [{name: api, image: api:1}]
`,
  },
  {
    path: 'policies.yaml',
    content: `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  propagateDeps: true
  placement:
    clusterAffinity:
      labelSelector: {matchLabels: {env: prod}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: api, namespace: billing}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  placement:
    clusterAffinity: {clusterNames: [staging]}
`,
  },
  {
    path: 'overrides.yaml',
    content: `apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: web-image, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  overrideRules:
    - targetCluster: {clusterNames: [prod-a]}
      overriders:
        imageOverrider: [{component: Tag, operator: replace, value: "2"}]
`,
  },
];

const withServices: SourceFile[] = [
  ...base,
  {
    path: 'services.yaml',
    content: `apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceExport
metadata: {name: web, namespace: shop}
---
apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceImport
metadata: {name: web, namespace: shop}
spec:
  type: ClusterSetIP
  ports: [{name: http, port: 80, protocol: TCP}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web-export, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: multicluster.x-k8s.io/v1alpha1, kind: ServiceExport, name: web}]
  placement:
    clusterAffinity: {clusterNames: [prod-a]}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web-import, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: multicluster.x-k8s.io/v1alpha1, kind: ServiceImport, name: web}]
  placement:
    clusterAffinity: {clusterNames: [staging]}
`,
  },
];
const importedFromProdA = 'discovery.k8s.io/EndpointSlice/shop/imported-prod-a-web-abcde';

/** prod-a's one slice of shop/web, with these addresses. */
function slicesOf(addresses: string[]): ReadonlyMap<string, readonly ExportedSlice[]> {
  const slice: ExportedSlice = {
    cluster: 'prod-a',
    namespace: 'shop',
    service: 'web',
    name: 'web-abcde',
    addressType: 'IPv4',
    endpoints: addresses.map((a) => ({ addresses: [a], conditions: { ready: true } })),
    ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
  };
  return new Map([['prod-a', [slice]]]);
}

/** Returns the previous placements with web evicted from prod-b (GracefulEvictCluster). */
function evictedFromProdB(
  purgeMode: PurgeMode,
): (previous: Map<string, PreviousBinding>) => Map<string, PreviousBinding> {
  return (previous) => {
    const placed = previous.get(web)!;
    const evicted = placed.clusters.find((c) => c.name === 'prod-b')!;
    const task: GracefulEvictionTask = {
      fromCluster: 'prod-b',
      purgeMode,
      ...(evicted.replicas > 0 ? { replicas: evicted.replicas } : {}),
      reason: 'TaintUntolerated',
      producer: 'TaintManager',
      creationTimestamp: '2026-12-01T15:00:00.000Z',
    };
    const clusters = placed.clusters.filter((c) => c.name !== 'prod-b');
    return new Map([...previous, [web, { ...placed, clusters, evictionTasks: [task] }]]);
  };
}

type Entry = keyof typeof renderMemoTable;
type Recomputed = Record<Entry, string[]>;

interface Row {
  name: string;
  /** The change, to the files, the cluster status or the previous placements. */
  files?: (files: SourceFile[]) => SourceFile[];
  status?: ReadonlyMap<string, ClusterStatus>;
  /** The hub's cluster taints after the change (Snapshot.clusterTaints; none before). */
  taints?: ReadonlyMap<string, readonly TimedTaint[]>;
  previous?: (previous: Map<string, PreviousBinding>) => Map<string, PreviousBinding>;
  /** A change to the previous placements the row starts from (the settled render's). */
  settle?: (previous: Map<string, PreviousBinding>) => Map<string, PreviousBinding>;
  /** The fleet the row starts from, when not `base`. */
  start?: SourceFile[];
  /** The exported slices before, and after the change. */
  slices?: {
    before: ReadonlyMap<string, readonly ExportedSlice[]>;
    now: ReadonlyMap<string, readonly ExportedSlice[]>;
  };
  /** Per entry, the ids computed again (a missing entry: nothing). */
  want: Partial<Recomputed>;
}

function edit(path: string, from: string, to: string): (files: SourceFile[]) => SourceFile[] {
  return (files) =>
    files.map((f) => {
      if (f.path !== path) return f;
      assert.ok(f.content.includes(from), `${path} holds ${JSON.stringify(from)}`);
      return { ...f, content: f.content.replace(from, to) };
    });
}

const everyTemplate = [web, webConfig, api, shop].sort();
const everyUnit = [web, webConfig, api, shop, billingOnStaging].sort();
const everyCluster = ['prod-a', 'prod-b', 'staging'];

const rows: Row[] = [
  { name: 'nothing changes: everything is reused', want: {} },
  {
    name: 'a template changes: its detection, schedule, dependencies, unit and its clusters',
    files: edit('shop.yaml', 'replicas: 4', 'replicas: 6'),
    want: {
      detections: [web],
      schedules: [web],
      dependencies: [web],
      units: [web],
      clusters: ['prod-a', 'prod-b'],
    },
  },
  {
    name: 'a follower’s template changes: its detection, unit and clusters; its binding is equal',
    files: edit('shop.yaml', 'greeting: hello', 'greeting: hi'),
    want: { detections: [webConfig], units: [webConfig], clusters: ['prod-a', 'prod-b'] },
  },
  {
    name: 'a propagation policy changes: every detection, the schedules it claims, and what moves',
    files: edit('policies.yaml', 'matchLabels: {env: prod}', 'matchLabels: {}'),
    want: {
      detections: everyTemplate,
      schedules: [web],
      followers: [webConfig],
      namespaces: ['render'],
      units: [web, webConfig],
      clusters: everyCluster,
    },
  },
  {
    name: 'the FleetConfig changes: every detection, and nothing else',
    files: edit('fleet.yaml', 'minObjects: 10', 'minObjects: 11'),
    want: { detections: everyTemplate },
  },
  {
    name: 'a cluster changes: every schedule, the Namespaces, every unit and every cluster',
    files: edit('clusters.yaml', 'labels: {env: staging}', 'labels: {env: staging, tier: small}'),
    want: {
      schedules: [web, api],
      namespaces: ['render'],
      units: everyUnit,
      clusters: everyCluster,
    },
  },
  {
    name: 'the cluster status changes: every schedule, and the units of the bindings it made again',
    status: new Map([['staging', { conditions: [{ type: 'Ready', status: 'True' }] }]]),
    want: { schedules: [web, api], units: [web, api], clusters: everyCluster },
  },
  {
    name: 'the hub’s cluster taints change: every schedule, and the units of the bindings it made again',
    taints: new Map([
      ['prod-b', [{ key: 'example.com/drain', effect: 'NoSchedule', timeAdded: '2026-12-01T15:00:00.000Z' }]],
    ]),
    want: { schedules: [web, api], units: [web, api], clusters: everyCluster },
  },
  {
    name: 'a previous placement changes: that template’s detection (its claim) and schedule',
    previous: (previous) => {
      const placed = previous.get(api)!;
      const policy = { kind: 'PropagationPolicy' as const, namespace: 'billing', name: 'gone' };
      return new Map([
        ...previous,
        [api, { ...placed, policy, clusters: [{ name: 'prod-a', replicas: 1 }] }],
      ]);
    },
    want: { detections: [api], schedules: [api], units: [api], clusters: ['staging'] },
  },
  {
    name: 'an override policy changes: every unit is rendered again, and every cluster patched',
    files: edit('overrides.yaml', 'value: "2"', 'value: "3"'),
    want: { units: everyUnit, clusters: everyCluster },
  },
  {
    name: 'a Tenant changes: every unit is rendered again (no copy by its content key), and every cluster patched',
    start: [
      ...base,
      {
        path: 'tenants.yaml',
        content:
          'apiVersion: gitfleet.io/v1alpha1\nkind: Tenant\nmetadata: {name: team}\nspec: {paths: [teams/], namespaces: [team]}\n',
      },
    ],
    files: edit('tenants.yaml', 'namespaces: [team]', 'namespaces: [team, more]'),
    want: { units: everyUnit, clusters: everyCluster },
  },
  {
    name: 'the repo’s Namespace changes: its detection, the Namespaces, its unit and clusters',
    files: edit('shop.yaml', 'labels: {team: shop}', 'labels: {team: storefront}'),
    want: { detections: [shop], namespaces: ['render'], units: [shop], clusters: everyCluster },
  },
  {
    name: 'an HPA comes to scale a template: a new follower, so the Namespaces again, and the template’s unit (its replicas now stay with the member)',
    files: (files) => [
      ...files,
      {
        path: 'hpa.yaml',
        content: `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: shop}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 10
`,
      },
    ],
    want: {
      detections: [hpa],
      followers: [hpa],
      namespaces: ['render'],
      units: [hpa, web],
      clusters: ['prod-a', 'prod-b'],
    },
  },
  {
    name: 'a template is removed: one binding fewer, so the Namespaces again, and its clusters are patched',
    files: (files) => files.filter((f) => f.path !== 'billing.yaml'),
    want: { namespaces: ['render'], clusters: ['staging'] },
  },
  // Graceful eviction (core/failover/apply-evictions.ts): web is evicted from prod-b.
  {
    name: 'web is evicted from prod-b, Gracefully: its schedule and unit; the copy and the ConfigMap stay there, so followers and Namespaces are reused',
    previous: evictedFromProdB('Gracefully'),
    want: { schedules: [web], units: [web], clusters: ['prod-a', 'prod-b'] },
  },
  {
    name: 'web is evicted from prod-b, Directly: its schedule and unit, and its follower and the Namespaces, which leave prod-b with it',
    previous: evictedFromProdB('Directly'),
    want: {
      schedules: [web],
      followers: [webConfig],
      namespaces: ['render'],
      units: [web, webConfig],
      clusters: ['prod-a', 'prod-b'],
    },
  },
  {
    name: 'an eviction task read back equal (a new object every pass): everything is reused',
    settle: evictedFromProdB('Gracefully'),
    previous: (previous) => new Map([...previous].map(([k, p]) => [k, structuredClone(p)])),
    want: {},
  },
  {
    name: 'an eviction task is dropped: its schedule, and what leaves the evicted cluster',
    settle: evictedFromProdB('Gracefully'),
    previous: (previous) => {
      const { evictionTasks: _done, ...placed } = previous.get(web)!;
      return new Map([...previous, [web, placed]]);
    },
    want: { schedules: [web], units: [web], clusters: ['prod-a', 'prod-b'] },
  },
  // Multi-cluster services (core/mcs): web is exported from the prod clusters, imported on staging.
  {
    name: 'the exported slices change: the services, the changed slice’s unit and the importing cluster only',
    start: withServices,
    slices: { before: slicesOf(['10.0.0.1']), now: slicesOf(['10.0.0.1', '10.0.0.2']) },
    want: { services: ['render'], units: [importedFromProdA], clusters: ['staging'] },
  },
  {
    name: 'the exported slices are read again, equal: everything is reused',
    start: withServices,
    slices: { before: slicesOf(['10.0.0.1']), now: slicesOf(['10.0.0.1']) },
    want: {},
  },
  {
    name: 'an exporting cluster reports no slice any more: the services, the Namespaces (one binding fewer), and the importing cluster is patched',
    start: withServices,
    slices: { before: slicesOf(['10.0.0.1']), now: new Map() },
    want: { services: ['render'], namespaces: ['render'], clusters: ['staging'] },
  },
  {
    name: 'the exported slices change with a CrossCluster MultiClusterService too: the imported and the dispatched slice, on the consuming cluster only (the Service it places is reused)',
    start: [
      ...withServices,
      {
        path: 'mcs.yaml',
        content: `apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec:
  ports: [{name: http, port: 80}]
---
apiVersion: networking.karmada.io/v1alpha1
kind: MultiClusterService
metadata: {name: web, namespace: shop}
spec:
  types: [CrossCluster]
  providerClusters: [{name: prod-a}]
  consumerClusters: [{name: staging}]
`,
      },
    ],
    slices: { before: slicesOf(['10.0.0.1']), now: slicesOf(['10.0.0.2']) },
    want: {
      services: ['render'],
      units: [importedFromProdA, 'discovery.k8s.io/EndpointSlice/shop/prod-a-web-abcde'],
      clusters: ['staging'],
    },
  },
];

function previousOf(result: RenderResult): Map<string, PreviousBinding> {
  const previous = new Map<string, PreviousBinding>();
  for (const b of result.bindings) {
    const p = previousBindingOf(b);
    if (p) previous.set(b.key, p);
  }
  return previous;
}

/** Per entry, the ids whose memo entry in `now` is not the object `last` kept. */
function recomputed(last: RenderMemo, now: RenderMemo): Recomputed {
  const changed = <T>(a: ReadonlyMap<string, T>, b: ReadonlyMap<string, T>) =>
    [...b].filter(([id, v]) => a.get(id) !== v).map(([id]) => id);
  return {
    detections: changed(last.detections, now.detections),
    schedules: changed(last.schedules, now.schedules),
    dependencies: changed(last.dependencies, now.dependencies),
    followers: changed(last.followers, now.followers),
    namespaces: last.namespaces?.result === now.namespaces?.result ? [] : ['render'],
    services: last.services?.result === now.services?.result ? [] : ['render'],
    units: changed(last.units, now.units),
    clusters: changed(last.clusters, now.clusters),
    admission: changed(last.admission?.clusters ?? new Map(), now.admission?.clusters ?? new Map()),
  };
}

function outputOf(result: RenderResult) {
  return {
    clusters: [...result.clusters].map(([name, out]) => [name, [...out.files], [...out.held]]),
    bindings: result.bindings,
    diagnostics: result.diagnostics,
    stats: result.stats,
  };
}

function load(files: SourceFile[], memo?: LoadMemo) {
  const loaded = loadFleet(files, memo ? { memo } : {});
  assert.ok(loaded.ok, JSON.stringify(!loaded.ok && loaded.errors));
  return loaded;
}

test('the memo table names every entry of the render memo', () => {
  const result = renderFleet({ fleet: load(base).fleet, clusterStatus: new Map(), previous: new Map() });
  const entries = Object.keys(result.memo).filter((k) => k !== 'context');
  assert.deepEqual(entries.sort(), Object.keys(renderMemoTable).sort());
  for (const row of Object.values(renderMemoTable)) assert.ok(row.per && row.keyedOn && row.invalidatedBy);
});

for (const row of rows) {
  test(`memo table: ${row.name}`, () => {
    const start = row.start ?? base;
    const first = load(start);
    const clusterStatus = new Map<string, ClusterStatus>();
    const slices = row.slices ? { exportedSlices: row.slices.before } : {};
    const before = renderFleet(
      { fleet: first.fleet, clusterStatus, previous: new Map(), ...slices },
      { ahead: true },
    );
    // As a hub does: the next pass reads the placements back, and renders with the memo.
    const settledPrevious = row.settle ? row.settle(previousOf(before)) : previousOf(before);
    const settled: Snapshot = { fleet: first.fleet, clusterStatus, previous: settledPrevious, ...slices };
    const last = renderFleet(settled, { memo: before.memo, ahead: true });
    const files = row.files ? row.files(start) : start;
    const snapshot: Snapshot = {
      fleet: load(files, first.memo).fleet,
      clusterStatus: row.status ?? clusterStatus,
      previous: row.previous ? row.previous(previousOf(last)) : previousOf(last),
      ...(row.slices ? { exportedSlices: row.slices.now } : {}),
      ...(row.taints ? { clusterTaints: row.taints } : {}),
    };
    const now = renderFleet(snapshot, { memo: last.memo, ahead: true });
    const want: Recomputed = {
      detections: [],
      schedules: [],
      dependencies: [],
      followers: [],
      namespaces: [],
      services: [],
      units: [],
      clusters: [],
      ...row.want,
      // A cluster whose assembled render is new is checked again (its objects by text: admit-clusters.ts).
      admission: row.want.admission ?? row.want.clusters ?? [],
    };
    const got = recomputed(last.memo, now.memo);
    for (const list of [...Object.values(got), ...Object.values(want)]) list.sort();
    assert.deepEqual(got, want);
    assert.deepEqual(
      outputOf(now),
      outputOf(renderFleet({ ...snapshot, fleet: load(files).fleet })),
      'the memoized render equals a fresh one',
    );
  });
}
