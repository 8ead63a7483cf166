// How the hub gathers the exported slices of every cluster for the snapshot: a refused file is
// named for its cluster only, and a tombstoned cluster exports nothing (Karmada stops collecting
// from a cluster that left: pkg/controllers/mcs/service_export_controller.go cleans up the Works
// of a cluster's ServiceExports and EndpointSlices when they go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ExportedSlice } from '../../../src/core/model/exported-slice.js';
import { exportedSliceFiles } from '../../../src/core/status/exported-slices.js';
import { exportedSlicesByCluster } from '../../../src/core/status/exports-by-cluster.js';
import {
  parseStatusBranch,
  statusBranchFiles,
  type AgentReport,
} from '../../../src/core/status/status-branch.js';

function slice(cluster: string, name: string): ExportedSlice {
  return {
    cluster,
    namespace: 'shop',
    service: 'web',
    name,
    addressType: 'IPv4',
    endpoints: [{ addresses: ['10.1.0.1'], conditions: { ready: true } }],
    ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
  };
}

/** The report as the hub reads it from the status branch's files, after `change`. */
function readBack(report: AgentReport, change: (files: Map<string, string>) => void = () => {}): AgentReport {
  const files = statusBranchFiles(report);
  change(files);
  return parseStatusBranch(files)!;
}

test('a file that does not parse is refused for its cluster only, named by cluster and path', () => {
  const m1 = readBack(
    { cluster: 'm1', appliedCommit: null, objects: [], exports: [slice('m1', 'a'), slice('m1', 'b')] },
    (f) => f.set('exports/shop/web/b.yaml', f.get('exports/shop/web/b.yaml')!.slice(0, 40)),
  );
  const m2 = readBack({ cluster: 'm2', appliedCommit: null, objects: [], exports: [slice('m2', 'c')] });
  const { slices, diagnostics } = exportedSlicesByCluster(
    new Map([
      ['m1', m1],
      ['m2', m2],
    ]),
    new Set(['m1', 'm2']),
  );
  assert.deepEqual([...slices.keys()], ['m1', 'm2']);
  assert.deepEqual(slices.get('m1'), [slice('m1', 'a')]);
  assert.deepEqual(slices.get('m2'), [slice('m2', 'c')]);
  assert.equal(diagnostics.length, 1);
  assert.deepEqual(
    { ...diagnostics[0]!, message: '' },
    {
      severity: 'warning',
      code: 'ExportRefused',
      subject: 'exports/shop/web/b.yaml',
      cluster: 'm1',
      message: '',
    },
  );
  assert.match(diagnostics[0]!.message, /m1's status branch is refused/);
});

test('a cluster no longer registered, or whose agent reports its branch tombstoned, exports nothing', () => {
  const gone = readBack({ cluster: 'gone', appliedCommit: null, objects: [], exports: [slice('gone', 'a')] });
  const tomb = readBack({
    cluster: 'tomb',
    appliedCommit: null,
    objects: [],
    exports: [slice('tomb', 'a')],
    conditions: [{ type: 'Tombstoned', status: 'True', reason: 'ClusterRemoved', message: 'x' }],
  });
  const m1 = readBack({ cluster: 'm1', appliedCommit: null, objects: [], exports: [slice('m1', 'a')] });
  const reports = new Map([
    ['gone', gone],
    ['tomb', tomb],
    ['m1', m1],
  ]);
  const { slices } = exportedSlicesByCluster(reports, new Set(['tomb', 'm1']));
  assert.deepEqual([...slices.keys()], ['m1']);
});

test('a slice belongs to the cluster whose status branch holds it', () => {
  const files = exportedSliceFiles([slice('m1', 'a')]);
  const report = readBack({ cluster: 'm1', appliedCommit: null, objects: [] }, (f) => {
    for (const [p, t] of files) f.set(p, t);
  });
  const { slices } = exportedSlicesByCluster(new Map([['m3', report]]), new Set(['m3']));
  assert.deepEqual(slices.get('m3'), [slice('m3', 'a')]);
});
