// gitfleet processes for the leader-election tests: started with the CLI, what they print kept
// with the time each line arrived, so a test can wait for a line and tell when it came.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { inventoryName, inventoryNamespace } from '../../src/core/apply-plan/agent-keys.js';
import { eventually } from './test-clusters.js';
import { kubectl } from './agent-fixture.js';

const cli = join(new URL('.', import.meta.url).pathname, '../../../bin/gitfleet.js');

/** A running gitfleet command. */
export interface Process {
  readonly name: string;
  readonly child: ChildProcess;
  /** Every line printed so far (stdout and stderr), with when it arrived (Date.now()). */
  lines(): { at: number; text: string }[];
  /** Waits until a line matches `pattern` (at or after index `from`); returns it. */
  waitFor(pattern: RegExp, timeoutMs?: number, from?: number): Promise<{ at: number; text: string }>;
  /** Whether it still runs. */
  running(): boolean;
  /** Sends `signal` and resolves once it has exited. */
  stop(signal: NodeJS.Signals): Promise<void>;
  output(): string;
}

/** Starts `gitfleet <args>`; `env` is added to this process's environment. */
export function startProcess(name: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Process {
  const child = spawn(process.execPath, [cli, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  const lines: { at: number; text: string }[] = [];
  let pending = '';
  const take = (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    for (const text of parts) lines.push({ at: Date.now(), text });
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;
  const output = () => lines.map((l) => `${name}| ${l.text}`).join('\n');
  return {
    name,
    child,
    lines: () => lines,
    running,
    output,
    waitFor: (pattern, timeoutMs = 60_000, from = 0) =>
      eventually(
        `${name} to print ${pattern}`,
        async () => {
          const found = lines.slice(from).find((l) => pattern.test(l.text));
          if (found) return found;
          if (!running())
            throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}):\n${output()}`);
          return undefined;
        },
        timeoutMs,
      ),
    stop: async (signal) => {
      if (running()) child.kill(signal);
      await exited;
    },
  };
}

/**
 * Writes the Lease `name` in `ns` as another holder would: `holder`, renewed now, for `seconds`.
 * A merge patch, with no resourceVersion: the holder's own renewal, which carries the version it
 * read, conflicts with it and reads the Lease again, so it sees the new holder. (An update that
 * carried the version too conflicted with every renewal on a busy machine, where the read and
 * the write of two kubectl runs took longer than the 1 s between renewals.)
 */
export function writeLease(ns: string, name: string, holder: string, seconds: number): void {
  const lease = JSON.parse(kubectl(['get', 'lease', name, '-n', ns, '-o', 'json'])) as {
    spec: { leaseTransitions?: number };
  };
  const now = new Date().toISOString().replace('Z', '000Z');
  const spec = {
    holderIdentity: holder,
    leaseDurationSeconds: seconds,
    acquireTime: now,
    renewTime: now,
    leaseTransitions: (lease.spec.leaseTransitions ?? 0) + 1,
  };
  kubectl(['patch', 'lease', name, '-n', ns, '--type', 'merge', '-p', JSON.stringify({ spec })]);
}

/**
 * Removes what agents run as `cluster` left on the test cluster: the namespace of their objects
 * and their inventory, which no later test running an agent of that name should find.
 */
export function removeAgentLeftovers(cluster: string, namespace: string): void {
  kubectl(['delete', 'namespace', namespace, '--wait=false', '--ignore-not-found']);
  kubectl(['delete', 'configmap', inventoryName(cluster), '-n', inventoryNamespace, '--ignore-not-found']);
}
