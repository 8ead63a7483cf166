// Starts one program of a cluster as a detached process (its own process group), with its
// output in a log file, so it outlives `npm run clusters -- up` and can be stopped by group.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ComponentName, ComponentProcess } from './cluster-state.js';

/** What to start. */
export interface SpawnRequest {
  binDir: string;
  component: ComponentName;
  args: string[];
  log: string;
}

/** Starts the program and returns its process record (pid = process group id). */
export function spawnComponent(req: SpawnRequest): ComponentProcess {
  const binary = join(req.binDir, req.component);
  mkdirSync(dirname(req.log), { recursive: true });
  const out = openSync(req.log, 'a');
  try {
    const child = spawn(binary, req.args, { detached: true, stdio: ['ignore', out, out] });
    if (child.pid === undefined) throw new Error(`${req.component}: could not start ${binary}`);
    // An error event after spawn (e.g. the binary vanished) must not crash the harness: the
    // readiness wait notices the dead process and reports its log.
    child.on('error', () => undefined);
    child.unref();
    return { component: req.component, pid: child.pid, binary, log: req.log };
  } finally {
    closeSync(out);
  }
}
