// End to end, the way a user drives gitfleet: a fleet repo on a real smart-HTTP git server
// (git's own http-backend), the hub rendering it through a fetched mirror, and one agent per
// real member cluster applying its branch over HTTP and reporting status back as commits.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { remoteHubRepo } from '../../src/adapters/remote/remote-hub-repo.js';
import { runHubPass } from '../../src/loops/hub/hub-pass.js';
import { createHubPassCache } from '../../src/loops/hub/hub-pass-cache.js';
import { silentLogger } from '../../src/loops/runtime/logger.js';
import { git, makeServedRepo, removeTempDirs, tempDir } from '../git-server/git-cli.js';
import { startGitServer, type GitServer } from '../git-server/start-git-server.js';
import { runCli } from '../cli/run-cli.js';
import { deleteNamespaceEverywhere, kubectl, testAgent, type TestAgent } from '../kube/agent-fixture.js';
import { eventually, uniqueName } from '../kube/test-clusters.js';

const token = 'e2e-fleet-token-42';
const ns = uniqueName('e2e');
const slow = { timeout: 600_000 };
let server: GitServer;
let served: string;
let url: string;
let work: string;
const hubCache = createHubPassCache();
const mirrors = tempDir('e2e-mirrors');
const agents = new Map<string, TestAgent>();

function fleetFiles(opts: { withExtra: boolean }): Record<string, string> {
  const cluster = (name: string) =>
    `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: { name: ${name} }\nspec: { syncMode: Pull }\n`;
  const files: Record<string, string> = {
    'clusters/member1.yaml': cluster('member1'),
    'clusters/member2.yaml': cluster('member2'),
    'apps/namespace.yaml': `apiVersion: v1\nkind: Namespace\nmetadata: { name: ${ns} }\n`,
    'apps/web.yaml': `apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: ${ns} }
spec:
  replicas: 2
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
      - { name: web, image: registry.example.com/web:1.0, envFrom: [{ configMapRef: { name: web-config } }] }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: web-config, namespace: ${ns} }
data: { LEVEL: info }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: fragile, namespace: ${ns} }
data: { a: "1" }
`,
    'policies.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: { name: web, namespace: ${ns} }
spec:
  propagateDeps: true
  resourceSelectors:
  - { apiVersion: apps/v1, kind: Deployment, name: web }
  - { apiVersion: v1, kind: ConfigMap, name: fragile }
  - { apiVersion: v1, kind: ConfigMap, name: extra }
  placement:
    replicaScheduling: { replicaSchedulingType: Divided }
---
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: { name: broken-on-member2, namespace: ${ns} }
spec:
  resourceSelectors: [{ apiVersion: v1, kind: ConfigMap, name: fragile }]
  overrideRules:
  - targetCluster: { clusterNames: [member2] }
    overriders:
      plaintext: [{ path: /data/missing, operator: replace, value: "2" }]
`,
  };
  if (opts.withExtra) {
    files['apps/extra.yaml'] =
      `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: extra, namespace: ${ns} }\ndata: { x: "1" }\n`;
  }
  return files;
}

async function pushFleet(files: Record<string, string>, message: string): Promise<void> {
  for (const dir of ['apps', 'clusters']) rmSync(join(work, dir), { recursive: true, force: true });
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(work, path, '..'), { recursive: true });
    writeFileSync(join(work, path), content);
  }
  await git(work, ['add', '-A']);
  await git(work, ['commit', '-q', '-m', message]);
  await git(work, ['-c', `http.extraHeader=Authorization: Bearer ${token}`, 'push', '-q', url, 'HEAD:main']);
}

function hubPass() {
  const repo = remoteHubRepo({ url, cacheDir: mirrors, token, sourceRef: 'main', branchPrefix: 'gitfleet/' });
  return runHubPass({
    repo,
    sourceRef: 'main',
    identity: { name: 'gitfleet', email: 'hub@gitfleet.invalid' },
    now: () => new Date(),
    log: silentLogger(),
    cache: hubCache,
  });
}

function agentOf(cluster: string): TestAgent {
  let agent = agents.get(cluster);
  if (!agent) {
    const repo = remoteHubRepo({
      url,
      cacheDir: tempDir(`e2e-agent-${cluster}`),
      token,
      sourceRef: `gitfleet/clusters/${cluster}`,
      branchPrefix: 'gitfleet/',
    });
    agent = testAgent({ context: cluster, repo, name: cluster });
    agents.set(cluster, agent);
  }
  return agent;
}

const exists = (context: string, kind: string, name: string) => {
  try {
    kubectl(['get', kind, name, '-n', ns, '-o', 'name'], { context });
    return true;
  } catch {
    return false;
  }
};

before(async () => {
  const root = tempDir('e2e-served');
  served = makeServedRepo(root, 'fleet.git');
  server = await startGitServer({ root, token });
  url = server.url('fleet.git');
  work = tempDir('e2e-work');
  await git(work, ['-c', 'init.defaultBranch=main', 'init', '-q']);
  await pushFleet(fleetFiles({ withExtra: true }), 'the fleet');
});

after(async () => {
  for (const agent of agents.values()) await agent.dispose().catch(() => undefined);
  deleteNamespaceEverywhere(ns);
  await server?.close();
  removeTempDirs();
});

test('a push converges both clusters; a bad override is reported for member2 only', slow, async () => {
  const pass = await hubPass();
  assert.equal(pass.type, 'rendered');
  if (pass.type !== 'rendered') return;
  assert.ok(
    pass.diagnostics.some((d) => d.code === 'OverrideFailed' && d.cluster === 'member2'),
    'the failing override is reported for member2',
  );
  for (const cluster of ['member1', 'member2']) {
    const result = await agentOf(cluster).pass();
    assert.equal(
      result.type,
      'applied',
      `${cluster}: ${JSON.stringify(result.objects.filter((o) => !o.applied))}`,
    );
    assert.ok(exists(cluster, 'deployment', 'web'), `${cluster} runs web`);
    assert.ok(exists(cluster, 'configmap', 'web-config'), `${cluster} has the dependency`);
  }
  assert.ok(exists('member1', 'configmap', 'fragile'), 'member1 converges despite member2');
  assert.ok(!exists('member2', 'configmap', 'fragile'), 'member2 gets nothing it cannot render');
});

test('the status branches name the applied commits and the bindings show FullyApplied', slow, async () => {
  for (const cluster of ['member1', 'member2']) {
    const applied = (await git(served, ['rev-parse', `refs/heads/gitfleet/clusters/${cluster}`])).trim();
    const message = await git(served, ['log', '-1', '--format=%B', `refs/heads/gitfleet/status/${cluster}`]);
    assert.match(message, new RegExp(`^Gitfleet-Applied-Commit: ${applied}$`, 'm'), message);
  }
  assert.equal((await hubPass()).type, 'rendered', 'new status commits are aggregated');
  const record = await git(served, ['show', `refs/heads/gitfleet/bindings:${ns}/Deployment.apps/web.yaml`]);
  assert.match(record, /type: FullyApplied/);
  assert.match(record, /message: All works have been successfully applied/);
  await git(served, ['fsck', '--strict']);
  const tokenFile = join(tempDir('e2e-token'), 'token');
  writeFileSync(tokenFile, token);
  const status = await runCli(['status', '--repo', url, '--token-file', tokenFile]);
  assert.equal(status.code, 0, status.stderr);
  assert.match(status.stdout, /web/);
  assert.match(status.stdout, /member1/);
  assert.ok(!status.stdout.includes(token) && !status.stderr.includes(token), 'the token is never printed');
});

test('a Deployment deleted by hand comes back, and a field changed by hand is reverted', slow, async () => {
  kubectl(['delete', 'deployment', 'web', '-n', ns], { context: 'member1' });
  kubectl(
    ['patch', 'configmap', 'web-config', '-n', ns, '--type=merge', '-p', '{"data":{"LEVEL":"debug"}}'],
    {
      context: 'member1',
    },
  );
  await agentOf('member1').pass();
  assert.ok(exists('member1', 'deployment', 'web'));
  const level = kubectl(['get', 'configmap', 'web-config', '-n', ns, '-o', 'jsonpath={.data.LEVEL}'], {
    context: 'member1',
  });
  assert.equal(level, 'info');
});

test('a template removed from the repo is pruned from both clusters', slow, async () => {
  for (const cluster of ['member1', 'member2']) assert.ok(exists(cluster, 'configmap', 'extra'));
  await pushFleet(fleetFiles({ withExtra: false }), 'drop extra');
  assert.equal((await hubPass()).type, 'rendered');
  for (const cluster of ['member1', 'member2']) {
    await agentOf(cluster).pass();
    await eventually(`extra pruned from ${cluster}`, async () =>
      exists(cluster, 'configmap', 'extra') ? undefined : true,
    );
    assert.ok(exists(cluster, 'deployment', 'web'), `${cluster} keeps web`);
  }
});
