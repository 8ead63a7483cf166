// End to end, multi-cluster services the way a user runs them: a fleet repository, `gitfleet
// hub` and one `gitfleet agent` per test cluster as long-lived processes, and kubectl.
//
// member1 runs the Deployment and Service `web` and exports it (a ServiceExport placed with
// them); member2 consumes it (a ServiceImport placed there). As Karmada's mcs controllers do
// (pkg/controllers/mcs/service_export_controller.go collects the exported EndpointSlices,
// service_import_controller.go makes `derived-<name>`, endpointslice_controller.go writes the
// collected slices into the consumers as `imported-<cluster>-<slice>` labelled for the derived
// Service), member2 ends up with a `derived-web` Service and EndpointSlices whose addresses are
// member1's Pod IPs; scaling in the fleet repo shows in member2's endpoints; unexporting takes
// them away again.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, removeTempDirs, tempDir } from '../git-server/git-cli.js';
import { deleteNamespaceEverywhere, kubectl } from '../kube/agent-fixture.js';
import { eventually, uniqueName } from '../kube/test-clusters.js';
import { startFleet, type RunningFleet } from '../support/running-fleet.js';
import { clusterDoc, mcsCrds } from '../support/fleet-docs.js';

const ns = uniqueName('mcs');
const slow = { timeout: 600_000 };
let fleet: RunningFleet | undefined;
let repo: string;

function app(name: string, replicas: number): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: ${ns}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers:
        - name: ${name}
          image: nginx:1.27
          ports: [{containerPort: 8080, name: http}]
---
apiVersion: v1
kind: Service
metadata: {name: ${name}, namespace: ${ns}}
spec:
  selector: {app: ${name}}
  ports: [{name: http, port: 80, targetPort: 8080, protocol: TCP}]
`;
}

// The other API: a CrossCluster MultiClusterService (networking.karmada.io/v1alpha1) for the
// Service api, provided by member1 and consumed by member2. It needs no policy: the hub reads it.
const apiMcs = `apiVersion: networking.karmada.io/v1alpha1
kind: MultiClusterService
metadata: {name: api, namespace: ${ns}}
spec:
  types: [CrossCluster]
  providerClusters: [{name: member1}]
  consumerClusters: [{name: member2}]
`;

const serviceExport = `apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceExport
metadata: {name: web, namespace: ${ns}}
`;

function fleetFiles(replicas: number, exported: boolean): Record<string, string> {
  return {
    'clusters.yaml': `${clusterDoc('member1')}---\n${clusterDoc('member2')}`,
    'crds.yaml': mcsCrds(),
    'apps/namespace.yaml': `apiVersion: v1\nkind: Namespace\nmetadata: {name: ${ns}}\n`,
    'apps/web.yaml': app('web', replicas),
    'apps/api.yaml': app('api', 2),
    'apps/api-mcs.yaml': apiMcs,
    ...(exported ? { 'apps/web-export.yaml': serviceExport } : {}),
    'apps/web-import.yaml': `apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceImport
metadata: {name: web, namespace: ${ns}}
spec:
  type: ClusterSetIP
  ports: [{name: http, port: 80, protocol: TCP}]
`,
    'policies.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: mcs-crds}
spec:
  resourceSelectors:
    - {apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, name: serviceexports.multicluster.x-k8s.io}
    - {apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, name: serviceimports.multicluster.x-k8s.io}
  placement: {clusterAffinity: {clusterNames: [member1, member2]}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web-provider, namespace: ${ns}}
spec:
  resourceSelectors:
    - {apiVersion: apps/v1, kind: Deployment, name: web}
    - {apiVersion: v1, kind: Service, name: web}
    - {apiVersion: multicluster.x-k8s.io/v1alpha1, kind: ServiceExport, name: web}
    - {apiVersion: apps/v1, kind: Deployment, name: api}
    - {apiVersion: v1, kind: Service, name: api}
  placement: {clusterAffinity: {clusterNames: [member1]}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web-consumer, namespace: ${ns}}
spec:
  resourceSelectors:
    - {apiVersion: multicluster.x-k8s.io/v1alpha1, kind: ServiceImport, name: web}
  placement: {clusterAffinity: {clusterNames: [member2]}}
`,
  };
}

async function commitFleet(files: Record<string, string>, message: string): Promise<void> {
  rmSync(join(repo, 'apps'), { recursive: true, force: true });
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(repo, path, '..'), { recursive: true });
    writeFileSync(join(repo, path), content);
  }
  await git(repo, ['add', '-A']);
  await git(repo, ['commit', '-q', '-m', message]);
}

interface Slice {
  metadata: { name: string; labels?: Record<string, string> };
  endpoints?: { addresses: string[]; conditions?: { ready?: boolean } }[];
}

function slicesOf(context: string, service: string): Slice[] {
  const out = kubectl(
    ['get', 'endpointslices', '-n', ns, '-l', `kubernetes.io/service-name=${service}`, '-o', 'json'],
    { context },
  );
  return (JSON.parse(out) as { items: Slice[] }).items;
}

function readyAddresses(slices: readonly Slice[]): string[] {
  return slices
    .flatMap((s) => s.endpoints ?? [])
    .filter((e) => e.conditions?.ready !== false)
    .flatMap((e) => e.addresses)
    .sort();
}

function podIps(context: string, name = 'web'): string[] {
  const out = kubectl(['get', 'pods', '-n', ns, '-l', `app=${name}`, '-o', 'json'], { context });
  const pods = (JSON.parse(out) as { items: { status?: { podIP?: string; phase?: string } }[] }).items;
  return pods
    .filter((p) => p.status?.phase === 'Running' && p.status.podIP)
    .map((p) => p.status!.podIP!)
    .sort();
}

before(async () => {
  repo = join(tempDir('mcs-repo'), 'fleet');
  mkdirSync(repo, { recursive: true });
  await git(repo, ['-c', 'init.defaultBranch=main', 'init', '-q']);
  await commitFleet(fleetFiles(2, true), 'web exported from member1, imported on member2');
  const kubeconfig = process.env['GITFLEET_TEST_KUBECONFIG']!;
  fleet = startFleet(repo, ['member1', 'member2'], kubeconfig);
});

after(async () => {
  await fleet?.stop();
  deleteNamespaceEverywhere(ns);
  removeTempDirs();
});

test('member2 gets derived-web and imported EndpointSlices holding member1 Pod IPs', slow, async () => {
  const addresses = await eventually(
    'member2 serves member1 two ready endpoints',
    async () => {
      const ips = podIps('member1');
      if (ips.length !== 2) return undefined;
      const imported = slicesOf('member2', 'derived-web');
      const ready = readyAddresses(imported);
      return ready.length === 2 && ready.join() === ips.join() ? { ips, imported } : undefined;
    },
    300_000,
  );
  for (const slice of addresses.imported) assert.match(slice.metadata.name, /^imported-member1-/);
  const derived = JSON.parse(
    kubectl(['get', 'service', 'derived-web', '-n', ns, '-o', 'json'], { context: 'member2' }),
  ) as {
    spec: { type?: string; clusterIP?: string; ports: { port: number }[] };
  };
  assert.equal(derived.spec.type ?? 'ClusterIP', 'ClusterIP');
  assert.deepEqual(
    derived.spec.ports.map((p) => p.port),
    [80],
  );
  assert.ok(derived.spec.clusterIP, 'member2 allocated the derived Service its own cluster IP');
  // The cluster commit that brought them says where they came from. Only the imported slices:
  // the CrossCluster api Service's dispatched ones may land in a later commit of that folder.
  const message = await git(repo, [
    'log',
    '-1',
    '--format=%B',
    'refs/heads/gitfleet/clusters/member2',
    '--',
    `${ns}/EndpointSlice.discovery.k8s.io/imported-member1-*`,
  ]);
  assert.match(message, new RegExp(`Gitfleet-Endpoints-From: member1 ${ns}/web`));
});

test('scaling web to 4 replicas in the fleet repo shows 4 ready endpoints in member2', slow, async () => {
  await commitFleet(fleetFiles(4, true), 'scale web to 4');
  await eventually(
    'member2 serves four endpoints',
    async () => {
      const ips = podIps('member1');
      const ready = readyAddresses(slicesOf('member2', 'derived-web'));
      return ips.length === 4 && ready.join() === ips.join() ? ready : undefined;
    },
    300_000,
  );
});

test('unexporting web takes its endpoints out of member2', slow, async () => {
  await commitFleet(fleetFiles(4, false), 'stop exporting web');
  await eventually(
    'member2 has no imported endpoints',
    async () => (slicesOf('member2', 'derived-web').length === 0 ? true : undefined),
    300_000,
  );
  // The consumer's ServiceImport is still placed: the derived Service stays, without endpoints.
  assert.match(
    kubectl(['get', 'service', 'derived-web', '-n', ns, '-o', 'name'], { context: 'member2' }),
    /derived-web/,
  );
});

test(
  'a CrossCluster MultiClusterService puts api on member2 with member1 endpoints dispatched to it',
  slow,
  async () => {
    const dispatched = await eventually(
      'member2 serves api from member1',
      async () => {
        const ips = podIps('member1', 'api');
        if (ips.length !== 2) return undefined;
        const slices = slicesOf('member2', 'api').filter((s) => s.metadata.name.startsWith('member1-'));
        return readyAddresses(slices).join() === ips.join() ? slices : undefined;
      },
      300_000,
    );
    for (const slice of dispatched)
      assert.equal(
        slice.metadata.labels?.['endpointslice.kubernetes.io/managed-by'],
        'endpointslice-dispatch-controller.karmada.io',
      );
    // The Service itself went to the consumer under its own name.
    assert.match(
      kubectl(['get', 'service', 'api', '-n', ns, '-o', 'name'], { context: 'member2' }),
      /service\/api/,
    );
    // The provider was asked to export it by the hub's file in its branch, with no ServiceExport.
    const listed = await git(repo, ['show', 'refs/heads/gitfleet/clusters/member1:.gitfleet/exports.yaml']);
    assert.match(listed, new RegExp(`name: api\\n\\s+namespace: ${ns}|namespace: ${ns}\\n\\s+name: api`));
  },
);
