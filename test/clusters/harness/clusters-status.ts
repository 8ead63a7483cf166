// `npm run clusters -- status`: what runs, per cluster: server, readiness and each process.
import { apiRequest } from './api-request.js';
import { readClustersState, type ComponentName } from './cluster-state.js';
import { isRunning } from './process-liveness.js';

/** One cluster as seen now. */
export interface ClusterStatus {
  name: string;
  server: string;
  /** HTTP status of /readyz, 0 when unreachable. */
  readyz: number;
  processes: { component: ComponentName; pid: number; running: boolean; log: string }[];
}

/** What `status` found: nothing recorded, or the recorded clusters with their kubeconfig. */
export type StatusResult =
  { type: 'NothingUp' } | { type: 'Recorded'; kubeconfig: string; clusters: ClusterStatus[] };

/** Returns the status of the clusters recorded in `stateDir`. */
export async function clustersStatus(stateDir: string): Promise<StatusResult> {
  const state = readClustersState(stateDir);
  if (state === undefined) return { type: 'NothingUp' };
  const clusters = await Promise.all(
    state.clusters.map(async (c) => ({
      name: c.name,
      server: c.server,
      readyz: (await apiRequest(c, { method: 'GET', path: '/readyz', timeoutMs: 3000 })).status,
      processes: c.processes.map((p) => ({
        component: p.component,
        pid: p.pid,
        running: isRunning(p),
        log: p.log,
      })),
    })),
  );
  return { type: 'Recorded', kubeconfig: state.kubeconfig, clusters };
}
