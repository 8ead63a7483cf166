// A small fleet repo on disk for the fault tests: two clusters and what a ClusterPropagationPolicy
// sends them, with room for the test's own files.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const clusters = ['c1', 'c2']
  .map(
    (name) => `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: { name: ${name} }
spec: { syncMode: Pull }
`,
  )
  .join('---\n');

const apps = `apiVersion: v1
kind: ConfigMap
metadata: { name: web, namespace: default }
data: { k: v }
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: { name: everything }
spec:
  resourceSelectors:
  - { apiVersion: v1, kind: ConfigMap }
  - { apiVersion: v1, kind: Secret }
  - { apiVersion: apps/v1, kind: Deployment }
  placement: { clusterAffinity: { clusterNames: [c1, c2] } }
`;

/** A scratch directory with a fleet repo at `fleet/`; `remove` deletes it all. */
export interface FleetDir {
  root: string;
  fleet: string;
  /** Writes (or replaces) a file of the fleet repo. */
  write(path: string, content: string | Uint8Array): void;
  remove(): void;
}

/** Returns a new scratch directory holding the small fleet repo. */
export function aFleetDir(): FleetDir {
  const root = mkdtempSync(join(tmpdir(), 'gitfleet-fault-'));
  const fleet = join(root, 'fleet');
  const write = (path: string, content: string | Uint8Array) => {
    mkdirSync(dirname(join(fleet, path)), { recursive: true });
    writeFileSync(join(fleet, path), content);
  };
  write('clusters.yaml', clusters);
  write('apps.yaml', apps);
  return { root, fleet, write, remove: () => rmSync(root, { recursive: true, force: true }) };
}
