// `npm run clusters -- down`: stops every process an earlier `up` started and removes its folder.
import { existsSync, rmSync } from 'node:fs';
import { allProcesses, readClustersState } from './cluster-state.js';
import { stopProcesses, type StopReport } from './stop-processes.js';

/** The outcome of `down`. */
export type DownResult = { type: 'NothingUp' } | { type: 'Stopped'; report: StopReport; removed: boolean };

/** Stops the clusters recorded in `stateDir`; removes the folder unless `keep` or a process survived. */
export async function clustersDown(opts: {
  stateDir: string;
  keep: boolean;
  graceMs: number;
}): Promise<DownResult> {
  const state = readClustersState(opts.stateDir);
  if (state === undefined) return { type: 'NothingUp' };
  const report = await stopProcesses(allProcesses(state), { graceMs: opts.graceMs });
  const remove = !opts.keep && report.survivors.length === 0 && existsSync(opts.stateDir);
  if (remove) rmSync(opts.stateDir, { recursive: true, force: true });
  return { type: 'Stopped', report, removed: remove };
}
