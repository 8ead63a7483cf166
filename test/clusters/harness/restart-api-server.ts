// Stops one member's kube-apiserver and starts it again on the same port, for tests of a member
// that goes away (test/e2e/failover.test.ts): etcd keeps running, so the cluster's data survives,
// and the restarted server reuses the cluster's credentials and serving certificate (written at
// the first start; nothing is generated again, so the controllers' tokens stay valid and the
// kubeconfig's CA still matches). The controllers keep running and retry while it is gone, as
// they would against an unreachable control plane.
import { join } from 'node:path';
import { apiRequest } from './api-request.js';
import type { ClusterRecord } from './cluster-state.js';
import { clusterCredentialFiles } from './cluster-credentials.js';
import { componentArgs, type ComponentInputs } from './component-args.js';
import { isRunning } from './process-liveness.js';
import { spawnComponent } from './spawn-component.js';
import { stopProcesses } from './stop-processes.js';
import { waitFor } from './wait-for.js';

/** Stops the cluster's kube-apiserver (SIGTERM, then SIGKILL after `graceMs`) and drops it from the record. */
export async function stopApiServer(cluster: ClusterRecord, opts: { graceMs?: number } = {}): Promise<void> {
  const servers = cluster.processes.filter((p) => p.component === 'kube-apiserver');
  if (!servers.some(isRunning)) throw new Error(`${cluster.name}: kube-apiserver is not running`);
  const report = await stopProcesses(servers, { graceMs: opts.graceMs ?? 10_000 });
  if (report.survivors.length > 0)
    throw new Error(`${cluster.name}: kube-apiserver pid ${report.survivors[0]!.pid} did not stop`);
  cluster.processes = cluster.processes.filter((p) => p.component !== 'kube-apiserver');
}

/** Starts the cluster's kube-apiserver again on its port and waits until /readyz answers 200. */
export async function startApiServer(
  cluster: ClusterRecord,
  opts: { binDir: string; readyTimeoutMs?: number; onSpawn?: () => void },
): Promise<void> {
  if (cluster.processes.some((p) => p.component === 'kube-apiserver' && isRunning(p)))
    throw new Error(`${cluster.name}: kube-apiserver is already running`);
  const inputs: ComponentInputs = {
    dir: cluster.dir,
    ports: cluster.ports,
    ...clusterCredentialFiles(cluster.dir),
    adminKubeconfig: join(cluster.dir, 'admin.kubeconfig'),
    kwokStages: join(opts.binDir, 'kwok-stages.yaml'),
  };
  const log = join(cluster.dir, 'logs', 'kube-apiserver.log');
  const server = spawnComponent({
    binDir: opts.binDir,
    component: 'kube-apiserver',
    args: componentArgs('kube-apiserver', inputs),
    log,
  });
  cluster.processes.push(server);
  opts.onSpawn?.();
  const ready = await waitFor(
    async () => {
      if (!isRunning(server)) return { type: 'Never', reason: `kube-apiserver exited (see ${log})` };
      const answer = await apiRequest(
        { server: cluster.server, token: cluster.token },
        { method: 'GET', path: '/readyz', timeoutMs: 5000 },
      );
      return answer.status === 200 ? { type: 'Done' } : { type: 'NotYet', note: `/readyz: ${answer.status}` };
    },
    { timeoutMs: opts.readyTimeoutMs ?? 120_000, intervalMs: 500 },
  );
  if (ready.type !== 'Done')
    throw new Error(
      `${cluster.name}: kube-apiserver not ready again: ${JSON.stringify(ready).slice(0, 500)}`,
    );
}
