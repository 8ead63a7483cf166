// The record of a set of running test clusters: what was started, where, and how to reach it.
// It is written to <stateDir>/state.json so that `npm run clusters -- down` and `status`, run
// from another process, find the processes that `up` left running.
import { existsSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';

/** The programs one member cluster runs, in start order. */
export type ComponentName = 'etcd' | 'kube-apiserver' | 'kube-controller-manager' | 'kube-scheduler' | 'kwok';

/** One started program: its pid is also its process group id (it is spawned detached). */
export interface ComponentProcess {
  component: ComponentName;
  pid: number;
  /** Absolute path of the binary, used to tell a live process from a reused pid. */
  binary: string;
  log: string;
}

/** Loopback ports of one cluster. */
export interface ClusterPorts {
  etcdClient: number;
  etcdPeer: number;
  apiserver: number;
}

/** One member cluster: its name is also its kubeconfig context. */
export interface ClusterRecord {
  name: string;
  dir: string;
  server: string;
  token: string;
  ports: ClusterPorts;
  processes: ComponentProcess[];
}

/** Everything started by one `up` or one `withTestClusters`. */
export interface ClustersState {
  version: 1;
  stateDir: string;
  binDir: string;
  kubeconfig: string;
  startedAt: string;
  controllers: boolean;
  kwok: boolean;
  clusters: ClusterRecord[];
}

/** Returns the path of the state file inside `stateDir`. */
export function stateFile(stateDir: string): string {
  return join(stateDir, 'state.json');
}

/** Returns the state saved in `stateDir`, or undefined when there is none. */
export function readClustersState(stateDir: string): ClustersState | undefined {
  const file = stateFile(stateDir);
  if (!existsSync(file)) return undefined;
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as ClustersState;
  return parsed.version === 1 ? parsed : undefined;
}

/** Writes `state` atomically to its state dir and returns the file path. */
export function writeClustersState(state: ClustersState): string {
  const file = stateFile(state.stateDir);
  writeFileSync(`${file}.tmp`, JSON.stringify(state, null, 2) + '\n');
  renameSync(`${file}.tmp`, file);
  return file;
}

/** Returns every process of every cluster, in start order. */
export function allProcesses(state: ClustersState): ComponentProcess[] {
  return state.clusters.flatMap((c) => c.processes);
}
