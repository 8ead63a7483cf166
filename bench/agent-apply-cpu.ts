// Where the agent's pass spends its time, for bench/agent-apply.ts: the wall time during which
// requests of each kind (apply, list, ...) were in flight, the most in flight at once, and the
// CPU time of the agent's process, of kubectl (a finished child's CPU from /proc/self/stat)
// and of the test cluster's kube-apiserver and etcd (from /proc/<pid>/stat). On a 2-core
// machine the apiserver's CPU is what both sides share, so the split says which side's own
// work is left to cut. Linux only; elsewhere the CPU figures are null.
import { readFileSync } from 'node:fs';
import type { ClusterApi } from '../src/loops/agent/cluster-api.js';

const ticksPerSecond = 100; // USER_HZ on Linux

/** utime+stime (and, with children, cutime+cstime) of a process in ms, or null off Linux. */
function cpuOfPid(pid: number | 'self', children = false): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at state, field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const at = (n: number) => Number(fields[n - 3]);
    const ticks = children ? at(16) + at(17) : at(14) + at(15);
    return (ticks * 1000) / ticksPerSecond;
  } catch {
    return null;
  }
}

export interface CpuSample {
  self: number | null;
  children: number | null;
  servers: (number | null)[];
}

/** CPU time so far of this process, its waited-for children, and the given server processes. */
export function sampleCpu(serverPids: readonly number[]): CpuSample {
  return {
    self: cpuOfPid('self'),
    children: cpuOfPid('self', true),
    servers: serverPids.map((p) => cpuOfPid(p)),
  };
}

export interface CpuSpent {
  selfMs: number | null;
  childrenMs: number | null;
  serversMs: (number | null)[];
}

export function cpuBetween(a: CpuSample, b: CpuSample): CpuSpent {
  const d = (x: number | null, y: number | null) => (x === null || y === null ? null : Math.round(y - x));
  return {
    selfMs: d(a.self, b.self),
    childrenMs: d(a.children, b.children),
    serversMs: a.servers.map((x, i) => d(x, b.servers[i] ?? null)),
  };
}

/** Wall time (ms) during which at least one request of a method was in flight, and the most at once. */
export interface MethodTime {
  calls: number;
  busyMs: number;
  maxInFlight: number;
}

/** Wraps a cluster interface so each method's busy wall time and concurrency are recorded. */
export function timeClusterApi(api: ClusterApi): {
  api: ClusterApi;
  report: () => Record<string, MethodTime>;
} {
  const stats = new Map<string, MethodTime & { inFlight: number; since: number }>();
  const wrapped: Record<string, unknown> = {};
  const any = { inFlight: 0, since: 0, busyMs: 0, calls: 0, maxInFlight: 0 };
  const enter = (s: typeof any) => {
    if (s.inFlight++ === 0) s.since = performance.now();
    s.calls++;
    s.maxInFlight = Math.max(s.maxInFlight, s.inFlight);
  };
  const leave = (s: typeof any) => {
    if (--s.inFlight === 0) s.busyMs += performance.now() - s.since;
  };
  for (const [name, fn] of Object.entries(api) as [string, unknown][]) {
    if (typeof fn !== 'function' || name === 'requestCounts' || name === 'watch') {
      wrapped[name] = fn;
      continue;
    }
    const s = { calls: 0, busyMs: 0, maxInFlight: 0, inFlight: 0, since: 0 };
    stats.set(name, s);
    wrapped[name] = async (...args: unknown[]) => {
      enter(s);
      enter(any);
      try {
        return await (fn as (...a: unknown[]) => Promise<unknown>)(...args);
      } finally {
        leave(s);
        leave(any);
      }
    };
  }
  const report = () => {
    const out: Record<string, MethodTime> = {};
    for (const [name, s] of [...stats, ['any request', any] as const]) {
      if (s.calls > 0)
        out[name] = { calls: s.calls, busyMs: Math.round(s.busyMs), maxInFlight: s.maxInFlight };
    }
    return out;
  };
  return { api: wrapped as unknown as ClusterApi, report };
}
