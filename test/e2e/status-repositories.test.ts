// Status repositories end to end, driven through the CLI as a user drives it: a fleet repository
// and two status repositories on a real smart-HTTP git server, `gitfleet hub --once`, `gitfleet
// agent --once` against real member clusters, `gitfleet status`. The agents write their status
// into the status repository the hub named in their branch; the fleet repository gets no status
// branch; the hub and `status` read them there. An agent sent to a status repository that
// refuses pushes (403; `--status-repo`, as the suite has two clusters) applies all the same, and
// says so.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, makeServedRepo, removeTempDirs, tempDir } from '../git-server/git-cli.js';
import { startGitServer, type GitServer } from '../git-server/start-git-server.js';
import { runCli } from '../cli/run-cli.js';
import { deleteNamespaceEverywhere, kubectl } from '../kube/agent-fixture.js';
import { uniqueName } from '../kube/test-clusters.js';

const token = 'e2e-status-token-7';
const ns = uniqueName('e2e-sr');
const slow = { timeout: 600_000 };
let server: GitServer;
let root: string;
let url: string;
let tokenFile: string;
const cacheDir = tempDir('e2e-sr-cache');

function refs(repo: string, prefix: string): string[] {
  return execFileSync('git', ['--git-dir', join(root, repo), 'for-each-ref', '--format=%(refname)', prefix], {
    encoding: 'utf8',
  })
    .split('\n')
    .filter(Boolean);
}

before(async () => {
  root = tempDir('e2e-sr-served');
  makeServedRepo(root, 'fleet.git');
  makeServedRepo(root, 'status-a.git');
  makeServedRepo(root, 'status-b.git');
  const refusing = makeServedRepo(root, 'status-ro.git');
  execFileSync('git', ['--git-dir', refusing, 'config', 'http.receivepack', 'false']);
  server = await startGitServer({ root, token });
  url = server.url('fleet.git');
  tokenFile = join(tempDir('e2e-sr-token'), 'token');
  writeFileSync(tokenFile, token);
  const work = tempDir('e2e-sr-work');
  const cluster = (name: string, repo: string) =>
    `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${name}\n  labels: { gitfleet.io/status-repository: ${repo} }\nspec: { syncMode: Pull }\n`;
  const files: Record<string, string> = {
    'fleet.yaml': `apiVersion: gitfleet.io/v1alpha1
kind: FleetConfig
metadata: { name: fleet }
spec:
  statusRepositories:
    - { name: a, url: "${server.url('status-a.git')}" }
    - { name: b, url: "${server.url('status-b.git')}" }
    - { name: ro, url: "${server.url('status-ro.git')}" }
`,
    'clusters/member1.yaml': cluster('member1', 'a'),
    'clusters/member2.yaml': cluster('member2', 'b'),
    'apps/app.yaml': `apiVersion: v1\nkind: Namespace\nmetadata: { name: ${ns} }\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: { name: web, namespace: ${ns} }\ndata: { a: "1" }\n`,
    'apps/policy.yaml': `apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: { name: web, namespace: ${ns} }\nspec:\n  resourceSelectors: [{ apiVersion: v1, kind: ConfigMap, name: web }]\n  placement: { clusterAffinity: { clusterNames: [member1, member2] } }\n`,
  };
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(work, path, '..'), { recursive: true });
    writeFileSync(join(work, path), content);
  }
  await git(work, ['-c', 'init.defaultBranch=main', 'init', '-q']);
  await git(work, ['add', '-A']);
  await git(work, ['commit', '-q', '-m', 'the fleet']);
  await git(work, ['-c', `http.extraHeader=Authorization: Bearer ${token}`, 'push', '-q', url, 'HEAD:main']);
});

after(async () => {
  deleteNamespaceEverywhere(ns);
  await server?.close();
  removeTempDirs();
});

const hubOnce = () =>
  runCli([
    'hub',
    '--once',
    '--repo',
    url,
    '--token-file',
    tokenFile,
    '--cache-dir',
    cacheDir,
    '--output',
    'json',
  ]);
const agentOnce = (cluster: string, ...more: string[]) =>
  runCli([
    'agent',
    '--once',
    '--repo',
    url,
    '--cluster',
    cluster,
    '--kubeconfig',
    process.env['GITFLEET_TEST_KUBECONFIG'] ?? '',
    '--context',
    cluster,
    '--token-file',
    tokenFile,
    '--cache-dir',
    cacheDir,
    ...more,
  ]);

test(
  'agents write status to their status repositories, none to the fleet repository; the hub and status read them; a refusing one is said and applying goes on',
  slow,
  async () => {
    const first = await hubOnce();
    assert.equal(first.code, 0, first.stderr);
    const seen = server.requests.length;
    for (const cluster of ['member1', 'member2']) {
      const run = await agentOnce(cluster);
      assert.equal(run.code, 0, `${cluster}: ${run.stderr}`);
    }
    // What the agents asked of each repository: reads of the fleet repository, pushes only to theirs.
    const pushes = (repo: string) =>
      server.requests.slice(seen).filter((r) => r.method === 'POST' && r.path === `/${repo}/git-receive-pack`)
        .length;
    assert.equal(pushes('fleet.git'), 0, 'no agent pushes to the fleet repository');
    assert.equal(pushes('status-a.git'), 1, "member1's status: one push");
    assert.equal(pushes('status-b.git'), 1, "member2's status: one push");
    // Drift the refused pass must still put back: applying does not wait for the status.
    kubectl(['delete', 'configmap', 'web', '-n', ns], { context: 'member2' });
    const refused = await agentOnce('member2', '--status-repo', server.url('status-ro.git'));
    assert.equal(refused.code, 1, 'a status that could not be written fails --once');
    assert.match(
      refused.stderr,
      /status repository http:\/\/127\.0\.0\.1:\d+\/status-ro\.git refuses the write: .*403/,
    );
    assert.ok(!refused.stderr.includes(token), 'the token is never printed');
    assert.equal(
      kubectl(['get', 'configmap', 'web', '-n', ns, '-o', 'name'], { context: 'member2' }).trim(),
      'configmap/web',
      'member2 is applied all the same',
    );
    assert.deepEqual(
      refs('fleet.git', 'refs/heads/gitfleet/status/'),
      [],
      'no status branch in the fleet repository',
    );
    assert.deepEqual(refs('status-a.git', 'refs/heads/gitfleet/status/'), [
      'refs/heads/gitfleet/status/member1',
    ]);
    assert.deepEqual(refs('status-b.git', 'refs/heads/gitfleet/status/'), [
      'refs/heads/gitfleet/status/member2',
    ]);
    const second = await hubOnce();
    assert.equal(second.code, 0, second.stderr);
    const bindings = execFileSync(
      'git',
      ['--git-dir', join(root, 'fleet.git'), 'log', '-1', '--format=%B', 'refs/heads/gitfleet/bindings'],
      { encoding: 'utf8' },
    );
    for (const cluster of ['member1', 'member2'])
      assert.match(bindings, new RegExp(`Gitfleet-Status-Commit: ${cluster}=`));
    const status = await runCli(['status', '--repo', url, '--token-file', tokenFile]);
    assert.equal(status.code, 0, status.stderr);
    // Ready, and applied what was rendered: read from status-a and status-b.
    assert.match(status.stdout, /^member1\s+True\s+(\w+)\s+\1\s/m);
    assert.match(status.stdout, /^member2\s+True\s+(\w+)\s+\1\s/m);
  },
);
