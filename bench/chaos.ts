// Scenario chaos: the hub and three agents as the loops users start, on three test clusters, for a
// bounded time (30 minutes; --quick 4; GITFLEET_CHAOS_MINUTES overrides), while each cluster's
// agent and API server are stopped and started at random: every 1-3 minutes (per cluster, so
// outages overlap, sometimes on the whole fleet) one fault for 10-60 s: the agent killed with
// SIGKILL or SIGTERM and started again, the agent frozen with SIGSTOP then SIGCONT, or the
// cluster's kube-apiserver stopped and started (etcd keeps the data). The choices come from one
// seed (GITFLEET_CHAOS_SEED, printed), so a run can be repeated.
//
// Every 3 s the scenario reads each tracked object's uid on each reachable cluster. At the end it
// restores everything and waits until every cluster reports its branch head applied, then says:
// - how often each object was deleted and recreated per cluster; 0 is the bar for what the fleet
//   keeps placed everywhere (the CRD, its custom resource, the Service, the ConfigMap, the
//   Namespace) and for the Widget the fleet does not own (it dies only with its CRD);
// - every hub or agent process that exited without being told to (there must be none);
// - whether and when the fleet converged.
// The scenario fails when any of those does not hold.
import { apiRequest } from '../test/clusters/harness/api-request.js';
import { withTestClusters, type TestClusters } from '../test/clusters/harness/with-test-clusters.js';
import { failoverAgentArgs, failoverHubArgs, fleetRepo, minutes } from '../test/e2e/failover-fleet.js';
import { git, removeTempDirs } from '../test/git-server/git-cli.js';
import { startFleet, type RunningFleet } from '../test/support/running-fleet.js';
import { chaosClusters, chaosFleet, foreignWidget, trackedObjects, chaosNamespace } from './chaos-fleet.js';
import { CopyTracker, type Reading } from './chaos-watch.js';
import { seededRandom, type SeededRandom } from './lib/seeded-random.js';
import { failed, type Scenario, type ScenarioReport } from './lib/report.js';

type Fault = 'agent-sigkill' | 'agent-sigterm' | 'agent-sigstop' | 'api-server-stop';
const faults: readonly Fault[] = ['agent-sigkill', 'agent-sigterm', 'agent-sigstop', 'api-server-stop'];

/** One fault as it happened. */
interface FaultRecord {
  cluster: string;
  fault: Fault;
  atS: number;
  downS: number;
}

/** The chaos scenario (three test clusters; 30 minutes by default). */
export const chaosScenario: Scenario = {
  name: 'chaos',
  summary: 'hub + 3 agents as loops while agents and API servers stop and start at random (seeded)',
  run: async (opts): Promise<ScenarioReport> => {
    const durationMin = Number(process.env['GITFLEET_CHAOS_MINUTES'] ?? (opts.quick ? 4 : 30));
    const seed = Number(process.env['GITFLEET_CHAOS_SEED'] ?? Date.now() % 2 ** 31);
    const parameters = {
      clusters: 3,
      durationMin,
      seed,
      hub: failoverHubArgs.join(' '),
      agent: failoverAgentArgs.join(' '),
    };
    opts.log(`chaos: ${durationMin} min, seed ${seed}`);
    try {
      return await withTestClusters({ count: 3 }, (env, clusters) =>
        runChaos({
          env,
          clusters,
          durationMs: minutes(durationMin),
          random: seededRandom(seed),
          log: opts.log,
          parameters,
        }),
      );
    } catch (err) {
      return { ...failed('chaos', String((err as Error).message).split('\n')[0]), parameters };
    } finally {
      removeTempDirs();
    }
  },
};

interface ChaosInput {
  env: Record<string, string>;
  clusters: TestClusters;
  durationMs: number;
  random: SeededRandom;
  log: (line: string) => void;
  parameters: Record<string, unknown>;
}

async function runChaos(input: ChaosInput): Promise<ScenarioReport> {
  const { clusters, log } = input;
  for (const c of chaosClusters)
    await createObject(clusters, c, '/api/v1/namespaces', namespaceOf('gitfleet-system'));
  const { repo, commit } = await fleetRepo('chaos-repo');
  await commit(chaosFleet(), 'chaos fleet');
  const fleet = startFleet(repo, chaosClusters, input.env['GITFLEET_TEST_KUBECONFIG']!, {
    hub: failoverHubArgs,
    agent: failoverAgentArgs,
    agentLease: true,
  });
  const began = Date.now();
  const down = new Set<string>();
  const tracker = new CopyTracker();
  const restarts: { name: string; atS: number }[] = [];
  try {
    const first = await waitConverged({ repo, clusters, down, timeoutMs: minutes(6) });
    if (!first.converged) throw new Error(`the fleet did not converge before the faults: ${first.why}`);
    log(`chaos: converged after ${Math.round((Date.now() - began) / 1000)} s; faults start`);
    for (const c of chaosClusters)
      await createObject(
        clusters,
        c,
        `/apis/chaos.example.com/v1/namespaces/${chaosNamespace}/widgets`,
        foreignWidget,
      );
    const t0 = Date.now();
    const end = t0 + input.durationMs;
    const stopWatching = watchCopies({ clusters, down, tracker, t0, fleet, restarts });
    const records: FaultRecord[] = [];
    await Promise.all(
      chaosClusters.map((c) =>
        faultTimeline({ cluster: c, fleet, clusters, down, random: input.random, end, t0, records, log }),
      ),
    );
    log(
      `chaos: faults over after ${Math.round((Date.now() - t0) / 1000)} s; waiting for the fleet to converge`,
    );
    const settleBegan = Date.now();
    const last = await waitConverged({ repo, clusters, down, timeoutMs: minutes(10) });
    await sleep(6_000); // two more readings of every copy after convergence
    stopWatching();
    return chaosReport({
      input,
      records,
      tracker,
      restarts,
      unexpected: fleet.unexpectedExits(),
      converged: last,
      settleS: Math.round((Date.now() - settleBegan) / 1000),
      bindingsCommits: Number(
        (await git(repo, ['rev-list', '--count', 'refs/heads/gitfleet/bindings'])).trim(),
      ),
    });
  } finally {
    await fleet.stop().catch((err: unknown) => log(`chaos: stopping the fleet: ${String(err)}`));
  }
}

/** Runs one cluster's faults until `end`: a pause of 1-3 minutes, then one fault for 10-60 s. */
async function faultTimeline(opts: {
  cluster: string;
  fleet: RunningFleet;
  clusters: TestClusters;
  down: Set<string>;
  random: SeededRandom;
  end: number;
  t0: number;
  records: FaultRecord[];
  log: (line: string) => void;
}): Promise<void> {
  const { cluster, fleet, random } = opts;
  for (;;) {
    const pauseMs = random.between(60, 180) * 1000;
    const fault = random.pick(faults);
    const downS = random.between(10, 60);
    if (Date.now() + pauseMs >= opts.end) return;
    await sleep(pauseMs);
    const atS = Math.round((Date.now() - opts.t0) / 1000);
    opts.log(`chaos: ${atS} s: ${cluster} ${fault} for ${downS} s`);
    opts.records.push({ cluster, fault, atS, downS });
    if (fault === 'api-server-stop') {
      opts.down.add(cluster);
      await opts.clusters.stopApiServer(cluster);
      await sleep(downS * 1000);
      await opts.clusters.startApiServer(cluster);
      opts.down.delete(cluster);
    } else if (fault === 'agent-sigstop') {
      await fleet.signal(cluster, 'SIGSTOP');
      await sleep(downS * 1000);
      await fleet.signal(cluster, 'SIGCONT');
    } else {
      opts.down.add(`agent:${cluster}`);
      await fleet.signal(cluster, fault === 'agent-sigkill' ? 'SIGKILL' : 'SIGTERM');
      await sleep(downS * 1000);
      fleet.startAgent(cluster);
      opts.down.delete(`agent:${cluster}`);
    }
  }
}

/** Reads every tracked copy every 3 s, and starts again a process that died on its own; returns the stop. */
function watchCopies(opts: {
  clusters: TestClusters;
  down: Set<string>;
  tracker: CopyTracker;
  t0: number;
  fleet: RunningFleet;
  restarts: { name: string; atS: number }[];
}): () => void {
  let stopped = false;
  const round = async () => {
    for (const name of ['hub', ...chaosClusters]) {
      if (opts.fleet.running(name) || opts.down.has(`agent:${name}`) || name === 'hub') continue;
      opts.restarts.push({ name, atS: Math.round((Date.now() - opts.t0) / 1000) });
      opts.fleet.startAgent(name);
    }
    for (const cluster of chaosClusters) {
      if (opts.down.has(cluster)) continue;
      for (const object of trackedObjects) {
        const reading = await readCopy(opts.clusters, cluster, object.path);
        opts.tracker.see(cluster, object, reading, Date.now() - opts.t0);
      }
    }
  };
  const loop = async () => {
    while (!stopped) {
      await round().catch(() => undefined);
      await sleep(3_000);
    }
  };
  void loop();
  return () => {
    stopped = true;
  };
}

async function readCopy(clusters: TestClusters, cluster: string, path: string): Promise<Reading> {
  const answer = await apiRequest(clusters.target(cluster), { method: 'GET', path, timeoutMs: 3_000 });
  if (answer.status === 404) return { type: 'Absent' };
  if (answer.status !== 200) return { type: 'Unknown' };
  const uid = (JSON.parse(answer.body) as { metadata?: { uid?: string } }).metadata?.uid;
  return uid === undefined ? { type: 'Unknown' } : { type: 'Present', uid };
}

/** Whether every cluster reports its branch head applied and holds every object the fleet keeps placed. */
async function waitConverged(opts: {
  repo: string;
  clusters: TestClusters;
  down: Set<string>;
  timeoutMs: number;
}): Promise<{ converged: boolean; why: string }> {
  const deadline = Date.now() + opts.timeoutMs;
  let why = 'not checked';
  while (Date.now() < deadline) {
    why = await notConverged(opts.repo, opts.clusters);
    if (why === '') return { converged: true, why: '' };
    await sleep(2_000);
  }
  return { converged: false, why };
}

/** Says why the fleet has not converged, or '' when it has. */
async function notConverged(repo: string, clusters: TestClusters): Promise<string> {
  let replicas = 0;
  for (const cluster of chaosClusters) {
    const head = await revParse(repo, `refs/heads/gitfleet/clusters/${cluster}`);
    const status = await git(repo, [
      'log',
      '-1',
      '--format=%B',
      `refs/heads/gitfleet/status/${cluster}`,
    ]).catch(() => '');
    const applied = /^Gitfleet-Applied-Commit: (\S+)/m.exec(status)?.[1];
    if (head === undefined || applied !== head)
      return `${cluster}: applied ${applied ?? 'nothing'}, branch at ${head ?? 'none'}`;
    for (const object of trackedObjects.filter((o) => o.kind === 'always')) {
      const reading = await readCopy(clusters, cluster, object.path);
      if (reading.type !== 'Present') return `${cluster}: ${object.name} ${reading.type}`;
    }
    const web = await apiRequest(clusters.target(cluster), {
      method: 'GET',
      path: trackedObjects.find((o) => o.kind === 'workload')!.path,
      timeoutMs: 3_000,
    });
    if (web.status === 200)
      replicas += (JSON.parse(web.body) as { spec?: { replicas?: number } }).spec?.replicas ?? 1;
  }
  return replicas === 6 ? '' : `Deployment/chaos/web: ${replicas} replicas over the fleet, want 6`;
}

function chaosReport(opts: {
  input: ChaosInput;
  records: FaultRecord[];
  tracker: CopyTracker;
  restarts: { name: string; atS: number }[];
  unexpected: ReturnType<RunningFleet['unexpectedExits']>;
  converged: { converged: boolean; why: string };
  settleS: number;
  bindingsCommits: number;
}): ScenarioReport {
  const histories = opts.tracker.histories();
  const sum = (kind: string, key: 'deletions' | 'recreations') =>
    histories.filter((h) => h.kind === kind).reduce((n, h) => n + h[key], 0);
  const kept = { deletions: sum('always', 'deletions'), recreations: sum('always', 'recreations') };
  const foreign = { deletions: sum('foreign', 'deletions') };
  const workload = { deletions: sum('workload', 'deletions'), recreations: sum('workload', 'recreations') };
  const problems = [
    ...(kept.deletions > 0 ? [`${kept.deletions} deletions of objects the fleet kept placed`] : []),
    ...(foreign.deletions > 0 ? [`${foreign.deletions} deletions of the foreign Widget`] : []),
    ...(opts.unexpected.length > 0
      ? [
          `${opts.unexpected.length} processes died: ${opts.unexpected.map((u) => `${u.name} (${u.code ?? u.signal})`).join(', ')}`,
        ]
      : []),
    ...(opts.converged.converged ? [] : [`not converged: ${opts.converged.why}`]),
  ];
  const note =
    `${opts.records.length} faults; placed everywhere: ${kept.deletions} deleted, ${kept.recreations} recreated; ` +
    `foreign: ${foreign.deletions} deleted; evictable Deployment: ${workload.deletions} deleted, ${workload.recreations} recreated; ` +
    `${opts.unexpected.length} processes died; ${opts.converged.converged ? `converged ${opts.settleS} s after the last fault` : 'NOT converged'}; ` +
    `${opts.bindingsCommits} bindings commits`;
  return {
    scenario: 'chaos',
    status: problems.length === 0 ? 'ran' : 'failed',
    note: problems.length === 0 ? note : `${problems.join('; ')} (${note})`,
    parameters: opts.input.parameters,
    contenders: [],
    ratios: [],
    details: {
      faults: opts.records,
      copies: histories.filter((h) => h.deletions > 0 || h.recreations > 0),
      unexpectedExits: opts.unexpected.map((u) => ({ ...u, output: u.output.slice(-1500) })),
      restarts: opts.restarts,
    },
  };
}

async function createObject(
  clusters: TestClusters,
  cluster: string,
  path: string,
  body: unknown,
): Promise<void> {
  const answer = await apiRequest(clusters.target(cluster), {
    method: 'POST',
    path,
    body,
    timeoutMs: 10_000,
  });
  if (answer.status !== 201 && answer.status !== 409)
    throw new Error(`${cluster}: POST ${path}: ${answer.status} ${answer.body.slice(0, 300)}`);
}

const namespaceOf = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

async function revParse(repo: string, ref: string): Promise<string | undefined> {
  return (await git(repo, ['rev-parse', '--verify', '-q', ref]).catch(() => '')).trim() || undefined;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
