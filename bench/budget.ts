// Scenario budget: a fleet of simulated clusters living within GitHub's budget (issue 28,
// docs/git-budget.md#measured). The forge emulator (test/git-server/start-forge.ts: git's
// http-backend behind a per-repository budget, 15 reads in any second and 6 pushes in any
// minute, answering 429 past them) serves the fleet repository and the status repositories
// `gitfleet budget --doorbell --status-lag` advises; the hub runs as users run it (`gitfleet hub
// --forge github --notify-addr … --webhook-port …`), and the agents run their own loop, wired as
// `gitfleet agent --notify-url … --forge github` wires it, many to a process, each on an
// in-memory cluster (bench/lib/budget-agents.ts). Three stretches are measured:
//
//   startup   the agents start together: until every cluster applied its branch and its first
//             status reached the host;
//   push      one source push (and the webhook GitHub would send): push → applied for every
//             cluster (the ConfigMap's value in its cluster), and until every status said so;
//   idle      what the fleet costs with nothing changing.
//
// Per repository: reads a second and pushes a minute (on average, and the busiest window the
// forge judges), and its 429 answers; push → applied P50/P99 over the clusters.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, makeServedRepo } from '../test/git-server/git-cli.js';
import { startForge, type ForgeEvent } from '../test/git-server/start-forge.js';
import { freePorts } from '../test/clusters/harness/free-ports.js';
import type { BudgetAgentsSettings } from './lib/budget-agents.js';
import { budgetAdvice } from './lib/budget-advice.js';
import { cpuSampler, cpuShare, describeCpu } from './lib/budget-cpu.js';
import { budgetConfigMap, budgetFleetFiles, clusterNames } from './lib/budget-fleet.js';
import { githubAgentTiming, pushAsAPerson, startAgents, type Events } from './lib/budget-processes.js';
import { measureStretches, modelBeside, seconds, type Stretch } from './lib/budget-report.js';
import { backgroundNice, backgroundToken, observedClusters, observedFigures } from './lib/budget-observed.js';
import { startGitfleet } from './mcs-processes.js';
import type { Scenario, ScenarioReport } from './lib/report.js';

const tracing = process.env['GITFLEET_BENCH_TRACE'] !== undefined;

/** The size of a run. */
export interface BudgetShape {
  clusters: number;
  /** The longest a status may wait for its slot: sets how many status repositories (`budget --status-lag`). */
  statusLagSeconds: number;
  /** The last agent's wait for its turn to fetch after a push: sets how many render repositories (`budget --fetch-spread`). */
  fetchSpreadSeconds: number;
  agentProcesses: number;
  idleMs: number;
  /** The longest wait for each stretch's goal: the run then reports what it reached. */
  waitMs: number;
  /** The longest the whole run may wait, from the forge's start: past it every wait gives up and the run reports what it reached. */
  deadlineMs: number;
  /** The longest wait for the statuses of a stretch once its applies are in (default: waitMs and the status lag). */
  statusWaitMs?: number;
  /**
   * The agents' safety poll (default: the github profile's 5 min). Shorter, a run of a few
   * minutes sees what each agent's first safety poll after the source push costs.
   */
  safetyPollMs?: number;
  /** Agents run at normal priority, spread over the clusters, the others niced (bench/lib/budget-observed.ts); 0: none. */
  observed?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for `check`; returns false (and logs) when `timeoutMs` passed first: the run reports what it has. */
async function until(
  what: string,
  check: () => boolean,
  timeoutMs: number,
  log: (l: string) => void,
): Promise<boolean> {
  const start = Date.now();
  let said = 0;
  while (!check()) {
    if (Date.now() - start > timeoutMs) {
      log(`budget: gave up after ${timeoutMs / 1000} s waiting for ${what}`);
      return false;
    }
    if (Date.now() - said > 30_000) {
      log(`budget: waiting for ${what} (${Math.round((Date.now() - start) / 1000)} s)`);
      said = Date.now();
    }
    await sleep(250);
  }
  return true;
}

/** Runs the scenario once at the given shape; returns the report's details. */
export async function runBudgetBench(shape: BudgetShape, log: (line: string) => void) {
  const root = mkdtempSync(join(tmpdir(), 'gitfleet-bench-budget-'));
  const deadline = Date.now() + shape.deadlineMs;
  const left = (ms: number) => Math.max(0, Math.min(ms, deadline - Date.now()));
  const events: ForgeEvent[] = [];
  // GITFLEET_BENCH_TRACE=1 (with GITFLEET_BENCH_KEEP=1): every answer and how long it took, in `forge.events`.
  const answers: string[] = [];
  const forge = await startForge({
    root: join(root, 'served'),
    budget: { readsPerSecond: 15, readWindowMs: 1000, pushesPerMinute: 6 },
    onRequest: (e) => void events.push(e),
    ...(shape.observed ? { background: { token: backgroundToken, nice: backgroundNice } } : {}),
    ...(tracing
      ? { onAnswered: (e: ForgeEvent & { ms: number }) => void answers.push(JSON.stringify(e)) }
      : {}),
  });
  const processes: { stop: () => Promise<void> }[] = [];
  try {
    mkdirSync(join(root, 'served'), { recursive: true });
    const clusters = clusterNames(shape.clusters);
    const work = join(root, 'work');
    mkdirSync(work);
    await git(work, ['-c', 'init.defaultBranch=main', 'init', '-q']);
    // As `gitfleet budget` advises for the github profile with the doorbell at this size.
    const advice = budgetAdvice({
      repo: work,
      clusters: shape.clusters,
      statusLagSeconds: shape.statusLagSeconds,
      fetchSpreadSeconds: shape.fetchSpreadSeconds,
    });
    makeServedRepo(join(root, 'served'), 'fleet.git');
    const served = (kind: string, count: number) =>
      Array.from({ length: count }, (_, k) => {
        makeServedRepo(join(root, 'served'), `${kind}-${k + 1}.git`);
        return forge.url(`${kind}-${k + 1}.git`);
      });
    const statusUrls = served('status', advice.statusRepositories);
    const renderUrls = served('render', advice.renderRepositories);
    log(
      `budget: ${shape.clusters} clusters, ${advice.statusRepositories} status and ${advice.renderRepositories} render repositories (${advice.command})`,
    );
    const write = (files: Record<string, string>) => {
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(join(work, path, '..'), { recursive: true });
        writeFileSync(join(work, path), text);
      }
    };
    write(budgetFleetFiles({ clusters, statusUrls, renderUrls, value: '0' }));
    await git(work, ['add', '-A']);
    await git(work, [
      '-c',
      'user.name=bench',
      '-c',
      'user.email=bench@example.com',
      'commit',
      '-qm',
      'fleet',
    ]);
    await git(work, ['push', '-q', forge.url('fleet.git'), 'HEAD:main']);

    const tokens = Object.fromEntries(clusters.map((c) => [c, `token-${c}`]));
    writeFileSync(join(root, 'tokens.yaml'), clusters.map((c) => `${c}: ${tokens[c]}\n`).join(''));
    writeFileSync(join(root, 'webhook-secret'), 'bench-secret\n');
    const [notifyPort, webhookPort] = (await freePorts(2)) as [number, number];
    // GITFLEET_BENCH_HUB_PROFILE=<dir>: the hub's CPU profile, written there when it stops.
    const profile = process.env['GITFLEET_BENCH_HUB_PROFILE'];
    const hub = startGitfleet({
      name: 'hub',
      logDir: root,
      ...(profile ? { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profile] } : {}),
      args: [
        ...[
          'hub',
          '--repo',
          forge.url('fleet.git'),
          '--forge',
          'github',
          '--cache-dir',
          join(root, 'hub-cache'),
        ],
        ...['--notify-addr', `127.0.0.1:${notifyPort}`, '--notify-tokens', join(root, 'tokens.yaml')],
        ...['--webhook-port', String(webhookPort), '--webhook-secret-file', join(root, 'webhook-secret')],
      ],
    });
    processes.push(hub);
    const hubSaid = (pattern: RegExp) => {
      try {
        // The whole log: a render lists every cluster, so at 1,000 its first line is 1,000 back.
        return pattern.test(hub.tail(Number.MAX_SAFE_INTEGER));
      } catch {
        return false; // no output yet
      }
    };
    if (!(await until('the hub to render', () => hubSaid(/rendered refs\/heads\/main/), left(600_000), log)))
      throw new Error(`the hub did not render: ${hub.tail(20)}`);

    const got: Events = { applied: new Map(), status: new Map() };
    const settings = (part: string[]): BudgetAgentsSettings => ({
      url: forge.url('fleet.git'),
      notifyUrl: `http://127.0.0.1:${notifyPort}`,
      clusters: part,
      tokens,
      workDir: join(root, `agents-${part[0]}`),
      branchPrefix: 'gitfleet/',
      ...githubAgentTiming(),
      ...(shape.safetyPollMs !== undefined ? { safetyPollMs: shape.safetyPollMs } : {}),
      watched: { namespace: 'shop', name: 'web' },
    });
    const agentPids: number[] = [];
    const sampleCpu = cpuSampler(() => ({ hub: hub.pid, agents: agentPids }));
    const startedAt = Date.now();
    const startCpu = sampleCpu();
    const observed = observedClusters(clusters, shape.observed ?? 0);
    const background = observed.size > 0 ? { gitToken: backgroundToken } : {};
    const rest = clusters.filter((c) => !observed.has(c));
    const parts = Array.from({ length: shape.agentProcesses }, (_, p) =>
      rest.filter((_, k) => k % shape.agentProcesses === p),
    );
    for (const [p, part] of [[...observed], ...parts].entries()) {
      if (part.length === 0) continue;
      const [nice, wire] = p === 0 ? [0, {}] : [observed.size > 0 ? backgroundNice : 0, background];
      const agents = startAgents({ ...settings(part), ...wire }, got, join(root, `agents-${p}.log`), nice);
      processes.push(agents);
      agentPids.push(agents.pid);
    }
    const all = (map: Map<string, Map<string, number>>, value: string) => () =>
      clusters.every((c) => map.get(c)?.has(value));
    const lagMs = shape.statusLagSeconds * 1000;
    const missing: string[] = [];
    const waitFor = async (what: string, check: () => boolean, timeoutMs: number) =>
      (await until(what, check, left(timeoutMs), log)) || (missing.push(what), false);
    await waitFor('every cluster to apply', all(got.applied, '0'), shape.waitMs + lagMs);
    const appliedAt = Date.now();
    const startAppliedCpu = sampleCpu();
    await waitFor('every first status', all(got.status, '0'), shape.statusWaitMs ?? shape.waitMs + lagMs);
    const startup: Stretch = { name: 'startup', from: startedAt, to: Date.now() };
    log(
      `budget: started in ${Math.round((startup.to - startup.from) / 1000)} s (applied in ${Math.round((appliedAt - startedAt) / 1000)} s)`,
    );

    // One source push, and the webhook GitHub would send after it.
    write({ 'apps/web.yaml': budgetConfigMap('1') });
    await git(work, [
      '-c',
      'user.name=bench',
      '-c',
      'user.email=bench@example.com',
      'commit',
      '-qam',
      'value 1',
    ]);
    // The source push is the moment the person ran `git push`: a 429 and its Retry-After wait
    // (pushAsAPerson) count in push → applied. (Not the first push the forge took after the bench
    // began its own: under load that was once another push to fleet.git, 20.5 s before the
    // bench's, and every latency was counted from there.)
    const pushedAt = Date.now();
    const pushCpu = sampleCpu();
    const sourcePush = await pushAsAPerson(work, forge.url('fleet.git'), log);
    await fetch(`http://127.0.0.1:${webhookPort}/hooks/push`, {
      method: 'POST',
      headers: { 'X-Gitlab-Event': 'Push Hook', 'X-Gitlab-Token': 'bench-secret' },
      body: '{"ref":"refs/heads/main"}',
    });
    await waitFor('every cluster to apply the push', all(got.applied, '1'), shape.waitMs);
    const appliedCpu = sampleCpu();
    await waitFor(
      'every status of the push',
      all(got.status, '1'),
      shape.statusWaitMs ?? shape.waitMs + 2 * lagMs,
    );
    const push: Stretch = { name: 'push', from: pushedAt, to: Date.now() };
    const reportedCpu = sampleCpu();
    log(
      `budget: push applied and reported in ${Math.round((push.to - push.from) / 1000)} s; idle ${shape.idleMs / 1000} s`,
    );
    await sleep(Math.max(left(shape.idleMs), Math.min(shape.idleMs, 30_000)));
    const idle: Stretch = { name: 'idle', from: push.to, to: Date.now() };
    const cpu = [
      cpuShare('startup → every cluster applied', startCpu, startAppliedCpu),
      cpuShare('push → every cluster applied', pushCpu, appliedCpu),
      cpuShare('idle', reportedCpu, sampleCpu()),
    ];
    log(`budget: CPU ${cpu.map(describeCpu).join('; ')}`);
    // A cluster that never got there counts as the whole wait (a lower bound of its latency).
    const since = (map: Map<string, Map<string, number>>, c: string) =>
      (map.get(c)?.get('1') ?? idle.from) - pushedAt;
    const latencies = clusters.map((c) => since(got.applied, c));
    const reported = clusters.map((c) => since(got.status, c));
    // The hub's share: until the push that carried the cluster's branch (its render repository's, else the fleet's).
    const branchRepo = (k: number) =>
      renderUrls.length === 0 ? 'fleet.git' : `render-${(k % renderUrls.length) + 1}.git`;
    const firstPush = (repo: string) =>
      events.find((e) => e.repo === repo && e.kind === 'push' && e.at > pushedAt)?.at;
    const published = clusters.map((_, k) => (firstPush(branchRepo(k)) ?? idle.from) - pushedAt);
    const measured = measureStretches({
      events,
      stretches: [startup, push, idle],
      latencies,
      reported,
      published,
    });
    const seen = observedFigures({ clusters, observed, latencies, published });
    const gaveUp = missing.length === 0 ? '' : `INCOMPLETE: gave up waiting for ${missing.join(', ')}; `;
    const retried =
      sourcePush.refused === 0
        ? ''
        : `; the source push was answered 429 ${sourcePush.refused} times and waited ${seconds(sourcePush.waitedMs)} (counted)`;
    return {
      advice,
      ...measured,
      note: `${gaveUp}${measured.note}${observed.size > 0 ? seen.note : ''}${retried}${modelBeside(advice, measured.details)}; CPU over ${describeCpu(cpu[1]!)}`,
      details: {
        ...measured.details,
        ...(observed.size > 0 ? seen.details : {}),
        sourcePush,
        model: advice.model,
        cpu,
      },
      missing,
    };
  } finally {
    for (const p of processes.reverse()) await p.stop();
    await forge.close();
    if (tracing) writeFileSync(join(root, 'forge.events'), answers.join('\n'));
    // GITFLEET_BENCH_KEEP=1 keeps the hub's and agents' logs for a look.
    if (process.env['GITFLEET_BENCH_KEEP'] === undefined) rmSync(root, { recursive: true, force: true });
    else log(`budget: kept ${root}`);
  }
}

/** The scenario's shape: --quick 100 clusters, else 1,000; `clusters` overrides. */
export function budgetShape(opts: { quick: boolean; clusters?: number }): BudgetShape {
  const clusters = opts.clusters ?? (opts.quick ? 100 : 1000);
  return {
    clusters,
    statusLagSeconds: clusters <= 200 ? 120 : 300,
    fetchSpreadSeconds: 1,
    // Agents share a process 25 to one, at most 8 processes: one Node process running 100 agents'
    // passes at once was CPU-bound (docs/git-budget.md#measured).
    agentProcesses: Math.min(8, Math.max(1, Math.ceil(clusters / 25))),
    // A minute of idle is 4 looks of the hub and 6 beacons per agent; 100 clusters finish in
    // under 10 minutes on a quiet machine (the coordinator's rerun).
    idleMs: opts.quick || clusters <= 200 ? 60_000 : 120_000,
    waitMs: opts.quick ? 600_000 : 1_200_000,
    // Up to 200 clusters the run ends by itself within 10 minutes, whatever the machine.
    deadlineMs: clusters <= 200 ? 540_000 : 3_600_000,
  };
}

export const budgetScenario: Scenario = {
  name: 'budget',
  summary:
    '1,000 simulated agents (100 with --quick) on the github profile: per-repository rates, 429s, push → applied',
  run: async (opts): Promise<ScenarioReport> => {
    const shape = {
      ...budgetShape({ quick: opts.quick, ...(opts.clusters ? { clusters: opts.clusters } : {}) }),
      ...(statusWaitMs !== undefined ? { statusWaitMs } : {}),
      ...(deadlineMs !== undefined ? { deadlineMs } : {}),
      ...(safetyPollMs !== undefined ? { safetyPollMs } : {}),
      ...(fetchSpreadMs !== undefined ? { fetchSpreadSeconds: fetchSpreadMs / 1000 } : {}),
      ...(observe !== undefined ? { observed: observe } : {}),
    };
    const result = await runBudgetBench(shape, opts.log);
    return {
      scenario: 'budget',
      status: 'ran',
      note: result.note,
      parameters: {
        ...shape,
        forge: 'github',
        readWindowMs: 1000,
        statusRepositories: result.advice.statusRepositories,
        renderRepositories: result.advice.renderRepositories,
        advice: result.advice.command,
        model: result.advice.model,
      },
      contenders: result.contenders,
      ratios: [],
      details: result.details,
    };
  },
};

// Run by itself: `node build/bench/budget.js [--quick] [--clusters N] [--status-wait S] [--deadline S]
// [--safety-poll S] [--fetch-spread S]` prints the report as JSON; `--status-wait` cuts the wait for
// statuses (a loaded machine: push → applied first); `--deadline` the whole run's (it then reports
// what it reached); `--safety-poll` the agents' safety poll (a short run then sees each agent's
// first one after the push); `--fetch-spread` what `gitfleet budget --fetch-spread` is asked
// (default 1 s; shorter: more render repositories, each read by fewer agents after a push);
// `--observe N` runs N agents spread over the clusters at normal priority and the rest niced
// (bench/lib/budget-observed.ts), and reports the N's push → applied beside everyone's.
const secondsAfter = (flag: string): number | undefined => {
  const at = process.argv.indexOf(flag);
  return at > 0 ? Number(process.argv[at + 1]) * 1000 : undefined;
};
const statusWaitMs = secondsAfter('--status-wait');
const deadlineMs = secondsAfter('--deadline');
const safetyPollMs = secondsAfter('--safety-poll');
const fetchSpreadMs = secondsAfter('--fetch-spread');
const observeAt = process.argv.indexOf('--observe');
const observe = observeAt > 0 ? Number(process.argv[observeAt + 1]) : undefined;
if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf('--clusters');
  const clusters = at > 0 ? Number(process.argv[at + 1]) : undefined;
  const quick = process.argv.includes('--quick');
  const report = await budgetScenario.run({
    quick,
    runs: 1,
    log: (l) => process.stderr.write(`${l}\n`),
    ...(clusters ? { clusters } : {}),
  });
  console.log(JSON.stringify(report, null, 2));
}
