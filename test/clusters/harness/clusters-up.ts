// `npm run clusters -- up`: starts the member clusters in the background and leaves them running,
// recorded in a state folder that `down` and `status` read.
import { existsSync, rmSync } from 'node:fs';
import { allProcesses, readClustersState, writeClustersState, type ClustersState } from './cluster-state.js';
import { ensureBinaries } from './ensure-binaries.js';
import { onInterrupt } from './on-interrupt.js';
import { isRunning } from './process-liveness.js';
import { startClusters } from './start-clusters.js';
import { stopProcesses } from './stop-processes.js';

/** Options of `up`. */
export interface UpOptions {
  count: number;
  stateDir: string;
  controllers: boolean;
  readyTimeoutMs: number;
  log: (line: string) => void;
}

/** The outcome of `up`: started, or refused because clusters from an earlier `up` still run. */
export type UpResult =
  { type: 'Started'; state: ClustersState } | { type: 'AlreadyUp'; state: ClustersState };

/** Starts the clusters, or returns AlreadyUp; throws (after stopping what it started) on failure. */
export async function clustersUp(opts: UpOptions): Promise<UpResult> {
  const previous = readClustersState(opts.stateDir);
  if (previous !== undefined && allProcesses(previous).some(isRunning))
    return { type: 'AlreadyUp', state: previous };
  if (existsSync(opts.stateDir)) rmSync(opts.stateDir, { recursive: true, force: true });
  const binaries = await ensureBinaries();
  const abort = new AbortController();
  let state: ClustersState | undefined;
  const stopStarted = async () => {
    abort.abort();
    if (state !== undefined) await stopProcesses(allProcesses(state), { graceMs: 10_000 });
  };
  const untrap = onInterrupt(stopStarted, opts.log);
  try {
    state = await startClusters({
      ...opts,
      binaries,
      onChange: (s) => writeClustersState((state = s)),
      signal: abort.signal,
    });
    return { type: 'Started', state };
  } catch (err) {
    await stopStarted();
    opts.log(`logs kept in ${opts.stateDir}; \`npm run clusters -- down\` removes them`);
    throw err;
  } finally {
    untrap();
  }
}
