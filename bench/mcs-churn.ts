// Benchmark: endpoint churn (issue 13, "Endpoint churn is the design risk"). 100 Services
// exported from 3 clusters and imported by 10, Pods restarting continuously; measured: commits
// per minute on the status and cluster branches, repository growth, the hub's and the agents'
// CPU. Each coalescing window given (`--windows`, default 1s and 5s) gets its own measurement in
// the same run, one after the other on the same clusters, hub and repository, so they are read
// side by side. Not a test, and not in `npm run bench`'s default set: it needs three test
// clusters and takes the duration once per window plus the setting up (about 13 min with the
// defaults).
//
//   npx tsc -p tsconfig.json && node build/bench/mcs-churn.js [--duration 5m] [--windows 1s,5s]
//       [--rate 1] [--services 100] [--importers 10] [--hub-interval 1s] [--agent-interval 30s] [--json]
//
// The parts are the real ones: three test clusters from the project's harness (withTestClusters:
// etcd, API server, controller-manager with the endpointslice controller, scheduler, kwok),
// `gitfleet hub` and one `gitfleet agent` per exporting cluster as the processes users start,
// on a local repository with a work tree. The importing clusters have no API server and no
// agent (13 API servers do not run on 2 cores): they are registered as Clusters in the fleet
// repo, and the hub writes their branches, which is what is measured; nobody applies them.
//
// Every Service is exported from all three clusters (Duplicated, 1 replica each: the fake Node
// holds 110 Pods) and imported by every importing cluster. The churn deletes one Pod per
// `1/--rate` seconds across the fleet, the clusters in turn and a random Pod of the chosen
// cluster, as `kubectl delete pod` does; the endpointslice controller rewrites the slice (the
// endpoint terminating, then gone, then the new Pod's, not ready and then ready), kwok finishes
// the old Pod and marks the new one ready. Before each window's measurement the fleet settles:
// the first importing cluster's branch holds every exporter's endpoint of every Service, ready,
// and no branch moved for 5 s. The hub reads status branches at its resync (`--interval`; it
// watches only the source branch), so it runs with 1s as the end-to-end tests do.
//
// Reading the figures: the agents' and the hub's passes per minute, with their median length,
// say what bounds the commit rates. A pass that follows a pass back to back is bounded by its
// own length, not by the window: the drift watch also asks for a pass (500 ms after) when an
// applied Deployment's status changes, which every Pod restart does.
import '../src/cli/size-thread-pool.js';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseInterval } from '../src/cli/parse-interval.js';
import { withTestClusters } from '../test/clusters/harness/with-test-clusters.js';
import type { ApiTarget } from '../test/clusters/harness/api-request.js';
import { formatMachine } from './lib/format-report.js';
import { machineInfo } from './lib/machine.js';
import { withScratchDir } from './lib/scratch-dir.js';
import { formatChurnTable, summarizeWindow, type WindowReading } from './mcs-churn-report.js';
import {
  clusterDoc,
  commitFiles,
  crdPolicy,
  exportedApp,
  git,
  initFleetRepo,
  mcsCrds,
  mcsPolicies,
  namespaceDoc,
} from './mcs-fleet-repo.js';
import { apiTargetOf, deletePod, runningPods } from './mcs-kube.js';
import { agentArgs, hubArgs, passDurations, startGitfleet, type GitfleetProcess } from './mcs-processes.js';
import { branchHeads, commitsBetween, repoSize } from './mcs-refs.js';
import { sleep, waitUntil } from './mcs-wait.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5m' },
    windows: { type: 'string', default: '1s,5s' },
    rate: { type: 'string', default: '1' },
    services: { type: 'string', default: '100' },
    importers: { type: 'string', default: '10' },
    'hub-interval': { type: 'string', default: '1s' },
    'agent-interval': { type: 'string', default: '30s' },
    json: { type: 'boolean', default: false },
  },
});
const durationMs =
  parseInterval(values.duration) ?? usage(`--duration must be like 5m or 60s, not ${values.duration}`);
const windows = values.windows.split(',').map((w) => w.trim());
for (const w of windows) if (parseInterval(w) === undefined) usage(`--windows: ${w} is not like 1s or 500ms`);
for (const flag of ['hub-interval', 'agent-interval'] as const)
  if (parseInterval(values[flag]) === undefined) usage(`--${flag} must be like 1s, not ${values[flag]}`);
const rate = Number(values.rate);
const serviceCount = Number(values.services);
const importerCount = Number(values.importers);
if (!(rate > 0)) usage(`--rate must be a positive number of Pods per second, not ${values.rate}`);
if (!Number.isInteger(serviceCount) || serviceCount < 1 || serviceCount > 100)
  usage(
    `--services must be 1–100 (one Pod each per exporting cluster, whose fake Node holds 110), not ${values.services}`,
  );
if (!Number.isInteger(importerCount) || importerCount < 1) usage(`--importers must be a positive integer`);

const namespace = 'bench-mcs-churn';
const exporters = ['member1', 'member2', 'member3'];
const importers = Array.from(
  { length: importerCount },
  (_, i) => `importer${String(i + 1).padStart(2, '0')}`,
);
const services = Array.from({ length: serviceCount }, (_, i) => `svc${String(i).padStart(3, '0')}`);
const log = (line: string) => process.stderr.write(`[mcs-churn] ${line}\n`);

function fleetFiles(): Record<string, string> {
  return {
    'clusters.yaml': [...exporters, ...importers].map(clusterDoc).join('---\n'),
    'crds.yaml': mcsCrds(),
    'apps/namespace.yaml': namespaceDoc(namespace),
    'apps/services.yaml': services.map((name) => exportedApp({ namespace, name, replicas: 1 })).join('---\n'),
    'policies.yaml': `${crdPolicy(exporters)}---\n${mcsPolicies({ namespace, exporters, importers })}`,
  };
}

/** Returns the ready endpoints the hub wrote into the importing cluster's branch. */
async function readyInBranch(repo: string, cluster: string): Promise<number> {
  const ref = `refs/heads/gitfleet/clusters/${cluster}`;
  const dir = `${namespace}/EndpointSlice.discovery.k8s.io/`;
  const out = await git(repo, ['grep', '-c', 'ready: true', ref, '--', dir]).catch(() => '');
  return out
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(':') + 1)), 0);
}

/** Waits until the first importer sees every endpoint ready and no branch moved for 5 s. */
async function settle(repo: string): Promise<number> {
  const began = performance.now();
  const want = services.length * exporters.length;
  await waitUntil({
    what: `${importers[0]}'s branch to hold ${want} ready endpoints`,
    probe: async () => ((await readyInBranch(repo, importers[0]!)) === want ? true : undefined),
    timeoutMs: 900_000,
    intervalMs: 2000,
  });
  let last = JSON.stringify([...(await branchHeads(repo))]);
  let quietSince = performance.now();
  await waitUntil({
    what: 'no branch to move for 5 s',
    probe: async () => {
      const now = JSON.stringify([...(await branchHeads(repo))]);
      if (now !== last) [last, quietSince] = [now, performance.now()];
      return performance.now() - quietSince >= 5000 ? true : undefined;
    },
    timeoutMs: 300_000,
    intervalMs: 1000,
  });
  return Math.round(performance.now() - began);
}

/** Deletes a Pod every 1/rate s until `untilMs`, the exporting clusters in turn; returns the count. */
async function churn(
  targets: readonly ApiTarget[],
  untilMs: number,
): Promise<{ deleted: number; missed: number }> {
  const periodMs = 1000 / rate;
  const start = performance.now();
  let deleted = 0;
  let missed = 0;
  for (let k = 0; start + k * periodMs < untilMs; k++) {
    const wait = start + k * periodMs - performance.now();
    if (wait > 0) await sleep(wait);
    const target = targets[k % targets.length]!;
    const pods = await runningPods(target, namespace);
    const pod = pods[Math.floor(Math.random() * pods.length)];
    if (pod !== undefined && (await deletePod(target, namespace, pod))) deleted++;
    else missed++;
  }
  return { deleted, missed };
}

async function measureWindow(opts: {
  repo: string;
  dir: string;
  kubeconfig: string;
  hub: GitfleetProcess;
  window: string;
}): Promise<WindowReading> {
  const agents = exporters.map((cluster) =>
    startGitfleet({
      name: `${cluster}-coalesce-${opts.window}`,
      logDir: opts.dir,
      args: agentArgs({
        repo: opts.repo,
        cluster,
        kubeconfig: opts.kubeconfig,
        interval: values['agent-interval'],
        exportCoalesce: opts.window,
      }),
    }),
  );
  try {
    const settleMs = await settle(opts.repo);
    log(`coalesce ${opts.window}: settled after ${settleMs} ms; churning for ${values.duration}`);
    const before = {
      heads: await branchHeads(opts.repo),
      size: await repoSize(opts.repo),
      hubCpu: opts.hub.cpuSeconds(),
      agentCpu: agents.map((a) => a.cpuSeconds()),
      outputMarks: [opts.hub, ...agents].map((p) => p.outputLength()),
      benchCpu: process.cpuUsage(),
      load: machineInfo().loadAverage,
    };
    const began = performance.now();
    const targets = exporters.map((c) => apiTargetOf(opts.kubeconfig, c));
    const pods = await churn(targets, began + durationMs);
    const elapsedMs = performance.now() - began;
    const heads = await branchHeads(opts.repo);
    const bench = process.cpuUsage(before.benchCpu);
    return {
      window: opts.window,
      settleMs,
      elapsedMs,
      pods,
      commits: await commitsBetween(opts.repo, before.heads, heads),
      sizeBefore: before.size,
      sizeAfter: await repoSize(opts.repo),
      hubCpuSeconds: opts.hub.cpuSeconds() - before.hubCpu,
      agentCpuSeconds: Object.fromEntries(
        agents.map((a, i) => [exporters[i]!, a.cpuSeconds() - before.agentCpu[i]!]),
      ),
      benchCpuSeconds: (bench.user + bench.system) / 1e6,
      hubPassMs: passDurations(opts.hub.outputSince(before.outputMarks[0]!)),
      agentPassMs: Object.fromEntries(
        agents.map((a, i) => [exporters[i]!, passDurations(a.outputSince(before.outputMarks[i + 1]!))]),
      ),
      loadBefore: before.load,
      loadAfter: machineInfo().loadAverage,
    };
  } catch (error) {
    for (const p of [opts.hub, ...agents]) log(`--- ${p.name} (${p.logFile})\n${p.tail()}`);
    throw error;
  } finally {
    await Promise.all(agents.map((a) => a.stop()));
  }
}

function usage(message: string): never {
  console.error(message);
  process.exit(2);
}

const machine = machineInfo();
log(`machine: ${formatMachine(machine)}`);
const readings = await withTestClusters({ count: exporters.length }, (env) =>
  withScratchDir('mcs-churn', async (dir) => {
    const repo = join(dir, 'fleet');
    await initFleetRepo(repo);
    await commitFiles(repo, fleetFiles(), `${services.length} Services exported from 3 clusters`);
    const hub = startGitfleet({ name: 'hub', args: hubArgs(repo, values['hub-interval']), logDir: dir });
    try {
      const out: WindowReading[] = [];
      for (const window of windows) {
        const reading = await measureWindow({
          repo,
          dir,
          kubeconfig: env['GITFLEET_TEST_KUBECONFIG']!,
          hub,
          window,
        });
        // Each window's figures as soon as they are in: a later failure does not lose them.
        log(`coalesce ${window}: ${JSON.stringify(summarizeWindow(reading, { exporters, importers }))}`);
        out.push(reading);
      }
      return out;
    } finally {
      await hub.stop();
    }
  }),
);
const parameters = {
  services: services.length,
  exporters: exporters.length,
  importers: importers.length,
  importersHave: 'no API server and no agent: their branches are written by the hub, nobody applies them',
  replicasPerExporter: 1,
  duration: values.duration,
  podDeletionsPerSecond: rate,
  hubInterval: values['hub-interval'],
  agentInterval: values['agent-interval'],
  repository: 'local path (work tree)',
};
const summaries = readings.map((r) => summarizeWindow(r, { exporters, importers }));
const report = {
  scenario: 'mcs-churn',
  parameters,
  machine: { ...machine, loadAverageAtEnd: machineInfo().loadAverage },
  windows: summaries,
};
if (!values.json) {
  console.log(`== mcs-churn: ${JSON.stringify(parameters)}`);
  console.log(formatChurnTable(summaries));
  console.log(`machine: ${formatMachine(machine)}; at the end ${report.machine.loadAverageAtEnd.join(' ')}`);
}
console.log(JSON.stringify(report));
