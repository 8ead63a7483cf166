// Evictions that end with the outage, and a fleet gone quiet at once, on a real repository with
// the hub's taint manager on (docs/failover.md): a cluster judged Unknown gets the unreachable
// NoExecute taint of a ClusterTaintPolicy; the monitor's verdicts and the hub's clock are given.
//
// 1. `api`, placed only on member1, is evicted Gracefully when member1 goes quiet: no other
//    cluster can take it, so its copy stays on member1. When member1 is back (Ready, the taint
//    gone) the task ends (ClusterRecovered) in the pass that sees it, `api` is scheduled on
//    member1 again, its copy never leaves, and the bindings commit says so.
// 2. Every cluster judged Unknown at once: nothing is evicted, and the bindings commit says why.
import { noExecuteTaintPolicyDoc } from '../../support/fleet-docs.js';
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import yaml from 'js-yaml';
import { defaultFailoverSettings } from '../../../src/core/model/failover.js';
import type { ClusterVerdict } from '../../../src/core/failover/monitored-status.js';
import { newFailoverMemory } from '../../../src/core/failover/eviction-request.js';
import type { HubFailover } from '../../../src/loops/hub/hub-failover.js';
import {
  branchFiles,
  commitReadyReport,
  fleetRepoWith,
  git,
  hubPass,
  removeFleetRepos,
  rendered,
} from './hub-fixture.js';

after(removeFleetRepos);

const t0 = 1_700_000_100_000;
const at = (seconds: number) => () => new Date(t0 + seconds * 1000);
const clusters = ['member1', 'member2', 'member3'];

function fleet(app: string, placement: string): Record<string, string> {
  return {
    'fleet.yaml': `apiVersion: gitfleet.io/v1alpha1
kind: FleetConfig
metadata: {name: fleet}
spec: {allowNoExecuteTaintPolicy: true}
`,
    'clusters.yaml': clusters
      .map(
        (c) => `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: ${c}}\nspec: {}\n`,
      )
      .join('---\n'),
    'taints.yaml': noExecuteTaintPolicyDoc(),
    [`apps/${app}.yaml`]: `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${app}, namespace: shop}
spec:
  replicas: 2
  template:
    spec:
      containers: [{name: ${app}, image: ${app}:1}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: ${app}, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: ${app}}]
  placement:
${placement}
    clusterTolerations:
      - {key: cluster.karmada.io/unreachable, operator: Exists, effect: NoExecute, tolerationSeconds: 0}
`,
  };
}

const unknown: ClusterVerdict = {
  status: 'Unknown',
  reason: 'ClusterStatusUnknown',
  message: 'the agent stopped reporting',
};

/** The hub's failover with eviction on, one memory for the test, and verdicts the test sets. */
function failoverWith(verdicts: Map<string, ClusterVerdict>): HubFailover {
  return {
    settings: { ...defaultFailoverSettings, enableNoExecuteTaintEviction: true, resourceEvictionRate: 1000 },
    memory: newFailoverMemory(),
    verdicts: () => verdicts,
  };
}

function bindingsMessage(repo: Parameters<typeof git>[0]): string {
  return git(repo, ['log', '-1', '--format=%B', 'refs/heads/gitfleet/bindings']);
}

function record(repo: Parameters<typeof git>[0], path: string) {
  return yaml.load(branchFiles(repo, 'gitfleet/bindings').get(path)!) as {
    spec: { clusters?: { name: string }[]; gracefulEvictionTasks?: { fromCluster: string }[] };
  };
}

test('a cluster back within the grace period ends the eviction: the workload is scheduled there again and its copy never leaves', async () => {
  const repo = fleetRepoWith(fleet('api', '    clusterAffinity: {clusterNames: [member1]}'), { bare: false });
  const verdicts = new Map<string, ClusterVerdict>();
  const failover = failoverWith(verdicts);
  rendered(await hubPass(repo, { failover, now: at(0) }));
  for (const c of clusters) await commitReadyReport(repo, c, 'True');
  rendered(await hubPass(repo, { failover, now: at(1) }));
  const apiPath = 'shop/Deployment.apps/api.yaml';
  const copy = branchFiles(repo, 'gitfleet/clusters/member1').get(apiPath);
  assert.ok(copy, 'api runs on member1');

  // member1 goes quiet: evicted Gracefully, nowhere else to go, so its copy stays.
  verdicts.set('member1', unknown);
  const evicted = rendered(await hubPass(repo, { failover, now: at(60) }));
  assert.deepEqual(
    evicted.decisions?.filter((d) => d.type === 'Evicted').map((d) => [d.binding, d.cluster]),
    [['apps/Deployment/shop/api', 'member1']],
  );
  assert.deepEqual(
    record(repo, apiPath).spec.gracefulEvictionTasks?.map((t) => t.fromCluster),
    ['member1'],
  );
  assert.equal(branchFiles(repo, 'gitfleet/clusters/member1').get(apiPath), copy, 'the copy stays');

  // member1 is back a minute later (its report says Ready): the eviction ends in this pass.
  verdicts.delete('member1');
  const back = rendered(await hubPass(repo, { failover, now: at(120) }));
  assert.deepEqual(
    back.decisions?.filter((d) => d.type === 'EvictionDone').map((d) => [d.cluster, d.reason, d.copyKept]),
    [['member1', 'ClusterRecovered', true]],
  );
  const after = record(repo, apiPath).spec;
  assert.equal(after.gracefulEvictionTasks, undefined, 'the task is gone, long before the 10 min timeout');
  assert.deepEqual(
    after.clusters?.map((c) => c.name),
    ['member1'],
    'scheduled on member1 again',
  );
  assert.equal(branchFiles(repo, 'gitfleet/clusters/member1').get(apiPath), copy, 'the copy never left');
  const message = bindingsMessage(repo);
  assert.match(
    message,
    /^Gitfleet-Eviction-Done: Deployment\/shop\/api from member1: ClusterRecovered: member1 is Ready and fits the placement again, and no other cluster took the workload; scheduled on member1 again, so its copy stays /m,
  );
  assert.doesNotMatch(message, /copy is removed/);
});

test('every cluster judged Unknown at once: nothing is evicted, and the bindings commit says why', async () => {
  const repo = fleetRepoWith(
    fleet('web', '    clusterAffinity: {clusterNames: [member1, member2, member3]}'),
    { bare: false },
  );
  const verdicts = new Map<string, ClusterVerdict>();
  const failover = failoverWith(verdicts);
  rendered(await hubPass(repo, { failover, now: at(0) }));
  for (const c of clusters) await commitReadyReport(repo, c, 'True');
  rendered(await hubPass(repo, { failover, now: at(1) }));
  const webPath = 'shop/Deployment.apps/web.yaml';

  for (const c of clusters) verdicts.set(c, unknown);
  const quiet = rendered(await hubPass(repo, { failover, now: at(60) }));
  assert.deepEqual(
    quiet.decisions?.filter((d) => d.type === 'Evicted'),
    [],
    'no binding is evicted from any cluster',
  );
  assert.deepEqual(record(repo, webPath).spec.gracefulEvictionTasks, undefined);
  for (const c of clusters)
    assert.ok(branchFiles(repo, `gitfleet/clusters/${c}`).has(webPath), `web stays on ${c}`);
  assert.match(
    bindingsMessage(repo),
    /^Gitfleet-Fleet-Disruption: 3 of 3 clusters are not Ready \(member1, member2, member3\): no cluster is Ready; no NoExecute eviction /m,
  );
  // A later pass of the same disruption evicts nothing either, and says nothing new.
  const later = await hubPass(repo, { failover, now: at(600) });
  assert.equal(later.type, 'upToDate');
});
