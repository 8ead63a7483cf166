// `gitfleet agent --once` as a person or a CI job runs it: exit 0 when the branch's head is
// fully applied, 1 when something failed, 2 on a usage error, 5 when there is no branch to apply.
import { runCli, type CliRun } from '../cli/run-cli.js';
import { test } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import type { KubeObject } from '../../src/core/model/kube-object.js';
import { parseStatusBranch } from '../../src/core/status/status-branch.js';
import { readStatusFiles } from '../../src/loops/agent/write-status-branch.js';
import { aConfigMap, commitClusterBranch, makeBareRepo, testAgent } from './agent-fixture.js';
import { inNamespace, testKubeConfig, uniqueName } from './test-clusters.js';

function agentCli(args: string[]): Promise<CliRun> {
  return runCli(['agent', ...args]);
}

test('agent --once exits 0 when the head is fully applied, 1 when an object fails, 5 without a branch, 2 on a usage error', async (t) => {
  const repo = makeBareRepo();
  const cluster = uniqueName('t');
  // The same cluster name and repository as the CLI uses, for clean-up only.
  const cleanup = testAgent({ context: 'member2', name: cluster });
  t.after(async () => {
    await cleanup.dispose();
    repo.dispose();
  });
  const kubeconfig = process.env['GITFLEET_TEST_KUBECONFIG']!;
  const args = [
    '--repo',
    repo.dir,
    '--cluster',
    cluster,
    '--kubeconfig',
    kubeconfig,
    '--context',
    'member2',
    '--once',
  ];
  await inNamespace(testKubeConfig('member2'), 'agent-once', async (ns) => {
    const none = await agentCli(args);
    assert.equal(none.code, 5, none.stderr);
    assert.match(none.stdout + none.stderr, /no cluster branch yet/);

    await commitClusterBranch(repo.dir, cluster, [aConfigMap(ns, 'good', { a: '1' })]);
    const ok = await agentCli(args);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, new RegExp(`agent ${cluster}: applied [0-9a-f]{7}: 1 objects \\(1 created\\)`));

    // A ConfigMap whose data value is a number: the API server refuses it (a 500 from server-side apply).
    const bad: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'bad', namespace: ns },
      data: { n: 5 },
    };
    await commitClusterBranch(repo.dir, cluster, [aConfigMap(ns, 'good', { a: '1' }), bad]);
    const failed = await agentCli(args);
    assert.equal(failed.code, 1);
    assert.match(
      failed.stderr,
      new RegExp(`${ns}/ConfigMap/bad.yaml: apply failed: 500 Invalid \\[data\\.n\\]`),
    );

    const json = await agentCli([...args, '--output', 'json']);
    assert.equal(json.code, 1);
    const parsed = JSON.parse(json.stderr || json.stdout) as {
      fullyApplied: boolean;
      objects: { path: string; applied: boolean }[];
    };
    assert.equal(parsed.fullyApplied, false);
    assert.deepEqual(
      parsed.objects.map((o) => [o.path.split('/').pop(), o.applied]),
      [
        ['bad.yaml', false],
        ['good.yaml', true],
      ],
    );
  });
  const usage = await agentCli(['--repo', repo.dir, '--once']);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /--cluster NAME is required/);
});

test('agent --once against a cluster that does not answer exits 1 and reports the cluster NotReady', async (t) => {
  const repo = makeBareRepo();
  const dir = mkdtempSync(join(tmpdir(), 'gitfleet-kubeconfig-'));
  t.after(() => {
    repo.dispose();
    rmSync(dir, { recursive: true, force: true });
  });
  const kubeconfig = join(dir, 'config');
  // Port 1 on loopback: nothing listens there, the connection is refused at once.
  writeFileSync(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters: [{name: gone, cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}}]',
      'users: [{name: u, user: {token: t}}]',
      'contexts: [{name: gone, context: {cluster: gone, user: u}}]',
      'current-context: gone',
    ].join('\n'),
  );
  const cluster = uniqueName('t');
  await commitClusterBranch(repo.dir, cluster, [aConfigMap('default', 'x', { a: '1' })]);
  const run = await agentCli([
    '--repo',
    repo.dir,
    '--cluster',
    cluster,
    '--kubeconfig',
    kubeconfig,
    '--once',
  ]);
  assert.equal(run.code, 1);
  assert.match(run.stderr, /the cluster does not answer; reported NotReady/);
  const report = parseStatusBranch(await readStatusFiles(repo.dir, `refs/heads/gitfleet/status/${cluster}`));
  assert.deepEqual(report?.clusterStatus?.conditions?.[0], {
    type: 'Ready',
    status: 'False',
    reason: 'ClusterNotReachable',
    message: 'cluster is not reachable',
  });
  assert.equal(report?.conditions?.[0]?.reason, 'ClusterUnreachable');
});
