// A flapping agent on a real repository (issue 27, point 11): member3's agent is killed and
// restarted every 20 s for 3 minutes while the others beat every 2 s. The monitor (e2e's
// settings: a look every second, 6 s grace) and the hub's passes run on a fake clock; a pass runs
// whenever the verdicts change. A ClusterTaintPolicy taints an Unknown cluster
// unreachable:NoExecute and the taint manager is on, with Karmada's default tolerations.
//
// Damped (the defaults: --cluster-success-threshold 30s, default tolerations 300 s), member3 is
// judged once and stays judged while it flaps, and nothing is evicted. Undamped (threshold and
// default tolerations 0), the same flaps give a verdict and a bindings commit each, and an eviction.
import { noExecuteTaintPolicyDoc } from '../../support/fleet-docs.js';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeHeartbeat } from '../../../src/loops/agent/heartbeat.js';
import { localAgentRepo } from '../../../src/loops/agent/agent-repo.js';
import { clusterMonitor } from '../../../src/loops/hub/cluster-monitor.js';
import {
  defaultClusterMonitorSettings,
  type ClusterMonitorSettings,
} from '../../../src/loops/hub/cluster-monitor-rules.js';
import { newFailoverMemory } from '../../../src/core/failover/eviction-request.js';
import { defaultFailoverSettings, type FailoverSettings } from '../../../src/core/model/failover.js';
import { silentLogger } from '../../../src/loops/runtime/logger.js';
import { fakeClock, type FakeClock } from '../runtime/fake-clock.js';
import {
  commitReadyReport,
  fleetRepoWith,
  git,
  hubPass,
  removeFleetRepos,
  type FleetRepo,
} from './hub-fixture.js';

after(removeFleetRepos);

const clusters = ['member1', 'member2', 'member3'];

function fleet(): FleetRepo {
  return fleetRepoWith(
    {
      'fleet.yaml':
        'apiVersion: gitfleet.io/v1alpha1\nkind: FleetConfig\nmetadata: {name: fleet}\nspec: {allowNoExecuteTaintPolicy: true}\n',
      'clusters.yaml': clusters
        .map(
          (c) => `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: ${c}}\nspec: {}\n`,
        )
        .join('---\n'),
      'taints.yaml': noExecuteTaintPolicyDoc(),
      'apps/crd.yaml': `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  scope: Namespaced
  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: crds}
spec:
  resourceSelectors: [{apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2, member3]}
`,
    },
    { bare: true },
  );
}

function beat(repo: FleetRepo, cluster: string, clock: FakeClock): Promise<string> {
  return writeHeartbeat({
    repo: localAgentRepo(repo.path),
    ref: `refs/heads/gitfleet/heartbeat/${cluster}`,
    cluster,
    author: {
      name: `agent ${cluster}`,
      email: 'agent@gitfleet.invalid',
      time: Math.floor(clock.now() / 1000),
      tzOffsetMinutes: 0,
    },
  });
}

/** Runs the flapping story; returns the monitor's verdict changes, bindings commits and evictions. */
async function flap(monitorSettings: ClusterMonitorSettings, failover: FailoverSettings) {
  const repo = fleet();
  const clock = fakeClock();
  const memory = newFailoverMemory();
  const monitor = clusterMonitor({
    gitdir: repo.gitdir,
    branchPrefix: 'gitfleet/',
    settings: monitorSettings,
    elapsed: () => clock.now(),
    clock,
    log: silentLogger(),
  });
  const hub = {
    settings: failover,
    memory,
    verdicts: () => monitor.verdicts(),
  };
  const pass = () => hubPass(repo, { failover: hub, now: () => new Date(clock.now()) });
  await pass();
  for (const c of clusters) await commitReadyReport(repo, c, 'True');
  await pass();
  const commitsBefore = Number(git(repo, ['rev-list', '--count', 'refs/heads/gitfleet/bindings']));
  let changes = 0;
  let evictions = 0;
  // 10 s steady, then member3 is down 20 s and up 20 s for 180 s, then up for good for 60 s.
  for (let s = 1; s <= 250; s++) {
    clock.advance(1000);
    const flapping = s > 10 && s <= 190;
    const member3Up = !flapping || Math.floor((s - 10) / 20) % 2 === 1;
    // Renewals every 2 s (a 4 s lease), looks every second.
    if (s % 2 === 0) for (const c of clusters) if (c !== 'member3' || member3Up) await beat(repo, c, clock);
    if (await monitor.look()) {
      changes++;
      const result = await pass();
      if (result.type === 'rendered')
        evictions += (result.decisions ?? []).filter((d) => d.type === 'Evicted').length;
    }
  }
  const commits = Number(git(repo, ['rev-list', '--count', 'refs/heads/gitfleet/bindings'])) - commitsBefore;
  return { changes, commits, evictions, judgedAtEnd: monitor.verdicts().size };
}

const fast = {
  ...defaultClusterMonitorSettings,
  periodMs: 1_000,
  gracePeriodMs: 6_000,
  startupGracePeriodMs: 10_000,
};
const evicting: FailoverSettings = {
  ...defaultFailoverSettings,
  enableNoExecuteTaintEviction: true,
  resourceEvictionRate: 1000,
};

test('a flapping agent is judged once and evicts nothing; it is judged no more once it stays up', async () => {
  const damped = await flap(fast, evicting);
  assert.deepEqual(
    { changes: damped.changes, evictions: damped.evictions, judgedAtEnd: damped.judgedAtEnd },
    { changes: 2, evictions: 0, judgedAtEnd: 0 },
    'judged at the first flap, un-judged 30 s after the last',
  );
  assert.ok(damped.commits <= 2, `${damped.commits} bindings commits`);
  // The same story without the damping, for comparison: each flap is a verdict, commits, evictions.
  const undamped = await flap(
    { ...fast, successThresholdMs: 0 },
    { ...evicting, defaultNotReadyTolerationSeconds: 0, defaultUnreachableTolerationSeconds: 0 },
  );
  process.stderr.write(
    `flapping member3 for 180 s: damped ${JSON.stringify(damped)}, undamped ${JSON.stringify(undamped)}\n`,
  );
  assert.ok(undamped.changes >= 8, `undamped: ${undamped.changes} verdict changes`);
  assert.ok(undamped.commits >= 8, `undamped: ${undamped.commits} bindings commits`);
  // One: the graceful task it starts keeps the cluster out while the others' (frozen) reports
  // never say Healthy at their new heads; in the run, with agents reporting, it was 8.
  assert.ok(undamped.evictions >= 1, `undamped: ${undamped.evictions} evictions`);
});
