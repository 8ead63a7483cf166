// The agent's side of bench/agent-apply.ts in a process of its own, so what it costs is the
// agent's alone (in the benchmark's own process, the peak RSS also held kubectl's YAML and the
// manifests both sides were made from): a first pass, then `noops` passes with nothing new, each
// with its wall time, its CPU (this process; the test cluster's apiserver and etcd), its requests,
// and this process's memory after it (peak RSS from /proc/self/status VmHWM, V8's heap in use).
//
//   node build/bench/agent-pass-process.js '<JSON of AgentProcessInput>'   prints AgentProcessReport as JSON
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../src/adapters/kube/kube-client.js';
import { createAgentMemory } from '../src/loops/agent/agent-memory.js';
import { localAgentRepo } from '../src/loops/agent/agent-repo.js';
import { kubeClusterApi } from '../src/loops/agent/kube-cluster-api.js';
import { runAgentPass, type AgentPassResult } from '../src/loops/agent/run-agent-pass.js';
import { systemClock } from '../src/loops/runtime/clock.js';
import { cpuBetween, sampleCpu, timeClusterApi, type CpuSpent, type MethodTime } from './agent-apply-cpu.js';

export interface AgentProcessInput {
  gitdir: string;
  cluster: string;
  kubeconfig: string;
  context: string;
  concurrency: number;
  /** [apiserver, etcd] pids, whose CPU each pass also reports. */
  serverPids: number[];
  /** Passes with nothing new after the first. */
  noops: number;
  /** Talk HTTP/1.1 to the API server instead of HTTP/2. */
  http1: boolean;
}

export interface PassFigures {
  ms: number;
  cpu: CpuSpent;
  requests: AgentPassResult['requests'];
  /** Per ClusterApi method: calls, wall time with one in flight, most in flight. */
  methods: Record<string, MethodTime>;
  fullyApplied: boolean;
  /** This process's peak RSS so far (VmHWM), MiB. */
  peakRssMiB: number;
  /** V8's heap in use right after the pass, MiB. */
  heapUsedMiB: number;
  /**
   * process.memoryUsage() when the RSS was highest during the pass (sampled every 20 ms), MiB:
   * where the peak was (V8's heap, Buffers and other memory outside it, the rest native).
   */
  atPeak: { rss: number; heapTotal: number; heapUsed: number; external: number; arrayBuffers: number };
}

export interface AgentProcessReport {
  first: PassFigures;
  noops: PassFigures[];
  /** What the agent talked to the API server: 'h2' or 'http/1.1'. */
  protocol: string;
}

/** Runs the agent's passes in a child process and returns its figures. */
export function runAgentProcess(input: AgentProcessInput): Promise<AgentProcessReport> {
  const script = fileURLToPath(import.meta.url);
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [script, JSON.stringify(input)],
      { maxBuffer: 1 << 24 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`agent process failed: ${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as AgentProcessReport);
      },
    );
  });
}

/** Per-method figures of one pass: the cumulative ones less those before it. */
export function subtract(
  all: Record<string, MethodTime>,
  before: Record<string, MethodTime>,
): Record<string, MethodTime> {
  const out: Record<string, MethodTime> = {};
  for (const [name, t] of Object.entries(all)) {
    const f = before[name];
    const calls = t.calls - (f?.calls ?? 0);
    if (calls > 0) out[name] = { calls, busyMs: t.busyMs - (f?.busyMs ?? 0), maxInFlight: t.maxInFlight };
  }
  return out;
}

/** Returns VmHWM of this process in MiB (0 off Linux). */
function peakRssMiB(): number {
  try {
    const kib = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kib === undefined ? 0 : Math.round(Number(kib) / 1024);
  } catch {
    return 0;
  }
}

async function main(input: AgentProcessInput): Promise<AgentProcessReport> {
  const kc = new KubeConfig();
  kc.loadFromFile(input.kubeconfig);
  kc.setCurrentContext(input.context);
  const client = KubeClient.fromKubeConfig(kc, { http2: !input.http1 });
  const timedApi = timeClusterApi(kubeClusterApi(client));
  const options = {
    repo: localAgentRepo(input.gitdir),
    client: timedApi.api,
    cluster: input.cluster,
    branchPrefix: 'gitfleet/',
    memory: createAgentMemory(),
    clock: systemClock(),
    identity: { name: 'bench', email: 'bench@example.invalid' },
    guard: { maxDeleteFraction: 0.5, minObjects: 10 },
    allowDeletions: false,
    concurrency: input.concurrency,
    crdTimeoutMs: 60_000,
    factsMaxAgeMs: 30_000,
  };
  const pass = async (): Promise<PassFigures> => {
    const methodsBefore = timedApi.report();
    const cpuBefore = sampleCpu(input.serverPids);
    const start = performance.now();
    let peak = process.memoryUsage();
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      if (now.rss > peak.rss) peak = now;
    }, 20);
    const result = await runAgentPass(options).finally(() => clearInterval(sampler));
    const ms = Math.round(performance.now() - start);
    const mib = (n: number) => Math.round(n / 2 ** 20);
    return {
      ms,
      cpu: cpuBetween(cpuBefore, sampleCpu(input.serverPids)),
      requests: result.requests,
      methods: subtract(timedApi.report(), methodsBefore),
      fullyApplied: result.fullyApplied,
      peakRssMiB: peakRssMiB(),
      heapUsedMiB: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
      atPeak: {
        rss: mib(peak.rss),
        heapTotal: mib(peak.heapTotal),
        heapUsed: mib(peak.heapUsed),
        external: mib(peak.external),
        arrayBuffers: mib(peak.arrayBuffers),
      },
    };
  };
  try {
    const first = await pass();
    const noops: PassFigures[] = [];
    for (let i = 0; i < input.noops; i++) noops.push(await pass());
    return { first, noops, protocol: client.http.protocol() ?? 'none' };
  } finally {
    client.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = await main(JSON.parse(process.argv[2] ?? '{}') as AgentProcessInput);
  process.stdout.write(`${JSON.stringify(report)}\n`);
}
