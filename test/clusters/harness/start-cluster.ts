// Starts one member cluster: etcd, kube-apiserver (waited for until /readyz answers 200), then,
// when asked, kube-controller-manager, kube-scheduler and kwok with its simulated Node.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiRequest, type ApiTarget } from './api-request.js';
import type { ClusterRecord, ComponentName } from './cluster-state.js';
import { writeClusterCredentials } from './cluster-credentials.js';
import { certDir, componentArgs, type ComponentInputs } from './component-args.js';
import { createFakeNode } from './fake-node.js';
import { writeKubeconfig } from './kubeconfig.js';
import { logTail } from './log-tail.js';
import { isRunning } from './process-liveness.js';
import { spawnComponent } from './spawn-component.js';
import { waitFor, type WaitResult } from './wait-for.js';

/** How to start one cluster. */
export interface StartClusterOptions {
  cluster: ClusterRecord;
  binDir: string;
  controllers: boolean;
  kwok: boolean;
  readyTimeoutMs: number;
  log: (line: string) => void;
  /** Called after every process start, so the caller can record it before anything else fails. */
  onSpawn: () => void;
  /** Once aborted, no further process is started. */
  signal?: AbortSignal;
}

/** Why a cluster did not start; `log` is the file that tells more. */
export class ClusterStartError extends Error {
  constructor(cluster: string, what: string, log?: string) {
    super(`${cluster}: ${what}${log === undefined ? '' : `\n--- ${log} (end) ---\n${logTail(log)}`}`);
    this.name = 'ClusterStartError';
  }
}

function start(opts: StartClusterOptions, inputs: ComponentInputs, component: ComponentName): void {
  if (opts.signal?.aborted === true)
    throw new ClusterStartError(opts.cluster.name, `start of ${component} aborted`);
  const log = join(opts.cluster.dir, 'logs', `${component}.log`);
  opts.cluster.processes.push(
    spawnComponent({ binDir: opts.binDir, component, args: componentArgs(component, inputs), log }),
  );
  opts.onSpawn();
}

function firstDead(cluster: ClusterRecord) {
  return cluster.processes.find((p) => !isRunning(p));
}

/** Waits for etcd's /health, so kube-apiserver starts against a store that answers. */
async function waitForEtcd(opts: StartClusterOptions): Promise<WaitResult> {
  const url = `http://127.0.0.1:${opts.cluster.ports.etcdClient}/health`;
  return waitFor(
    async () => {
      const dead = firstDead(opts.cluster);
      if (dead !== undefined) return { type: 'Never', reason: `${dead.component} exited` };
      const answer = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
        async (r) => `${r.status} ${await r.text()}`,
        (err: unknown) => String(err),
      );
      return answer.startsWith('200')
        ? { type: 'Done' }
        : { type: 'NotYet', note: `etcd /health: ${answer}` };
    },
    { timeoutMs: opts.readyTimeoutMs, intervalMs: 200 },
  );
}

async function waitForApiServer(opts: StartClusterOptions, target: ApiTarget): Promise<WaitResult> {
  return waitFor(
    async () => {
      const dead = firstDead(opts.cluster);
      if (dead !== undefined) return { type: 'Never', reason: `${dead.component} exited` };
      const answer = await apiRequest(target, { method: 'GET', path: '/readyz', timeoutMs: 5000 });
      return answer.status === 200
        ? { type: 'Done' }
        : { type: 'NotYet', note: `/readyz: ${answer.status} ${answer.body}` };
    },
    { timeoutMs: opts.readyTimeoutMs, intervalMs: 500 },
  );
}

function failure(cluster: ClusterRecord, what: string, result: WaitResult): ClusterStartError {
  const dead = firstDead(cluster);
  const why =
    result.type === 'TimedOut'
      ? `timed out; last seen: ${result.last.slice(0, 500)}`
      : result.type === 'GaveUp'
        ? result.reason
        : '';
  return new ClusterStartError(cluster.name, `${what}: ${why}`, (dead ?? cluster.processes.at(-1))?.log);
}

function componentInputs(opts: StartClusterOptions): ComponentInputs {
  const { cluster } = opts;
  mkdirSync(cluster.dir, { recursive: true });
  const creds = writeClusterCredentials(cluster.dir, cluster.token);
  return {
    dir: cluster.dir,
    ports: cluster.ports,
    tokenFile: creds.tokenFile,
    serviceAccountKey: creds.serviceAccountKey,
    serviceAccountPub: creds.serviceAccountPub,
    adminKubeconfig: join(cluster.dir, 'admin.kubeconfig'),
    kwokStages: join(opts.binDir, 'kwok-stages.yaml'),
  };
}

const since = (began: number) => `${((Date.now() - began) / 1000).toFixed(1)}s`;

/** Starts etcd, then kube-apiserver, and waits for each to answer. */
async function startApiServer(
  opts: StartClusterOptions,
  inputs: ComponentInputs,
  began: number,
): Promise<void> {
  const { cluster } = opts;
  start(opts, inputs, 'etcd');
  const etcd = await waitForEtcd(opts);
  if (etcd.type !== 'Done') throw failure(cluster, 'etcd not healthy', etcd);
  start(opts, inputs, 'kube-apiserver');
  const ready = await waitForApiServer(opts, { server: cluster.server, token: cluster.token });
  if (ready.type !== 'Done') throw failure(cluster, 'kube-apiserver not ready', ready);
  opts.log(`${cluster.name}: kube-apiserver ready at ${cluster.server} after ${since(began)}`);
}

/** Starts the controllers and, with kwok, waits for the simulated Node to be Ready. */
async function startControllers(
  opts: StartClusterOptions,
  inputs: ComponentInputs,
  caPem: string,
  began: number,
) {
  const { cluster } = opts;
  for (const c of ['kube-controller-manager', 'kube-scheduler'] as const) start(opts, inputs, c);
  if (!opts.kwok) return;
  start(opts, inputs, 'kwok');
  const target = { server: cluster.server, token: cluster.token, ca: caPem };
  const node = await createFakeNode(target, opts.readyTimeoutMs);
  if (node.type !== 'Done') throw failure(cluster, 'simulated Node not Ready', node);
  opts.log(`${cluster.name}: simulated Node Ready after ${since(began)}`);
}

/** Starts the cluster; returns the PEM of its serving certificate (its CA for clients). */
export async function startCluster(opts: StartClusterOptions): Promise<string> {
  const { cluster } = opts;
  const inputs = componentInputs(opts);
  const began = Date.now();
  await startApiServer(opts, inputs, began);
  const caPem = readServingCert(cluster);
  writeKubeconfig(inputs.adminKubeconfig, [
    { name: cluster.name, server: cluster.server, token: cluster.token, caPem },
  ]);
  if (opts.controllers) await startControllers(opts, inputs, caPem, began);
  return caPem;
}

function readServingCert(cluster: ClusterRecord): string {
  const file = join(certDir(cluster.dir), 'apiserver.crt');
  if (!existsSync(file)) throw new ClusterStartError(cluster.name, `no serving certificate at ${file}`);
  return readFileSync(file, 'utf8');
}
