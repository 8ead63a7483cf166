// End to end, failover on real clusters (issue 14, docs/failover.md): three test clusters of
// its own, `gitfleet hub` and one `gitfleet agent` per cluster running as loops with small
// settings, and kubectl.
//
// 1. A Divided Deployment (static weights 1:1:1, 6 replicas) over member1..3. member2's API
//    server and agent are stopped: the hub's monitor judges it Unknown once its heartbeat is
//    older than the grace period, a ClusterTaintPolicy taints it unreachable:NoExecute, the
//    taint manager evicts the Deployment after its tolerationSeconds, and the scheduler places
//    the 6 replicas on member1 and member3, whose agents apply them. member2 comes back:
//    nothing flaps back (the binding still excludes it), and its agent prunes its old copy once
//    it reads its branch, the deletion let through by the eviction's allowance.
// 2. An application whose Pods never become ready on member1 (an OverridePolicy gives it a
//    nodeSelector no node there has) fails over to member3 under failover.application
//    (tolerationSeconds small, purgeMode Directly).
//
// Which part each outcome waits for until the failover helpers' branches are merged:
//   member2 judged Unknown                   heartbeat (agent heartbeat ref, hub monitor)
//   member2 tainted                          taints (ClusterTaintPolicy, condition taints)
//   the Deployment evicted, 6 on member1+3   taints (NoExecute taint manager) + eviction
//   member2's copy pruned                    eviction (task done), allowance (this branch)
//   nothing flaps back                       appfailover (scheduling triggers)
//   the application fails over               appfailover (application failover) + eviction
//
// Every wait polls for an outcome, capped at a few minutes; nothing sleeps a fixed time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withTestClusters, type TestClusters } from '../clusters/harness/with-test-clusters.js';
import { git, removeTempDirs } from '../git-server/git-cli.js';
import { eventually, uniqueName } from '../kube/test-clusters.js';
import { fleetSteps, startFleet, type RunningFleet } from '../support/running-fleet.js';
import {
  bindingsLog,
  clusterNames,
  failoverAgentArgs,
  failoverFleet,
  failoverHubArgs,
  fleetRepo,
  flakyFiles,
  kubectlOf,
  minutes,
  scheduledClusters,
  tainted,
} from './failover-fleet.js';

const ns = uniqueName('failover');

test('failover on three test clusters', { timeout: minutes(30) }, async (t) => {
  await withTestClusters({ count: 3 }, async (env, clusters: TestClusters) => {
    const kube = kubectlOf(env);
    const { repo, commit } = await fleetRepo('failover-repo');
    await commit(failoverFleet(ns), 'web divided 1:1:1 over three clusters');
    const fleet: RunningFleet = startFleet(repo, clusterNames, env['GITFLEET_TEST_KUBECONFIG']!, {
      hub: failoverHubArgs,
      agent: failoverAgentArgs,
    });
    const step = fleetSteps(t, fleet);
    try {
      await step(
        'member2 goes away: its replicas move to member1 and member3, and come not back',
        async () => {
          const sum = (names: string[]) => names.reduce((n, c) => n + (kube.replicas(c, ns, 'web') ?? 0), 0);
          // A hub that refused its flags fails the test at once, with its usage error.
          const first = await eventually(
            'web applied 2/2/2 on the three clusters',
            async () => {
              if (!fleet.running('hub')) return 'hub exited';
              return clusterNames.every((c) => kube.replicas(c, ns, 'web') === 2) ? 'applied' : undefined;
            },
            minutes(5),
          );
          if (first !== 'applied') fleet.assertRunning('hub');

          await fleet.stopAgent('member2');
          await clusters.stopApiServer('member2');
          await eventually(
            'member2 tainted unreachable:NoExecute on the bindings branch',
            async () => ((await tainted(repo, 'member2')) ? true : undefined),
            minutes(3),
          );
          await eventually(
            "web's binding excludes member2, with 6 replicas on member1 and member3",
            async () => {
              const placed = await scheduledClusters(repo, ns, 'web');
              if (!placed || placed.has('member2')) return undefined;
              return (placed.get('member1') ?? 0) + (placed.get('member3') ?? 0) === 6 ? true : undefined;
            },
            minutes(3),
          );
          await eventually(
            'the Deployments of member1 and member3 hold 6 replicas',
            async () => (sum(['member1', 'member3']) === 6 ? true : undefined),
            minutes(3),
          );
          const why = await bindingsLog(repo);
          assert.match(why, /^Gitfleet-Eviction: .*web from member2: /m, 'the bindings commit says why');

          await clusters.startApiServer('member2');
          fleet.startAgent('member2');
          await eventually(
            "member2's agent prunes its old copy once it reads its branch",
            async () => (kube.replicas('member2', ns, 'web') === undefined ? true : undefined),
            minutes(5),
          );
          const member2Branch = await git(repo, [
            'log',
            '--format=%B',
            'refs/heads/gitfleet/clusters/member2',
          ]);
          assert.match(member2Branch, /^Gitfleet-Allow-Deletions: member2$/m);
          assert.match(member2Branch, /^Gitfleet-Eviction(-Done)?: .*web from member2: /m);
          // Back and Ready again (the monitor sees fresh heartbeats): still nothing flaps back.
          await eventually(
            'member2 judged Ready again (its heartbeat is fresh)',
            async () => {
              const head = await git(repo, ['log', '-1', '--format=%B', 'refs/heads/gitfleet/bindings']);
              return /Gitfleet-Cluster-Judged: member2=/.test(head) ? undefined : true;
            },
            minutes(3),
          );
          const placed = await scheduledClusters(repo, ns, 'web');
          assert.equal(placed?.has('member2'), false, 'the binding still excludes member2');
          assert.equal(sum(['member1', 'member3']), 6);
          assert.equal(kube.replicas('member2', ns, 'web'), undefined);
        },
      );

      await step(
        'an application whose Pods never become ready on member1 fails over to member3',
        async () => {
          await commit(flakyFiles(ns), 'flaky: primary member1, backup member3, application failover');
          await eventually(
            'flaky placed on member3 and gone from member1',
            async () =>
              kube.replicas('member3', ns, 'flaky') === 2 &&
              kube.replicas('member1', ns, 'flaky') === undefined
                ? true
                : undefined,
            minutes(5),
          );
          const placed = await scheduledClusters(repo, ns, 'flaky');
          assert.deepEqual([...(placed?.keys() ?? [])], ['member3']);
          assert.match(
            await bindingsLog(repo),
            /^Gitfleet-Eviction: .*flaky from member1: ApplicationFailure/m,
          );
        },
      );
    } finally {
      await fleet.stop();
      removeTempDirs();
    }
  });
});
