// Render repositories end to end, run as a user runs them: a fleet repository and three render
// repositories on git's smart-HTTP server (token required, requests counted per repository),
// `gitfleet hub` and one `gitfleet agent` per test cluster as long-running processes given
// only --repo (no --render-repo: each agent learns its repository from the bindings branch).
//
//   1. the hub writes member1's branch to render-a and member2's to render-b, none to the fleet
//      repository; both agents apply from there (and their branch polls read there);
//   2. member2 is sent to render-ro, which refuses pushes (403): the hub says so, keeps
//      member2 where it was (its records, a Gitfleet-Render-Held trailer) and still publishes
//      member1's new state; member2's agent keeps its last applied state and deletes nothing;
//   3. render-ro takes pushes again: member2's branch continues there, render-b gets a
//      tombstone, and member2's agent follows it without deleting anything.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, makeServedRepo, removeTempDirs, tempDir } from '../git-server/git-cli.js';
import { startGitServer, type GitServer } from '../git-server/start-git-server.js';
import { deleteNamespaceEverywhere, kubectl } from '../kube/agent-fixture.js';
import { eventually, uniqueName } from '../kube/test-clusters.js';
import { startFleet, type RunningFleet } from '../support/running-fleet.js';

const token = 'e2e-render-token-5';
const ns = uniqueName('e2e-rr');
const slow = { timeout: 900_000 };
let server: GitServer;
let root: string;
let url: string;
let work: string;
let fleet: RunningFleet | undefined;

function served(repo: string, args: readonly string[]): string {
  return execFileSync('git', ['--git-dir', join(root, repo), ...args], {
    encoding: 'utf8',
    stdio: 'pipe',
  }).trim();
}

function clusterBranches(repo: string): string[] {
  return served(repo, ['for-each-ref', '--format=%(refname)', 'refs/heads/gitfleet/clusters/'])
    .split('\n')
    .filter(Boolean);
}

function level(cluster: string): string | undefined {
  try {
    return kubectl(['get', 'configmap', 'web', '-n', ns, '-o', 'jsonpath={.data.level}'], {
      context: cluster,
    });
  } catch {
    return undefined;
  }
}

function uid(cluster: string): string {
  return kubectl(['get', 'configmap', 'web', '-n', ns, '-o', 'jsonpath={.metadata.uid}'], {
    context: cluster,
  });
}

/** Reads (upload-pack requests and advertisements) a served repository received since `from`. */
function readsOf(repo: string, from: number): number {
  return server.requests
    .slice(from)
    .filter((r) => r.path.startsWith(`/${repo}/`) && `${r.path}${r.query}`.includes('git-upload-pack'))
    .length;
}

async function pushFleet(member2: string, levelValue: string, message: string): Promise<void> {
  const cluster = (name: string, repo: string) =>
    `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: ${name}\n  labels: { gitfleet.io/render-repository: ${repo} }\nspec: { syncMode: Pull }\n`;
  const files: Record<string, string> = {
    'fleet.yaml': `apiVersion: gitfleet.io/v1alpha1
kind: FleetConfig
metadata: { name: fleet }
spec:
  renderRepositories:
    - { name: a, url: "${server.url('render-a.git')}" }
    - { name: b, url: "${server.url('render-b.git')}" }
    - { name: ro, url: "${server.url('render-ro.git')}" }
`,
    'clusters/member1.yaml': cluster('member1', 'a'),
    'clusters/member2.yaml': cluster('member2', member2),
    'apps/app.yaml': `apiVersion: v1\nkind: Namespace\nmetadata: { name: ${ns} }\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: { name: web, namespace: ${ns} }\ndata: { level: "${levelValue}" }\n`,
    'apps/policy.yaml': `apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: { name: web, namespace: ${ns} }\nspec:\n  resourceSelectors: [{ apiVersion: v1, kind: ConfigMap, name: web }]\n  placement: { clusterAffinity: { clusterNames: [member1, member2] } }\n`,
  };
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(work, path, '..'), { recursive: true });
    writeFileSync(join(work, path), content);
  }
  await git(work, ['add', '-A']);
  await git(work, ['commit', '-q', '-m', message]);
  await git(work, ['-c', `http.extraHeader=Authorization: Bearer ${token}`, 'push', '-q', url, 'HEAD:main']);
}

before(async () => {
  root = tempDir('e2e-rr-served');
  for (const name of ['fleet.git', 'render-a.git', 'render-b.git', 'render-ro.git'])
    makeServedRepo(root, name);
  server = await startGitServer({ root, token });
  url = server.url('fleet.git');
  work = tempDir('e2e-rr-work');
  await git(work, ['-c', 'init.defaultBranch=main', 'init', '-q']);
  await pushFleet('b', '1', 'the fleet');
});

after(async () => {
  await fleet?.stop();
  deleteNamespaceEverywhere(ns);
  await server?.close();
  removeTempDirs();
});

test(
  'the hub writes cluster branches to two render repositories, agents apply from there, and a render repository answering 403 holds its cluster only',
  slow,
  async () => {
    const tokenFile = join(tempDir('e2e-rr-token'), 'token');
    writeFileSync(tokenFile, token);
    const common = ['--token-file', tokenFile, '--log-format', 'text'];
    fleet = startFleet(url, ['member1', 'member2'], process.env['GITFLEET_TEST_KUBECONFIG']!, {
      hub: [...common, '--cache-dir', tempDir('e2e-rr-hub')],
      agent: [...common, '--cache-dir', tempDir('e2e-rr-agents'), '--branch-poll', '1s'],
    });
    // 1. Both clusters apply from their render repositories; the fleet repository holds no cluster branch.
    for (const cluster of ['member1', 'member2'])
      await eventually(`${cluster} applies level 1`, () =>
        Promise.resolve(level(cluster) === '1' ? true : undefined),
      );
    assert.deepEqual(clusterBranches('render-a.git'), ['refs/heads/gitfleet/clusters/member1']);
    assert.deepEqual(clusterBranches('render-b.git'), ['refs/heads/gitfleet/clusters/member2']);
    assert.deepEqual(
      clusterBranches('fleet.git'),
      [],
      'the fleet repository holds no cluster branch: no agent reads one there',
    );
    const idle = server.requests.length;
    await eventually('the agents poll their render repositories', () =>
      Promise.resolve(
        readsOf('render-a.git', idle) >= 3 && readsOf('render-b.git', idle) >= 3 ? true : undefined,
      ),
    );
    const member2Uid = uid('member2');
    // 2. member2 to render-ro, which refuses pushes, with a new level for both.
    served('render-ro.git', ['config', 'http.receivepack', 'false']);
    await pushFleet('ro', '2', 'member2 to render-ro, level 2');
    await eventually('member1 applies level 2', () =>
      Promise.resolve(level('member1') === '2' ? true : undefined),
    );
    await eventually('the hub records member2 held', () =>
      Promise.resolve(
        /Gitfleet-Render-Held: member2: render repository .*render-ro\.git refused the write: .*403/.test(
          served('fleet.git', ['log', '-1', '--format=%B', 'gitfleet/bindings']),
        )
          ? true
          : undefined,
      ),
    );
    assert.match(fleet.output(), /render repository .*render-ro\.git refused the write: .*403/);
    assert.ok(!fleet.output().includes(token), 'the token is never printed');
    assert.deepEqual(clusterBranches('render-ro.git'), []);
    assert.equal(level('member2'), '1', 'member2 keeps its last applied state');
    assert.equal(uid('member2'), member2Uid, 'nothing of member2 was deleted');
    assert.equal(
      served('fleet.git', ['show', 'gitfleet/bindings:.gitfleet/render-repositories/member2']),
      server.url('render-b.git'),
      'the record still says render-b: the move was not published',
    );
    // 3. render-ro takes pushes: member2's branch continues there, render-b keeps a tombstone, the agent follows.
    const before = served('render-b.git', ['rev-parse', 'gitfleet/clusters/member2']);
    served('render-ro.git', ['config', 'http.receivepack', 'true']);
    await eventually(
      'member2 applies level 2 from render-ro',
      () => Promise.resolve(level('member2') === '2' ? true : undefined),
      300_000,
    );
    const moved = served('render-ro.git', ['rev-parse', 'gitfleet/clusters/member2']);
    assert.equal(
      served('render-ro.git', ['rev-parse', `${moved}^`]),
      before,
      'history continued from render-b',
    );
    assert.match(
      served('render-b.git', ['show', 'gitfleet/clusters/member2:.gitfleet/tombstone.yaml']),
      /reason: Moved/,
    );
    assert.equal(uid('member2'), member2Uid, 'the move deleted nothing');
    assert.deepEqual(clusterBranches('fleet.git'), []);
    assert.deepEqual(fleet.unexpectedExits(), []);
  },
);
