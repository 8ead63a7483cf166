// `gitfleet status` as text names the source commit the fleet is at, and says replicas as a
// person would: a Duplicated template's count on each cluster, a Divided one's split. Real hub
// passes write the branches; the real CLI prints.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { fleetRepoWith, git, hubPass, rendered, removeFleetRepos } from '../loops/hub/hub-fixture.js';
import { clusterDoc } from './status-fixture.js';
import { runCli } from './run-cli.js';

after(removeFleetRepos);

function deployment(name: string, replicas: number, placement: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}, namespace: shop}
spec:
  replicas: ${replicas}
  template: {spec: {containers: [{name: ${name}, image: ${name}:1}]}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: ${name}, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: ${name}}]
  placement:
${placement}
`;
}

const fleet = {
  'clusters/all.yaml': ['m1', 'm2', 'm3'].map(clusterDoc).join('---\n'),
  'apps/api.yaml': deployment(
    'api',
    2,
    '    clusterAffinity: {clusterNames: [m1, m2, m3]}\n    replicaScheduling: {replicaSchedulingType: Duplicated}',
  ),
  'apps/web.yaml': deployment(
    'web',
    6,
    `    clusterAffinity: {clusterNames: [m1, m2, m3]}
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
        - {targetCluster: {clusterNames: [m1, m2, m3]}, weight: 1}`,
  ),
  'apps/db.yaml': deployment('db', 3, '    clusterAffinity: {clusterNames: [m1]}'),
};

test('status names the source commit the fleet is at, id and subject, and reads replicas as placed', async () => {
  const repo = fleetRepoWith(fleet, { bare: false });
  rendered(await hubPass(repo));
  const source = git(repo, ['rev-parse', 'main']).trim();
  const subject = git(repo, ['log', '-1', '--format=%s', 'main']).trim();
  const bindings = git(repo, ['rev-parse', 'gitfleet/bindings']).trim();
  const { code, stdout, stderr } = await runCli(['status', '--repo', repo.path]);
  assert.equal(code, 0, stderr);
  const lines = stdout.split('\n');
  assert.match(
    lines[0]!,
    new RegExp(
      `^fleet at main ${source.slice(0, 7)} ${subject} \\(rendered \\S+ ago; bindings ${bindings.slice(0, 7)}\\)$`,
    ),
  );
  const replicasOf = (template: string) =>
    /^\S+ +\d+ +(.+?) {2,}/.exec(lines.find((l) => l.startsWith(`${template} `)) ?? '')?.[1];
  assert.equal(replicasOf('Deployment/shop/api'), '2 each on 3 clusters', stdout);
  assert.equal(replicasOf('Deployment/shop/web'), '6 (m1:2 m2:2 m3:2)', stdout);
  assert.equal(replicasOf('Deployment/shop/db'), '3 on m1', stdout);
  const wide = await runCli(['status', '--repo', repo.path, '--wide']);
  assert.equal(wide.stdout.split('\n')[0], lines[0], 'the matrix starts with the same line');
  const json = JSON.parse((await runCli(['status', '--repo', repo.path, '-o', 'json'])).stdout) as Record<
    string,
    unknown
  >;
  assert.deepEqual(
    [json.sourceCommit, json.sourceRef, json.sourceSubject],
    [source, 'refs/heads/main', subject],
  );
});
