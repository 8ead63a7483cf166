// The hub pass reads the exported EndpointSlices of the agents' status branches (real git
// repository): a file that does not parse is a warning naming the cluster and the file, for
// that cluster only, and a cluster no Cluster document registers any more is not read at all.
// (The render of imported slices from Snapshot.exportedSlices is tested with the render.)
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ExportedSlice } from '../../../src/core/model/exported-slice.js';
import { statusBranchFiles } from '../../../src/core/status/status-branch.js';
import {
  commitStatusBranch,
  exampleFleetRepo,
  hubPass,
  removeFleetRepos,
  rendered,
  type FleetRepo,
} from './hub-fixture.js';

after(removeFleetRepos);

function slice(cluster: string, name: string): ExportedSlice {
  return {
    cluster,
    namespace: 'shop',
    service: 'web',
    name,
    addressType: 'IPv4',
    endpoints: [{ addresses: ['10.2.0.1'], conditions: { ready: true } }],
    ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
  };
}

/** Writes a status branch exporting two slices, the second one cut off when `truncate`. */
async function writeStatusBranch(repo: FleetRepo, cluster: string, truncate: boolean): Promise<void> {
  const files = statusBranchFiles({
    cluster,
    appliedCommit: null,
    objects: [],
    exports: [slice(cluster, 'web-a'), slice(cluster, 'web-b')],
  });
  const path = 'exports/shop/web/web-b.yaml';
  if (truncate) files.set(path, files.get(path)!.slice(0, 30));
  await commitStatusBranch(repo, cluster, files);
}

test("a refused exports file is a warning for its cluster only; an unregistered cluster's exports are not read", async () => {
  const repo = exampleFleetRepo({ bare: false });
  rendered(await hubPass(repo));
  await writeStatusBranch(repo, 'aws-eu-prod', true);
  await writeStatusBranch(repo, 'aws-us-prod', false);
  await writeStatusBranch(repo, 'left-the-fleet', true);
  const pass = rendered(await hubPass(repo));
  const refused = pass.diagnostics.filter((d) => d.code === 'ExportRefused');
  assert.deepEqual(
    refused.map((d) => [d.severity, d.cluster, d.subject]),
    [['warning', 'aws-eu-prod', 'exports/shop/web/web-b.yaml']],
  );
  assert.match(refused[0]!.message, /aws-eu-prod's status branch is refused \(its other slices are read\)/);
});
