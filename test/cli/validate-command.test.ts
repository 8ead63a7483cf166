import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, test } from 'node:test';
import { aFleetDir } from '../faults/fleet-dir.js';
import { runCli } from './run-cli.js';
import { testGitEnv } from '../git-env.js';

const dir = aFleetDir();
after(() => dir.remove());

const fleetConfig = (branchPrefix: string) =>
  `apiVersion: gitfleet.io/v1alpha1\nkind: FleetConfig\nmetadata: {name: fleet}\nspec: {branchPrefix: ${JSON.stringify(branchPrefix)}}\n`;

test('validate refuses a branchPrefix under the source branch, as the hub would.', async () => {
  dir.write('fleet.yaml', fleetConfig('main/'));
  const run = await runCli(['validate', dir.fleet]);
  assert.equal(run.code, 1);
  assert.match(
    run.stderr,
    /spec\.branchPrefix: "main\/": puts gitfleet's branches under the source branch main/,
  );
});

test('validate refuses a branchPrefix with control characters and prints them escaped.', async () => {
  dir.write('fleet.yaml', fleetConfig('fleet\u0000\u001b[2J/'));
  const run = await runCli(['validate', dir.fleet]);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /spec\.branchPrefix: "fleet\\u0000\\u001b\[2J\/": not a usable git branch prefix/);
  assert.ok(![...run.stderr].some((c) => c < ' ' && c !== '\n'), 'no raw control character');
});

test('validate accepts a usable branchPrefix.', async () => {
  dir.write('fleet.yaml', fleetConfig('fleet'));
  const run = await runCli(['validate', dir.fleet]);
  assert.equal(run.code, 0, run.stderr);
});

test('hub --once refuses the same branchPrefix with the same message, before writing anything.', async () => {
  dir.write('fleet.yaml', fleetConfig('main/'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir.fleet, env: testGitEnv });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-qm', 'fleet');
  const run = await runCli(['hub', '--repo', dir.fleet, '--once']);
  assert.equal(run.code, 1);
  assert.match(
    run.stderr,
    /spec\.branchPrefix: "main\/": puts gitfleet's branches under the source branch main/,
  );
  assert.equal(git('for-each-ref', 'refs/heads/main/').toString(), '');
});

test('validate of a fleet with a ServiceExport and a ServiceImport warns of nothing it cannot know without status', async () => {
  const mcs = aFleetDir();
  try {
    mcs.write(
      'clusters.yaml',
      ['member1', 'member2']
        .map(
          (n) => `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: ${n}}\nspec: {}\n`,
        )
        .join('---\n'),
    );
    mcs.write('apps.yaml', '');
    mcs.write(
      'shop.yaml',
      `apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec: {ports: [{port: 80}]}
---
apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceExport
metadata: {name: web, namespace: shop}
---
apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceImport
metadata: {name: web, namespace: shop}
spec: {type: ClusterSetIP, ports: [{port: 80, protocol: TCP}]}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: export, namespace: shop}
spec:
  resourceSelectors:
    - {apiVersion: v1, kind: Service, name: web}
    - {apiVersion: multicluster.x-k8s.io/v1alpha1, kind: ServiceExport, name: web}
  placement: {clusterAffinity: {clusterNames: [member1]}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: import, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: multicluster.x-k8s.io/v1alpha1, kind: ServiceImport, name: web}]
  placement: {clusterAffinity: {clusterNames: [member2]}}
`,
    );
    const run = await runCli(['validate', mcs.fleet]);
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stdout + run.stderr, /exported nowhere|warning:/);
    assert.match(run.stdout, /diagnostics: 0 errors, 0 warnings, 1 info/);
    assert.match(
      run.stdout,
      /info: ServiceImport\/shop\/web: its ServiceExport is placed on member1; whether their agents report endpoints of it is known from their status branches/,
    );
  } finally {
    mcs.remove();
  }
});
