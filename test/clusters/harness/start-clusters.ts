// Starts N isolated member clusters (member1..N) side by side on loopback ports and writes one
// kubeconfig with a context per cluster.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ClusterRecord, ClustersState } from './cluster-state.js';
import { newToken } from './cluster-credentials.js';
import type { Binaries } from './ensure-binaries.js';
import { freePorts } from './free-ports.js';
import { writeKubeconfig } from './kubeconfig.js';
import { startCluster } from './start-cluster.js';

/** How to start the clusters. */
export interface StartClustersOptions {
  count: number;
  /** An empty folder that will hold the clusters' data, logs, state.json and kubeconfig. */
  stateDir: string;
  binaries: Binaries;
  /** Also run kube-controller-manager and kube-scheduler (and kwok, when built). */
  controllers: boolean;
  readyTimeoutMs: number;
  log: (line: string) => void;
  /** Called with the state whenever a process was added, before anything else can fail. */
  onChange: (state: ClustersState) => void;
  /** Once aborted, no further process is started (the caller is stopping what runs). */
  signal?: AbortSignal;
}

/** Returns the name of the i-th member cluster (1-based), which is also its kubeconfig context. */
export function memberName(i: number): string {
  return `member${i}`;
}

async function planClusters(count: number, stateDir: string): Promise<ClusterRecord[]> {
  const ports = await freePorts(3 * count);
  return Array.from({ length: count }, (_, i) => {
    const [etcdClient = 0, etcdPeer = 0, apiserver = 0] = ports.slice(3 * i, 3 * i + 3);
    return {
      name: memberName(i + 1),
      dir: join(stateDir, memberName(i + 1)),
      server: `https://127.0.0.1:${apiserver}`,
      token: newToken(),
      ports: { etcdClient, etcdPeer, apiserver },
      processes: [],
    };
  });
}

/**
 * Starts every cluster and returns the state once all are ready. On failure it throws; the
 * processes started so far are in the last state given to `onChange`, for the caller to stop.
 */
export async function startClusters(opts: StartClustersOptions): Promise<ClustersState> {
  mkdirSync(opts.stateDir, { recursive: true });
  const state: ClustersState = {
    version: 1,
    stateDir: opts.stateDir,
    binDir: opts.binaries.binDir,
    kubeconfig: join(opts.stateDir, 'kubeconfig'),
    startedAt: new Date().toISOString(),
    controllers: opts.controllers,
    kwok: opts.controllers && opts.binaries.kwok,
    clusters: await planClusters(opts.count, opts.stateDir),
  };
  opts.onChange(state);
  // allSettled, not all: when one cluster fails, the others must have finished starting (or
  // failed) before the caller stops everything, or a late start would outlive the stop.
  const settled = await Promise.allSettled(
    state.clusters.map((cluster) =>
      startCluster({
        cluster,
        binDir: state.binDir,
        controllers: state.controllers,
        kwok: state.kwok,
        readyTimeoutMs: opts.readyTimeoutMs,
        log: opts.log,
        onSpawn: () => opts.onChange(state),
        ...(opts.signal === undefined ? {} : { signal: opts.signal }),
      }),
    ),
  );
  const caPems = settled.map((s) => {
    if (s.status === 'rejected') throw s.reason;
    return s.value;
  });
  writeKubeconfig(
    state.kubeconfig,
    state.clusters.map((c, i) => ({
      name: c.name,
      server: c.server,
      token: c.token,
      caPem: caPems[i] ?? '',
    })),
  );
  opts.onChange(state);
  return state;
}
