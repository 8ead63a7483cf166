// Benchmark: the agent's first apply of 1,000 objects (ConfigMaps and some Deployments) to one
// real test cluster, and a pass with nothing new, against `kubectl apply --server-side` of the
// same manifests to the same API server in the same run (each side in its own namespace).
// Not a test: the figures go to the README.
//
//   eval "$(npm run --silent clusters -- env)"
//   npx tsc -p tsconfig.json && node build/bench/agent-apply.js [--objects 1000] [--deployments 50] [--rounds 1] [--concurrency 64] [--http1] [--json]
//
// Rounds alternate which side goes first (round 1 kubectl, round 2 the agent, ...), so neither
// always meets a warmer or a more crowded server. Each round also says where the time went
// (agent-apply-cpu.ts): the CPU of the agent, of kubectl and of the apiserver and etcd during
// each side's first apply, and per request kind the wall time with requests in flight.
//
// Reported per round: wall time of the first apply and of the no-op pass for both, and the
// agent's requests in each pass (mutating ones counted apart: the target for the no-op pass
// is 0). The agent's passes run in a process of their own (agent-pass-process.ts), whose peak
// RSS and heap are the agent's alone; `--noops N` runs N no-op passes after the first apply. The agent's pass is the whole pass (read the branch, inventory, staged apply, prune,
// health, cluster facts, status commit); kubectl's is one `kubectl apply` process.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { KubeConfig } from '@kubernetes/client-node';
import { buildTreeFromScratch } from '../src/adapters/git/build-tree-from-scratch.js';
import { toGitObject } from '../src/adapters/git/hash-object.js';
import { makeCommit } from '../src/adapters/git/make-commit.js';
import { updateRefs } from '../src/adapters/git/update-ref.js';
import { writeObjects } from '../src/adapters/git/write-objects.js';
import { KubeClient } from '../src/adapters/kube/kube-client.js';
import { inventoryName, inventoryNamespace } from '../src/core/apply-plan/agent-keys.js';
import type { KubeObject } from '../src/core/model/kube-object.js';
import { emitYaml } from '../src/core/format/emit-yaml.js';
import { objectPath } from '../src/core/format/object-path.js';
import { defaultApplyConcurrency } from '../src/loops/agent/apply-staged.js';
import { clusterBranchRef } from '../src/loops/agent/agent-repo.js';
import type { AgentPassResult } from '../src/loops/agent/run-agent-pass.js';
import { cpuBetween, sampleCpu, type CpuSpent, type MethodTime } from './agent-apply-cpu.js';
import { runAgentProcess, type AgentProcessReport, type PassFigures } from './agent-pass-process.js';
import { serverPidsOf } from './lib/server-pids.js';

const { values } = parseArgs({
  options: {
    objects: { type: 'string', default: '1000' },
    deployments: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '1' },
    context: { type: 'string', default: 'member1' },
    concurrency: { type: 'string', default: String(defaultApplyConcurrency) },
    /** No-op passes after the first apply (the first of them is the round's no-op figure). */
    noops: { type: 'string', default: '1' },
    /** Talk HTTP/1.1 to the API server instead of HTTP/2 (to compare the two). */
    http1: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const total = Number(values.objects);
if (!(Number(values.noops) >= 1)) {
  console.error('--noops: at least 1');
  process.exit(2);
}
const deployments = Number(values.deployments);
const kubeconfig = process.env['GITFLEET_TEST_KUBECONFIG'];
const bin = process.env['GITFLEET_K8S_BIN'];
if (!kubeconfig || !bin) {
  console.error(
    'set GITFLEET_TEST_KUBECONFIG and GITFLEET_K8S_BIN: eval "$(npm run --silent clusters -- env)"',
  );
  process.exit(2);
}

/** The namespace and `total` objects in it: `deployments` Deployments, the rest ConfigMaps. */
function manifests(namespace: string): KubeObject[] {
  const objects: KubeObject[] = [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }];
  for (let i = 0; i < total; i++) {
    const name = `obj-${String(i).padStart(4, '0')}`;
    if (i < deployments) {
      objects.push({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name, namespace, labels: { app: name } },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: name } },
          template: {
            metadata: { labels: { app: name } },
            spec: { containers: [{ name: 'app', image: 'registry.invalid/app:1' }] },
          },
        },
      });
    } else {
      objects.push({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, namespace },
        data: { index: String(i), text: 'x'.repeat(200) },
      });
    }
  }
  return objects;
}

function kubectl(args: string[]): void {
  execFileSync(join(bin!, 'kubectl'), ['--kubeconfig', kubeconfig!, '--context', values.context!, ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
    maxBuffer: 1 << 26,
  });
}

function timed(fn: () => void): number {
  const start = performance.now();
  fn();
  return Math.round(performance.now() - start);
}

async function commitBranch(gitdir: string, cluster: string, objects: readonly KubeObject[]): Promise<void> {
  const files = new Map<string, string>();
  const blobs = objects.map((o) => {
    const blob = toGitObject('blob', Buffer.from(emitYaml(o), 'utf8'));
    files.set(
      objectPath({
        apiVersion: o.apiVersion,
        kind: o.kind,
        namespace: o.metadata.namespace ?? '',
        name: o.metadata.name,
      }),
      blob.oid,
    );
    return blob;
  });
  const tree = buildTreeFromScratch(files);
  const author = { name: 'bench', email: 'bench@example.invalid', time: 1_700_000_000, tzOffsetMinutes: 0 };
  const commit = makeCommit({ tree: tree.root, parents: [], author, message: 'render: bench\n' });
  await writeObjects({ gitdir, objects: [...blobs, ...tree.newObjects, commit] });
  await updateRefs({
    gitdir,
    updates: [{ ref: clusterBranchRef('gitfleet/', cluster), newOid: commit.oid, expectedOld: null }],
  });
}

interface Round {
  order: 'kubectl first' | 'agent first';
  kubectl: { firstMs: number; noopMs: number; firstCpu: CpuSpent };
  agent: {
    firstCpu: CpuSpent;
    firstRequests: Record<string, MethodTime>;
    noopRequests: Record<string, MethodTime>;
    /** Peak RSS of the agent's own process (VmHWM), MiB. */
    maxRssMiB: number;
    firstMs: number;
    noopMs: number;
    first: AgentPassResult['requests'];
    noop: AgentPassResult['requests'];
    fullyApplied: boolean;
    /** Every pass of the agent's process: the first, then each no-op (`--noops`). */
    process: AgentProcessReport;
    /** What the agent talked to the API server: 'h2' or 'http/1.1'. */
    protocol: string;
  };
}

async function round(index: number): Promise<Round> {
  const tag = `${process.pid}-${index}`;
  const dir = mkdtempSync(join(tmpdir(), 'gitfleet-bench-agent-'));
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig!);
  kc.setCurrentContext(values.context!);
  const client = KubeClient.fromKubeConfig(kc, { http2: !values.http1 });
  const cluster = `bench-${tag}`;
  const kubectlNs = `bench-kubectl-${tag}`;
  const agentNs = `bench-agent-${tag}`;
  try {
    const file = join(dir, 'all.yaml');
    writeFileSync(
      file,
      manifests(kubectlNs)
        .map((o) => emitYaml(o))
        .join('---\n'),
    );
    const kubectlSide = () => {
      const before = sampleCpu(serverPids);
      const firstMs = timed(() => kubectl(['apply', '--server-side', '--field-manager=bench', '-f', file]));
      const firstCpu = cpuBetween(before, sampleCpu(serverPids));
      const noopMs = timed(() => kubectl(['apply', '--server-side', '--field-manager=bench', '-f', file]));
      return { firstMs, noopMs, firstCpu };
    };
    const kubectlFirst = index % 2 === 0;
    const kubectlResult = kubectlFirst ? kubectlSide() : undefined;

    const gitdir = join(dir, 'repo.git');
    execFileSync('git', ['init', '-q', '--bare', gitdir]);
    await commitBranch(gitdir, cluster, manifests(agentNs));
    const agent = await runAgentProcess({
      gitdir,
      cluster,
      kubeconfig: kubeconfig!,
      context: values.context!,
      concurrency: Number(values.concurrency),
      serverPids,
      noops: Number(values.noops),
      http1: values.http1,
    });
    const noop = agent.noops[0]!;
    return {
      order: kubectlFirst ? 'kubectl first' : 'agent first',
      kubectl: kubectlResult ?? kubectlSide(),
      agent: {
        firstCpu: agent.first.cpu,
        firstRequests: agent.first.methods,
        noopRequests: noop.methods,
        maxRssMiB: Math.max(...agent.noops.map((n) => n.peakRssMiB), agent.first.peakRssMiB),
        firstMs: agent.first.ms,
        noopMs: noop.ms,
        first: agent.first.requests,
        noop: noop.requests,
        fullyApplied: agent.first.fullyApplied && agent.noops.every((n) => n.fullyApplied),
        process: agent,
        protocol: agent.protocol,
      },
    };
  } finally {
    for (const ns of [kubectlNs, agentNs])
      kubectl(['delete', 'namespace', ns, '--ignore-not-found', '--wait=false']);
    await client.delete({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespace: inventoryNamespace,
      name: inventoryName(cluster),
    });
    client.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const cpuText = (c: CpuSpent, own: 'self' | 'children') =>
  `${own === 'self' ? 'agent' : 'kubectl'} ${(own === 'self' ? c.selfMs : c.childrenMs) ?? '?'} ms, ` +
  `apiserver ${c.serversMs[0] ?? '?'} ms, etcd ${c.serversMs[1] ?? '?'} ms`;

const serverPids = serverPidsOf(kubeconfig, values.context!);
const rounds: Round[] = [];
for (let i = 0; i < Number(values.rounds); i++) rounds.push(await round(i));
const machine = {
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model.trim(),
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  load: loadavg().map((l) => l.toFixed(2)),
};
if (values.json) {
  console.log(
    JSON.stringify(
      { objects: total, deployments, concurrency: Number(values.concurrency), machine, rounds },
      null,
      2,
    ),
  );
} else {
  console.log(
    `agent apply: ${total} objects (${deployments} Deployments, ${total - deployments} ConfigMaps) + 1 Namespace, one test cluster`,
  );
  console.log(
    `machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, load ${machine.load.join(' ')}`,
  );
  for (const [i, r] of rounds.entries()) {
    console.log(`round ${i + 1} (${r.order}):`);
    console.log(
      `  kubectl apply --server-side  first ${r.kubectl.firstMs} ms   no-op ${r.kubectl.noopMs} ms`,
    );
    console.log(
      `  gitfleet agent pass          first ${r.agent.firstMs} ms   no-op ${r.agent.noopMs} ms   ` +
        `(first: ${r.agent.first.total} requests, ${r.agent.first.mutating} mutating; no-op: ${r.agent.noop.total} requests, ${r.agent.noop.mutating} mutating, ${r.agent.noop.dryRun} dry-run)`,
    );
    console.log(
      `  first apply: agent ${(r.kubectl.firstMs / r.agent.firstMs).toFixed(2)}× faster than kubectl; fully applied: ${r.agent.fullyApplied}; over ${r.agent.protocol}; agent process max RSS ${r.agent.maxRssMiB} MiB`,
    );
    console.log(`  CPU in the first apply: kubectl side: ${cpuText(r.kubectl.firstCpu, 'children')}`);
    console.log(`                          agent side:   ${cpuText(r.agent.firstCpu, 'self')}`);
    const busy = (t: Record<string, MethodTime>) =>
      Object.entries(t)
        .map(([n, m]) => `${n} ${m.calls}× ${m.busyMs} ms (≤${m.maxInFlight} in flight)`)
        .join('; ');
    console.log(`  agent requests in flight, first: ${busy(r.agent.firstRequests)}`);
    console.log(`  agent requests in flight, no-op: ${busy(r.agent.noopRequests)}`);
    const figures = (f: PassFigures) =>
      `${f.ms} ms (CPU ${f.cpu.selfMs ?? '?'} ms, apiserver ${f.cpu.serversMs[0] ?? '?'} ms; ${f.requests.total} requests, ${f.requests.mutating} mutating; peak RSS ${f.peakRssMiB} MiB, heap ${f.heapUsedMiB} MiB; at the pass's peak: rss ${f.atPeak.rss}, heap ${f.atPeak.heapUsed}/${f.atPeak.heapTotal}, external ${f.atPeak.external} (array buffers ${f.atPeak.arrayBuffers}) MiB)`;
    console.log(`  agent process, first pass: ${figures(r.agent.process.first)}`);
    for (const [n, f] of r.agent.process.noops.entries())
      console.log(`  agent process, no-op ${n + 1}:   ${figures(f)}`);
  }
}
