// Scenario rollout: what a gated step of a progressive rollout costs beyond the agents' own
// apply time, on three test clusters with the hub and agents as loops (the fleet of the
// end-to-end test, test/e2e/rollout-fleet.ts, with soakSeconds 0).
//
// Each run pushes two changes, alternately: a new image of `web`, which the strategy rolls out
// member1 first and member2 + member3 after, and a new image of `plain`, which no strategy
// selects (the baseline: the same push without a strategy). A poller reads the cluster and
// status refs every 20 ms and keeps when each new commit was first seen; afterwards the
// commits are read from git to find the moments below:
//
// | figure                      | from                                      | to                                                 |
// |-----------------------------|-------------------------------------------|----------------------------------------------------|
// | gated step overhead         | member1's first status commit reporting   | member2's branch commit moving it to the new image |
// |                             | its new head applied and web Healthy      |                                                    |
// | member1's own apply         | member1's branch moved                    | that status commit                                 |
// | push to all, 2 steps        | the source commit                         | all three report the new image applied and Healthy |
// | push to all, no strategy    | the source commit (plain)                 | all three report it applied and Healthy            |
//
// The gated step's overhead is the hub's reaction: it watches the status refs, so it is one
// pass (read the status, decide, write the branches), not a polling interval.
import { readRef } from '../src/adapters/git/read-ref.js';
import { withTestClusters } from '../test/clusters/harness/with-test-clusters.js';
import { removeTempDirs } from '../test/git-server/git-cli.js';
import { fleetRepo, kubectlOf, minutes } from '../test/e2e/failover-fleet.js';
import {
  appliedHealthy,
  clusterNames,
  clusterRef,
  liveRuns,
  rolloutFleet,
  rolloutRecord,
  runs as runsSpec,
  sameCommit,
  sourceHead,
  statusAt,
  statusRef,
  webOnBranch,
  type StrategySpec,
  type WebSpec,
} from '../test/e2e/rollout-fleet.js';
import { startFleet, type RunningFleet } from '../test/support/running-fleet.js';
import { failed, type Scenario, type ScenarioReport } from './lib/report.js';
import { median, spread } from './lib/stats.js';

const strategy: StrategySpec = { soakSeconds: 0, onFailure: 'Halt' };
const pollMs = 20;

/** The rollout scenario (three test clusters; about a minute). */
export const rolloutScenario: Scenario = {
  name: 'rollout',
  summary:
    "a gated rollout step's overhead (member1's healthy report to member2 moved) beside a push without a strategy (3 test clusters)",
  run: async (opts): Promise<ScenarioReport> => {
    const parameters = {
      clusters: 3,
      steps: 'member1, then member2 + member3',
      soakSeconds: strategy.soakSeconds,
      replicas: 1,
      refPollMs: pollMs,
      runs: opts.runs,
    };
    try {
      return await withTestClusters({ count: 3 }, (env) =>
        measure({ env, runs: opts.runs, log: opts.log, parameters }),
      );
    } catch (err) {
      return { ...failed('rollout', String((err as Error).message).split('\n')[0]), parameters };
    } finally {
      removeTempDirs();
    }
  },
};

/** When each new commit of a ref was first seen, in order. */
class RefTimeline {
  private readonly seen = new Map<string, { oid: string; at: number }[]>();
  private timer: NodeJS.Timeout | undefined;
  private busy = false;

  constructor(
    private readonly gitdir: string,
    private readonly refs: readonly string[],
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.poll(), pollMs);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** The commits of `ref` first seen at or after `since`, in the order they were seen. */
  since(ref: string, since: number): { oid: string; at: number }[] {
    return (this.seen.get(ref) ?? []).filter((e) => e.at >= since);
  }

  private async poll(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      for (const ref of this.refs) {
        const oid = await readRef(this.gitdir, ref).catch(() => null);
        const list = this.seen.get(ref) ?? [];
        this.seen.set(ref, list);
        if (oid !== null && list[list.length - 1]?.oid !== oid) list.push({ oid, at: performance.now() });
      }
    } finally {
      this.busy = false;
    }
  }
}

async function measure(input: {
  env: Record<string, string>;
  runs: number;
  log: (line: string) => void;
  parameters: Record<string, unknown>;
}): Promise<ScenarioReport> {
  const { env, log } = input;
  const kube = kubectlOf(env);
  const { repo, commit } = await fleetRepo('bench-rollout-repo');
  let web: WebSpec = { image: '1.0' };
  let plain: WebSpec = { image: '1.0' };
  await commit(rolloutFleet(web, strategy, plain), 'web and plain 1.0');
  const fleet: RunningFleet = startFleet(repo, clusterNames, env['GITFLEET_TEST_KUBECONFIG']!);
  const timeline = new RefTimeline(
    `${repo}/.git`,
    clusterNames.flatMap((c) => [clusterRef(c), statusRef(c)]),
  );
  timeline.start();
  const samples = {
    overhead: [] as number[],
    member1: [] as number[],
    gated: [] as number[],
    plain: [] as number[],
  };

  /** Waits until every cluster runs `spec` for `name` on its branch and live, and reports it applied and Healthy. */
  const settled = (name: string, spec: WebSpec, revision?: string) =>
    until(`${name} ${spec.image} applied and Healthy on member1..3`, minutes(3), fleet, async () => {
      for (const c of clusterNames) {
        if (!runsSpec(await webOnBranch(repo, c, clusterRef(c), name), spec)) return false;
        if (!(await appliedHealthy(repo, c, name)) || !liveRuns(kube, c, spec, name)) return false;
      }
      if (revision === undefined) return true;
      const state = await rolloutRecord(repo);
      return state?.phase === 'Complete' && sameCommit(revision, state.revision);
    });
  /** When the cluster's status ref first showed a commit reporting `name` at `spec` applied and Healthy. */
  const reported = async (cluster: string, name: string, spec: WebSpec, since: number) => {
    for (const e of timeline.since(statusRef(cluster), since)) {
      const s = await statusAt(repo, e.oid, name);
      if (s?.appliedCommit === undefined || s.health !== 'Healthy') continue;
      if (runsSpec(await webOnBranch(repo, cluster, s.appliedCommit, name), spec)) return e.at;
    }
    throw new Error(
      `no status commit of ${cluster} seen reporting ${name} ${spec.image} applied and Healthy`,
    );
  };
  /** When the cluster's branch first showed a commit running `spec` for `name`. */
  const movedAt = async (cluster: string, name: string, spec: WebSpec, since: number) => {
    for (const e of timeline.since(clusterRef(cluster), since)) {
      if (runsSpec(await webOnBranch(repo, cluster, e.oid, name), spec)) return e.at;
    }
    throw new Error(`no commit of ${cluster}'s branch seen running ${name} ${spec.image}`);
  };

  try {
    await settled('web', web);
    await settled('plain', plain);
    for (let run = 1; run <= input.runs; run++) {
      const tag = `1.${run}`;
      // A: web, rolled out in two steps.
      web = { image: tag };
      await commit(rolloutFleet(web, strategy, plain), `web ${tag}`);
      const pushedWeb = performance.now();
      await settled('web', web, await sourceHead(repo));
      const m1 = await movedAt('member1', 'web', web, pushedWeb);
      const s1 = await reported('member1', 'web', web, pushedWeb);
      const m2 = await movedAt('member2', 'web', web, pushedWeb);
      const all = Math.max(
        ...(await Promise.all(clusterNames.map((c) => reported(c, 'web', web, pushedWeb)))),
      );
      // A hub that does not gate (no strategy loaded) moves member2 with member1: no figure to report.
      if (m2 < s1)
        throw new Error(`run ${run}: member2 moved before member1 reported web ${tag} Healthy: no gate`);
      samples.overhead.push(m2 - s1);
      samples.member1.push(s1 - m1);
      samples.gated.push(all - pushedWeb);
      // B: plain, which no strategy holds.
      plain = { image: tag };
      await commit(rolloutFleet(web, strategy, plain), `plain ${tag}`);
      const pushedPlain = performance.now();
      await settled('plain', plain);
      const allPlain = Math.max(
        ...(await Promise.all(clusterNames.map((c) => reported(c, 'plain', plain, pushedPlain)))),
      );
      samples.plain.push(allPlain - pushedPlain);
      const s = (ms: number) => `${(ms / 1000).toFixed(2)}s`;
      log(
        `rollout: run ${run}: step overhead ${s(m2 - s1)}, member1 apply ${s(s1 - m1)}, ` +
          `2 steps ${s(all - pushedWeb)}, no strategy ${s(allPlain - pushedPlain)}`,
      );
    }
  } catch (err) {
    log(fleet.output().split('\n').slice(-100).join('\n'));
    throw err;
  } finally {
    timeline.stop();
    await fleet.stop();
  }
  const row = (name: string, xs: number[]) => ({
    name,
    side: 'gitfleet' as const,
    ...spread(xs),
    peakRssMiB: null,
  });
  return {
    scenario: 'rollout',
    status: 'ran',
    note:
      'times from refs polled every 20 ms (a commit is timed when first seen); the source commit is timed when `git commit` returned; ' +
      '"applied and Healthy": the status commit whose Gitfleet-Applied-Commit runs the new image and reports the Deployment Healthy',
    parameters: input.parameters,
    contenders: [
      row("gated step: member1's applied + Healthy report → member2's branch moved", samples.overhead),
      row("member1's own apply: its branch moved → its applied + Healthy report", samples.member1),
      row('push → all 3 applied + Healthy, 2 steps (web)', samples.gated),
      row('push → all 3 applied + Healthy, no strategy (plain)', samples.plain),
    ],
    ratios: [],
    details: {
      twoStepsMinusNoStrategyMs: Math.round(median(samples.gated) - median(samples.plain)),
      samplesMs: samples,
    },
  };
}

async function until(
  what: string,
  timeoutMs: number,
  fleet: RunningFleet,
  probe: () => Promise<boolean>,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    // A hub that exited ends the run at once, with its error.
    fleet.assertRunning('hub');
    try {
      if (await probe()) return;
    } catch {
      // a branch not there yet: not yet
    }
    if (performance.now() > deadline)
      throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
