// What an agent's start costs the fleet repository when its branch lives in a render
// repository (docs/git-budget.md#render-repositories), counted at git's own smart-HTTP server:
// the agent opened as `gitfleet agent --repo <fleet URL>` opens it (openAgentRepo), its first
// refresh learns the place from the bindings branch and reads the branch there. One fleet
// mirror serves both, so the start reads the fleet repository twice (an ls-refs and a fetch),
// not four times; a head that allows deletions on the cluster still brings the source commit
// it names into that mirror (one ls-refs and one fetch more), and the mirror's probe asks for
// the bindings branch.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { remoteHubRepo } from '../../src/adapters/remote/remote-hub-repo.js';
import { runHubPass } from '../../src/loops/hub/hub-pass.js';
import { RenderRepositories } from '../../src/loops/hub/render-repositories.js';
import { silentLogger } from '../../src/loops/runtime/logger.js';
import { openAgentRepo } from '../../src/cli/commands/agent-render-repo.js';
import { git, makeServedRepo, removeTempDirs, tempDir } from '../git-server/git-cli.js';
import { startGitServer, type GitServer } from '../git-server/start-git-server.js';
import { writeFiles } from '../support/chart-fixtures.js';

after(removeTempDirs);

const slow = { timeout: 300_000 };
const configMap =
  'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: web, namespace: shop }\ndata: { a: "1" }\n';

function gitIn(gitdir: string, args: readonly string[]): string {
  return execFileSync('git', ['--git-dir', gitdir, ...args], { encoding: 'utf8', stdio: 'pipe' }).trim();
}

/** The fleet (member1 on render repository a) pushed to a served fleet.git; returns the work tree too. */
async function serveFleet(
  opts: { render: boolean } = { render: true },
): Promise<{ server: GitServer; root: string; url: string; work: string }> {
  const root = tempDir('start-reads-served');
  for (const name of ['fleet.git', 'render-a.git']) makeServedRepo(root, name);
  const server = await startGitServer({ root });
  const files: Record<string, string> = {
    'fleet.yaml': `apiVersion: gitfleet.io/v1alpha1\nkind: FleetConfig\nmetadata: { name: fleet }\nspec:\n  renderRepositories:\n    - { name: a, url: "${server.url('render-a.git')}" }\n`,
    'clusters/member1.yaml':
      'apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: member1\n  labels: { gitfleet.io/render-repository: a }\n',
    'apps/ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata: { name: shop }\n',
    'apps/web.yaml': configMap,
    'apps/policy.yaml':
      'apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: { name: web, namespace: shop }\nspec:\n  resourceSelectors: [{ apiVersion: v1, kind: ConfigMap, name: web }]\n  placement: { clusterAffinity: { clusterNames: [member1] } }\n',
  };
  // Without render repositories the branch lives in the fleet repository, as before them.
  if (!opts.render) {
    files['fleet.yaml'] = 'apiVersion: gitfleet.io/v1alpha1\nkind: FleetConfig\nmetadata: { name: fleet }\n';
    files['clusters/member1.yaml'] =
      'apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: { name: member1 }\n';
  }
  const work = tempDir('start-reads-work');
  writeFiles(work, files);
  await git(work, ['-c', 'init.defaultBranch=main', 'init', '-q']);
  await git(work, ['add', '-A']);
  await git(work, ['commit', '-q', '-m', 'the fleet']);
  const url = server.url('fleet.git');
  await git(work, ['push', '-q', url, 'HEAD:main']);
  return { server, root, url, work };
}

/** Runs one hub pass over the served fleet, publishing member1's branch (in render-a.git, when the fleet names it). */
async function hubPass(url: string): Promise<void> {
  const cacheDir = tempDir('start-reads-hub');
  const open = (u: string) =>
    remoteHubRepo({
      url: u,
      cacheDir,
      mirrorKey: 'hub render',
      sourceRef: 'main',
      sourceOptional: true,
      branchPrefix: 'gitfleet/',
    });
  const result = await runHubPass({
    repo: remoteHubRepo({ url, cacheDir, sourceRef: 'main', branchPrefix: 'gitfleet/' }),
    sourceRef: 'main',
    identity: { name: 'gitfleet', email: 'hub@gitfleet.invalid' },
    now: () => new Date(1_700_000_100_000),
    log: silentLogger(),
    renderRepositories: new RenderRepositories({ open, log: silentLogger() }),
  });
  assert.equal(result.type, 'rendered', JSON.stringify(result));
}

/** Requests to a served repository since `from`, as `METHOD path`. */
function readsOf(server: GitServer, repo: string, from: number): string[] {
  return server.requests
    .slice(from)
    .filter((r) => r.path.startsWith(`/${repo}/`))
    .map((r) => `${r.method} ${r.path.slice(repo.length + 1)}${r.query}`);
}

/** member1's agent repository as the agent command opens it, in a cache of its own. */
function agentRepo(url: string) {
  return openAgentRepo({
    repo: url,
    cluster: 'member1',
    branchPrefix: 'gitfleet/',
    cacheDir: tempDir('start-reads-agent'),
    log: silentLogger(),
  });
}

/** member1's agent after its first refresh, and what that refresh read of each served repository. */
async function started(server: GitServer, url: string) {
  const where = await agentRepo(url);
  const from = server.requests.length;
  await where.refresh();
  return { where, fleet: readsOf(server, 'fleet.git', from), render: readsOf(server, 'render-a.git', from) };
}

const upload = 'POST /git-upload-pack';
const clusterBranch = 'refs/heads/gitfleet/clusters/member1';

test(
  'a starting agent whose branch lives in a render repository reads the fleet repository twice: one mirror learns the place and keeps the bindings branch',
  slow,
  async (t) => {
    const { server, root, url } = await serveFleet();
    t.after(() => server.close());
    await hubPass(url);
    const { where, fleet, render } = await started(server, url);
    assert.equal(where.location(), server.url('render-a.git'), 'the record names render-a');
    assert.deepEqual(fleet, [upload, upload], 'the fleet repository: an ls-refs and a fetch');
    assert.deepEqual(render, [upload, upload], 'the render repository: an ls-refs and a fetch');
    assert.equal(
      gitIn(where.gitdir, ['rev-parse', clusterBranch]),
      gitIn(join(root, 'render-a.git'), ['rev-parse', clusterBranch]),
    );
    const bindings = gitIn(join(root, 'fleet.git'), ['rev-parse', 'refs/heads/gitfleet/bindings']);
    assert.equal(gitIn(where.fleetRepo().gitdir, ['rev-parse', 'refs/heads/gitfleet/bindings']), bindings);
    assert.equal(
      where.mirrors().length,
      2,
      'one mirror of the fleet repository, one of the render repository',
    );

    const probe = (where.fleetRepo() as { probeSource?: () => Promise<string | null> }).probeSource;
    assert.equal(await probe?.(), bindings, "the fleet repository's probe asks for the bindings branch");

    const next = server.requests.length;
    await where.refresh();
    assert.deepEqual(readsOf(server, 'fleet.git', next), [upload], 'nothing moved: one ls-refs each');
    assert.deepEqual(readsOf(server, 'render-a.git', next), [upload]);
  },
);

test(
  'a start at a head that allows deletions on the cluster brings the source commit it names into the fleet mirror',
  slow,
  async (t) => {
    const { server, url, work } = await serveFleet();
    t.after(() => server.close());
    await hubPass(url);
    rmSync(join(work, 'apps/web.yaml'));
    await git(work, ['commit', '-q', '-a', '-m', 'drop web\n\nGitfleet-Allow-Deletions: member1']);
    await git(work, ['push', '-q', url, 'HEAD:main']);
    await hubPass(url);
    const source = (await git(work, ['rev-parse', 'HEAD'])).trim();
    const { where, fleet } = await started(server, url);
    assert.match(
      gitIn(where.gitdir, ['log', '-1', '--format=%B', clusterBranch]),
      /Gitfleet-Allow-Deletions: member1/,
    );
    assert.equal(
      gitIn(where.fleetRepo().gitdir, ['cat-file', '-t', source]),
      'commit',
      'the source commit is in the fleet mirror',
    );
    assert.equal(
      fleet.length,
      5,
      'the bindings read (ls-refs, fetch), then again with the allowance: ls-refs, and the source branch (ls-refs, fetch)',
    );
  },
);

test(
  'a starting agent whose branch lives in the fleet repository reads it twice too: an ls-refs and a fetch',
  slow,
  async (t) => {
    const { server, url } = await serveFleet({ render: false });
    t.after(() => server.close());
    await hubPass(url);
    const { where, fleet } = await started(server, url);
    assert.equal(where.location(), undefined, 'no render repository');
    assert.deepEqual(fleet, [upload, upload]);
    assert.equal(where.mirrors().length, 1);
  },
);
