// The exported EndpointSlices of a status branch: what the agent keeps of a live slice and how
// the hub reads the files back. The rules of which slices are exported come from Karmada's
// pkg/controllers/mcs/service_export_controller.go (slices labelled kubernetes.io/service-name,
// those managed by Karmada skipped) and pkg/util/helper/mcs.go (IsEndpointSliceManagedByKarmada).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/core/model/kube-object.js';
import type { ExportedSlice } from '../../../src/core/model/exported-slice.js';
import {
  exportedSliceFiles,
  exportedSliceOf,
  parseExportedSlices,
} from '../../../src/core/status/exported-slices.js';
import { parseStatusBranch, statusBranchFiles } from '../../../src/core/status/status-branch.js';

function liveSlice(over: Partial<KubeObject> = {}, labels: Record<string, string> = {}): KubeObject {
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      namespace: 'shop',
      name: 'web-abc12',
      resourceVersion: '42',
      labels: { 'kubernetes.io/service-name': 'web', ...labels },
    },
    addressType: 'IPv4',
    endpoints: [
      {
        addresses: ['10.0.0.9'],
        conditions: { ready: false, serving: true, terminating: true },
        nodeName: 'n1',
      },
      { addresses: ['10.0.0.2'], conditions: { ready: true }, targetRef: { kind: 'Pod', name: 'web-1' } },
    ],
    ports: [
      { name: 'metrics', port: 9090, protocol: 'TCP' },
      { name: 'http', port: 8080, protocol: 'TCP', appProtocol: 'http' },
    ],
    ...over,
  };
}

const slice: ExportedSlice = {
  cluster: 'm1',
  namespace: 'shop',
  service: 'web',
  name: 'web-abc12',
  addressType: 'IPv4',
  endpoints: [
    { addresses: ['10.0.0.2'], conditions: { ready: true } },
    { addresses: ['10.0.0.9'], conditions: { ready: false, serving: true, terminating: true } },
  ],
  ports: [
    { name: 'http', port: 8080, protocol: 'TCP', appProtocol: 'http' },
    { name: 'metrics', port: 9090, protocol: 'TCP' },
  ],
};

test('a live slice keeps only what a consumer needs, endpoints sorted by address and ports by name', () => {
  assert.deepEqual(exportedSliceOf('m1', liveSlice()), slice);
});

test('a slice Karmada manages (an imported or dispatched one) or one without a Service is not exported', () => {
  const managedBy = 'endpointslice.kubernetes.io/managed-by';
  assert.equal(
    exportedSliceOf('m1', liveSlice({}, { [managedBy]: 'endpointslice-controller.karmada.io' })),
    undefined,
  );
  assert.equal(
    exportedSliceOf('m1', liveSlice({}, { [managedBy]: 'endpointslice-dispatch-controller.karmada.io' })),
    undefined,
  );
  assert.ok(exportedSliceOf('m1', liveSlice({}, { [managedBy]: 'endpointslice-controller.k8s.io' })));
  const unlabelled = liveSlice();
  unlabelled.metadata.labels = {};
  assert.equal(exportedSliceOf('m1', unlabelled), undefined);
});

test('the file is canonical: the same slice in another order is the same text', () => {
  const shuffled = { ...slice, endpoints: [...slice.endpoints].reverse(), ports: [...slice.ports].reverse() };
  const files = exportedSliceFiles([slice]);
  assert.deepEqual([...files.keys()], ['exports/shop/web/web-abc12.yaml']);
  assert.equal(
    exportedSliceFiles([shuffled]).get('exports/shop/web/web-abc12.yaml'),
    files.get('exports/shop/web/web-abc12.yaml'),
  );
  const text = files.get('exports/shop/web/web-abc12.yaml')!;
  assert.match(text, /^apiVersion: gitfleet.io\/v1alpha1$/m);
  assert.match(text, /^kind: ExportedEndpointSlice$/m);
  assert.match(text, /kubernetes.io\/service-name: web/);
});

test('a status branch round-trips its exported slices', () => {
  const report = { cluster: 'm1', appliedCommit: null, objects: [], exports: [slice] };
  const parsed = parseStatusBranch(statusBranchFiles(report));
  assert.deepEqual(parsed?.exports, [slice]);
  assert.equal(parsed?.exportProblems, undefined);
});

test('a truncated or wrong file is refused and named; the other slices are read', () => {
  const good = exportedSliceFiles([slice, { ...slice, service: 'api', name: 'api-1' }]);
  const text = good.get('exports/shop/web/web-abc12.yaml')!;
  const files = new Map(good);
  files.set('exports/shop/db/db-1.yaml', text.slice(0, text.indexOf('endpoints:') + 14));
  files.set('exports/shop/web/moved.yaml', text);
  files.set('exports/shop/bad/bad-1.yaml', 'kind: [unclosed\n');
  const { slices, problems } = parseExportedSlices('m1', files);
  assert.deepEqual(
    slices.map((s) => `${s.service}/${s.name}`),
    ['api/api-1', 'web/web-abc12'],
  );
  assert.deepEqual(
    problems.map((p) => [p.cluster, p.path]),
    [
      ['m1', 'exports/shop/bad/bad-1.yaml'],
      ['m1', 'exports/shop/db/db-1.yaml'],
      ['m1', 'exports/shop/web/moved.yaml'],
    ],
  );
  assert.match(problems[0]!.message, /not YAML/);
  assert.match(
    problems[1]!.message,
    /expected apiVersion gitfleet.io\/v1alpha1 and kind ExportedEndpointSlice/,
  );
  assert.match(
    problems[2]!.message,
    /the path does not match the slice \(exports\/shop\/web\/web-abc12.yaml\)/,
  );
});

test('a bad endpoint or port refuses the file, saying which', () => {
  const text = exportedSliceFiles([slice]).get('exports/shop/web/web-abc12.yaml')!;
  const cases: [string, RegExp][] = [
    [text.replace('ready: true', 'ready: "yes"'), /endpoints\[0\]/],
    [text.replace('port: 9090', 'port: nine'), /ports\[1\]/],
    [text.replace('addressType: IPv4', 'addressType: [1]'), /addressType/],
  ];
  for (const [bad, reason] of cases) {
    const { slices, problems } = parseExportedSlices(
      'm1',
      new Map([['exports/shop/web/web-abc12.yaml', bad]]),
    );
    assert.deepEqual(slices, []);
    assert.equal(problems.length, 1);
    assert.match(problems[0]!.message, reason);
  }
});
