// Test clusters for one test run: built (or reused), started once, handed to `fn` as environment
// variables, and stopped however the run ends: normally, by an exception, or by SIGINT/SIGTERM.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allProcesses, type ClustersState } from './cluster-state.js';
import { ensureBinaries } from './ensure-binaries.js';
import { onInterrupt } from './on-interrupt.js';
import { startClusters } from './start-clusters.js';
import { killProcessesNow, stopProcesses } from './stop-processes.js';
import { testEnv } from './test-env.js';
import { startApiServer, stopApiServer } from './restart-api-server.js';
import type { ApiTarget } from './api-request.js';

/**
 * What a test may do to the running clusters, by name (`member2`): stop one member's
 * kube-apiserver (etcd keeps its data) and start it again on the same port.
 */
export interface TestClusters {
  stopApiServer(cluster: string): Promise<void>;
  startApiServer(cluster: string): Promise<void>;
  /** The cluster's API server and admin token, for the harness's own requests (apiRequest). */
  target(cluster: string): ApiTarget;
}

/** Options of a test run's clusters. */
export interface TestClustersOptions {
  count: number;
  /** Run kube-controller-manager, kube-scheduler and kwok too (default true). */
  controllers?: boolean;
  /** How long one cluster may take to become ready (default 240 s: CI machines are busy). */
  readyTimeoutMs?: number;
}

const log = (line: string) => process.stderr.write(`[test-clusters] ${line}\n`);

/** Starts the clusters, returns what `fn` returns, and stops every cluster process afterwards. */
export async function withTestClusters<T>(
  opts: TestClustersOptions,
  fn: (env: Record<string, string>, clusters: TestClusters) => Promise<T>,
): Promise<T> {
  const binaries = await ensureBinaries();
  const stateDir = mkdtempSync(join(tmpdir(), 'gitfleet-test-clusters-'));
  const abort = new AbortController();
  let state: ClustersState | undefined;
  let keepDir = process.env['GITFLEET_KEEP_CLUSTERS_DIR'] === '1';
  const stop = async () => {
    abort.abort();
    if (state !== undefined) {
      const report = await stopProcesses(allProcesses(state), { graceMs: 10_000 });
      const left = report.survivors.map((p) => p.pid);
      if (left.length > 0) log(`could not stop pids ${left.join(' ')}`);
    }
    if (!keepDir) rmSync(stateDir, { recursive: true, force: true });
  };
  // Last resort when the process exits without the finally below (process.exit elsewhere).
  const onExit = () => state !== undefined && killProcessesNow(allProcesses(state));
  process.on('exit', onExit);
  const untrap = onInterrupt(stop, log);
  try {
    const began = Date.now();
    state = await startClusters({
      count: opts.count,
      stateDir,
      binaries,
      controllers: opts.controllers ?? true,
      readyTimeoutMs: opts.readyTimeoutMs ?? 240_000,
      log,
      onChange: (s) => (state = s),
      signal: abort.signal,
    }).catch((err: unknown) => {
      keepDir = true;
      log(`start failed; logs kept in ${stateDir}`);
      throw err;
    });
    log(`${opts.count} clusters up in ${((Date.now() - began) / 1000).toFixed(1)}s (kwok: ${state.kwok})`);
    const started = state;
    const record = (name: string) => {
      const found = started.clusters.find((c) => c.name === name);
      if (!found)
        throw new Error(`no test cluster ${name} (${started.clusters.map((c) => c.name).join(', ')})`);
      return found;
    };
    return await fn(testEnv(state), {
      stopApiServer: (name) => stopApiServer(record(name)),
      // The record is the state's: a restarted server is stopped with the rest at the end.
      startApiServer: (name) =>
        startApiServer(record(name), {
          binDir: started.binDir,
          readyTimeoutMs: opts.readyTimeoutMs ?? 240_000,
        }),
      target: (name) => ({ server: record(name).server, token: record(name).token }),
    });
  } finally {
    await stop();
    process.off('exit', onExit);
    untrap();
  }
}
