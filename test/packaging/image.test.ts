// The container image as the deploy manifests run it (docs/production.md#the-container-image):
// built from the Dockerfile by scripts/build-image.sh (a local base where no registry is
// reachable), then run with the Deployments' security context: uid 1000, a read-only root
// filesystem, only /tmp writable besides the volumes mounted in. In it: `gitfleet --help`,
// the hub over the bundled example fleet (a repository mounted in, as the cache emptyDir is),
// and the agent against a test cluster (started here through the harness, reached over the
// host's network with a kubeconfig mounted in), which must apply the cluster's branch.
//
// Skipped, saying why, where podman is not installed (.ci/run installs it). The build is the
// slow part: a few minutes cold, less with the base cached under ~/.cache/gitfleet.
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, cpSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KubeConfig, AppsV1Api } from '@kubernetes/client-node';
import { repoRoot } from '../clusters/harness/ensure-binaries.js';
import { withTestClusters } from '../clusters/harness/with-test-clusters.js';
import { runGit } from '../support/run-git.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

const root = repoRoot();
const uid = 1000;

/** Why the image cannot be built here, or undefined when it can. */
function whyNot(): string | undefined {
  const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
  if (!has('podman')) return 'podman is not installed (apt-get install -y podman runc debootstrap)';
  if (process.getuid?.() !== 0) return 'the image test runs podman as root, as .ci/run does';
  return undefined;
}

/** The podman flags scripts/podman-flags.sh sets: global, build, run. */
function podmanFlags(): { global: string[]; run: string[] } {
  const [global = '', , run = ''] = execFileSync('bash', [join(root, 'scripts/podman-flags.sh'), '--print'], {
    encoding: 'utf8',
  }).split('\n');
  const words = (s: string) => s.split(' ').filter((w) => w !== '');
  return { global: words(global), run: words(run) };
}

const skip = whyNot();

describe('the container image', { skip }, () => {
  let image = '';
  let flags = { global: [] as string[], run: [] as string[] };
  /** Runs the image as the Deployments do: uid 1000, read-only root, /tmp writable, plus `extra`. */
  const runImage = (extra: string[], args: string[]): SpawnSyncReturns<string> =>
    spawnSync(
      'podman',
      [
        ...flags.global,
        'run',
        '--rm',
        ...flags.run,
        '--read-only',
        '--user',
        `${uid}:${uid}`,
        '--tmpfs',
        '/tmp',
        ...extra,
        image,
        ...args,
      ],
      { encoding: 'utf8', timeout: 300_000 },
    );

  before(() => {
    flags = podmanFlags();
    const built = spawnSync('bash', [join(root, 'scripts/build-image.sh')], {
      encoding: 'utf8',
      timeout: 30 * 60_000,
      env: { ...process.env, GITFLEET_IMAGE: 'localhost/gitfleet:test' },
    });
    assert.equal(built.status, 0, `scripts/build-image.sh failed:\n${built.stderr.slice(-4000)}`);
    image = built.stdout.trim().split('\n').pop()!;
  });
  after(removeTempDirs);

  test('runs as the user node, uid 1000, by default, and gitfleet --help works under the Deployments’ security context', () => {
    const config = execFileSync(
      'podman',
      [...flags.global, 'image', 'inspect', '--format', '{{.Config.User}}', image],
      { encoding: 'utf8' },
    ).trim();
    assert.equal(config, 'node');
    const id = spawnSync(
      'podman',
      [...flags.global, 'run', '--rm', ...flags.run, '--entrypoint', 'id', image, '-u'],
      {
        encoding: 'utf8',
      },
    );
    assert.equal(id.stdout.trim(), String(uid), id.stderr);
    const help = runImage([], ['--help']);
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /gitfleet hub/);
    assert.match(help.stdout, /gitfleet agent/);
  });

  test('the hub renders the bundled example into a mounted repository with a read-only root filesystem', () => {
    const fleet = exampleRepo();
    const hub = runImage(['-v', `${fleet}:/fleet`], ['hub', '--repo', '/fleet', '--once']);
    assert.equal(hub.status, 0, `${hub.stdout}\n${hub.stderr}`);
    const branches = git(fleet, ['branch', '--list', 'gitfleet/*']);
    assert.match(branches, /gitfleet\/bindings/);
    assert.match(branches, /gitfleet\/clusters\/aws-eu-prod/);
    git(fleet, ['fsck', '--strict']);
    assert.match(
      git(fleet, ['ls-tree', '-r', '--name-only', 'gitfleet/clusters/aws-eu-prod']),
      /shop\/Deployment\.apps\/web\.yaml/,
    );
  });

  test('helm and kustomize are in the image at their pinned versions, and the hub in it renders a fleet of a chart and an overlay', () => {
    const helm = runImage(['--entrypoint', 'helm'], ['version', '--template', '{{.Version}}']);
    assert.equal(helm.stdout.trim(), 'v4.3.2', helm.stderr);
    const kustomize = runImage(['--entrypoint', 'kustomize'], ['version']);
    assert.equal(kustomize.stdout.trim(), 'v5.8.2', kustomize.stderr);
    const fleet = exampleRepo('examples/sources-fleet');
    const hub = runImage(['-v', `${fleet}:/fleet`], ['hub', '--repo', '/fleet', '--once']);
    assert.equal(hub.status, 0, `${hub.stdout}\n${hub.stderr}`);
    git(fleet, ['fsck', '--strict']);
    const show = (path: string) => git(fleet, ['show', `gitfleet/clusters/member2:${path}`]);
    assert.match(show('storefront/ConfigMap/storefront-settings.yaml'), /GREETING: bonjour/);
    assert.match(
      git(fleet, ['ls-tree', '-r', '--name-only', 'gitfleet/clusters/member1']),
      /storefront\/Service\/storefront-web\.yaml/,
    );
  });

  test('the agent in the image applies its cluster branch to a test cluster', async () => {
    const fleet = exampleRepo();
    const hub = runImage(['-v', `${fleet}:/fleet`], ['hub', '--repo', '/fleet', '--once']);
    assert.equal(hub.status, 0, hub.stderr);
    await withTestClusters({ count: 1, controllers: false }, async (env) => {
      const kubeconfig = join(tempDir('image-kube'), 'config');
      copyFileSync(env['GITFLEET_TEST_KUBECONFIG']!, kubeconfig);
      chownSync(kubeconfig, uid, uid);
      const agent = runImage(
        ['-v', `${fleet}:/fleet`, '-v', `${kubeconfig}:/kube/config:ro`],
        ['agent', '--repo', '/fleet', '--cluster', 'aws-eu-prod', '--kubeconfig', '/kube/config', '--once'],
      );
      assert.equal(agent.status, 0, `${agent.stdout}\n${agent.stderr}`);
      assert.match(agent.stdout, /agent aws-eu-prod: applied [0-9a-f]{7}: \d+ objects/);
      assert.match(agent.stdout, /status written/);
      const kc = new KubeConfig();
      kc.loadFromFile(kubeconfig);
      const web = await kc
        .makeApiClient(AppsV1Api)
        .readNamespacedDeployment({ name: 'web', namespace: 'shop' });
      assert.ok(
        web.metadata?.managedFields?.some((f) => f.manager === 'gitfleet' && f.operation === 'Apply'),
        'web is server-side applied by the agent in the image',
      );
      assert.match(
        git(fleet, ['log', '--format=%an', '-1', 'gitfleet/status/aws-eu-prod']),
        /agent aws-eu-prod/,
      );
    });
  });
});

/** Returns a repository holding an example fleet (examples/fleet-repo) on main, owned by the image's user. */
function exampleRepo(example = 'examples/fleet-repo'): string {
  const dir = tempDir('image-fleet');
  chmodSync(dir, 0o755);
  cpSync(join(root, example), dir, { recursive: true });
  runGit(['-c', 'init.defaultBranch=main', 'init', '-q'], { cwd: dir });
  runGit(['add', '-A'], { cwd: dir });
  runGit(['commit', '-q', '-m', 'the bundled example fleet'], { cwd: dir });
  chownTree(dir, uid);
  return dir;
}

function chownTree(path: string, id: number): void {
  chownSync(path, id, id);
  if (statSync(path).isDirectory()) for (const e of readdirSync(path)) chownTree(join(path, e), id);
}

/** git on the host, over a repository the container's user owns. */
function git(dir: string, args: string[]): string {
  return runGit(['-c', 'safe.directory=*', ...args], { cwd: dir });
}
