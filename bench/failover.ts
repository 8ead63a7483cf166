// Scenario failover: the time from a member going away (its kube-apiserver and its agent
// stopped) to its replicas running on the survivors (the Deployments of member1 and member3
// report all 6 replicas ready), on three test clusters with the hub and agents as loops and the
// settings of the end-to-end test (test/e2e/failover-fleet.ts: monitor grace 6s, heartbeat every
// 1s, NoExecute eviction with tolerationSeconds 2). The time includes the grace period and the
// toleration by design: that is what a user waits for.
//
// Each run places a fresh Divided Deployment (6 replicas, 1:1:1) on all three clusters, waits
// until it runs 2/2/2, stops member2, and times until member1 and member3 run 6; then it brings
// member2 back and waits until the hub no longer judges or taints it, so the next run's
// Deployment lands on all three again (a cluster that comes back gets no workload back by
// itself: each run needs its own).
import { withTestClusters, type TestClusters } from '../test/clusters/harness/with-test-clusters.js';
import { git, removeTempDirs } from '../test/git-server/git-cli.js';
import {
  clusterNames,
  failoverAgentArgs,
  failoverFleet,
  failoverHubArgs,
  fleetRepo,
  kubectlOf,
  minutes,
} from '../test/e2e/failover-fleet.js';
import { startFleet, type RunningFleet } from '../test/support/running-fleet.js';
import { failed, type Scenario, type ScenarioReport } from './lib/report.js';
import { spread } from './lib/stats.js';

const ns = 'bench-failover';
const pollMs = 250;

/** The failover scenario (three test clusters; several minutes). */
export const failoverScenario: Scenario = {
  name: 'failover',
  summary:
    'member gone (API server and agent stopped) to its replicas running on the survivors (3 test clusters)',
  run: async (opts): Promise<ScenarioReport> => {
    const runs = opts.quick ? Math.min(opts.runs, 2) : opts.runs;
    const parameters = {
      clusters: 3,
      replicas: 6,
      weights: '1:1:1',
      hub: failoverHubArgs.join(' '),
      agent: failoverAgentArgs.join(' '),
      tolerationSeconds: 2,
      runs,
    };
    try {
      return await withTestClusters({ count: 3 }, (env, clusters) =>
        measure({ env, clusters, runs, log: opts.log, parameters }),
      );
    } catch (err) {
      // One line: the report's table cell (the hub's full output went to the log).
      return { ...failed('failover', String((err as Error).message).split('\n')[0]), parameters };
    } finally {
      removeTempDirs();
    }
  },
};

async function measure(input: {
  env: Record<string, string>;
  clusters: TestClusters;
  runs: number;
  log: (line: string) => void;
  parameters: Record<string, unknown>;
}): Promise<ScenarioReport> {
  const { env, log } = input;
  const kube = kubectlOf(env);
  const { repo, commit } = await fleetRepo('bench-failover-repo');
  const fleet: RunningFleet = startFleet(repo, clusterNames, env['GITFLEET_TEST_KUBECONFIG']!, {
    hub: failoverHubArgs,
    agent: failoverAgentArgs,
  });
  const samples: number[] = [];
  try {
    let files: Record<string, string> = {};
    for (let run = 1; run <= input.runs; run++) {
      const app = `web-${run}`;
      files = { ...files, ...failoverFleet(ns, {}, app) };
      await commit(files, `${app}: 6 replicas divided 1:1:1`);
      await until(
        `${app} running 2/2/2`,
        minutes(5),
        () => clusterNames.every((c) => ready(kube, c, app) === 2),
        fleet,
      );
      const began = performance.now();
      await fleet.stopAgent('member2');
      await input.clusters.stopApiServer('member2');
      await until(`${app}'s 6 replicas running on member1 and member3`, minutes(5), () => {
        return (ready(kube, 'member1', app) ?? 0) + (ready(kube, 'member3', app) ?? 0) === 6;
      });
      const ms = Math.round(performance.now() - began);
      samples.push(ms);
      log(`failover: run ${run}: ${(ms / 1000).toFixed(1)}s`);
      await input.clusters.startApiServer('member2');
      fleet.startAgent('member2');
      await until('member2 neither judged nor tainted by the hub', minutes(3), async () => {
        const head = await git(repo, ['log', '-1', '--format=%B', 'refs/heads/gitfleet/bindings']);
        const record = await git(repo, [
          'show',
          'refs/heads/gitfleet/bindings:.gitfleet/failover/clusters/member2.yaml',
        ]).catch(() => '');
        return !/Gitfleet-Cluster-Judged: member2=/.test(head) && !/unreachable/.test(record);
      });
    }
  } catch (err) {
    log(fleet.output().split('\n').slice(-100).join('\n'));
    throw err;
  } finally {
    await fleet.stop();
  }
  return {
    scenario: 'failover',
    status: 'ran',
    note: 'includes the monitor grace period (6s) and the toleration (2s); measured from the stop of member2 to readyReplicas summing to 6 on member1 and member3',
    parameters: input.parameters,
    contenders: [
      {
        name: 'gitfleet: member gone to replicas running on survivors',
        side: 'gitfleet',
        ...spread(samples),
        peakRssMiB: null,
      },
    ],
    ratios: [],
    details: { samplesMs: samples },
  };
}

/** status.readyReplicas of a Deployment (0 when none yet), undefined when the cluster has none. */
function ready(kube: ReturnType<typeof kubectlOf>, context: string, name: string): number | undefined {
  try {
    const d = JSON.parse(kube.run(context, ['get', 'deployment', name, '-n', ns, '-o', 'json'])) as {
      status?: { readyReplicas?: number };
    };
    return d.status?.readyReplicas ?? 0;
  } catch {
    return undefined;
  }
}

async function until(
  what: string,
  timeoutMs: number,
  probe: () => boolean | Promise<boolean>,
  fleet?: RunningFleet,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    // A hub that exited (a flag it does not know) ends the run at once, with its error.
    fleet?.assertRunning('hub');
    try {
      if (await probe()) return;
    } catch {
      // a cluster that is down, or a branch not there yet: not yet
    }
    if (performance.now() > deadline)
      throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
