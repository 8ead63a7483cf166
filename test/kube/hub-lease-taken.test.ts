// A hub with --leader-elect whose Lease another replica takes and then gives back
// (docs/production.md#leader-election), on a real Lease in a test cluster: the test writes
// another holder into the Lease; the hub notices at its next renewal and stands by, and a change
// to the fleet committed meanwhile is not rendered; the test releases the Lease; the hub leads
// again at its next try and renders the change, with git fsck clean. The render is checked to
// come from the new term: its commit is stamped no earlier than the second the hub led again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, removeTempDirs, tempDir } from '../git-server/git-cli.js';
import { eventually, inNamespace, testKubeConfig } from './test-clusters.js';
import { startProcess, writeLease, type Process } from './lease-processes.js';

const leaseName = 'gitfleet-hub';

function fleetFiles(value: string): Record<string, string> {
  return {
    'clusters.yaml':
      'apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: east}\nspec: {syncMode: Pull}\n',
    'apps/namespace.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n',
    'apps/config.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: config, namespace: shop}\ndata: {v: '${value}'}\n`,
    'apps/policy.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: all, namespace: shop}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]
  placement:
    clusterAffinity: {clusterNames: [east]}
`,
  };
}

async function commitFleet(repo: string, files: Record<string, string>, message: string): Promise<string> {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(repo, path, '..'), { recursive: true });
    writeFileSync(join(repo, path), content);
  }
  await git(repo, ['add', '-A']);
  await git(repo, ['commit', '-q', '-m', message]);
  return (await git(repo, ['rev-parse', 'HEAD'])).trim();
}

/** Returns the source commit the head of gitfleet/<branch> was rendered from. */
async function sourceOf(repo: string, branch: string): Promise<string | undefined> {
  const body = await git(repo, ['log', '-1', '--format=%B', `refs/heads/gitfleet/${branch}`]).catch(() => '');
  return /^Gitfleet-Source-Commit: ([0-9a-f]{40})$/m.exec(body)?.[1];
}

test('a hub whose Lease is taken stands by and renders nothing, and leads and converges again once the Lease is released', async () => {
  const kc = testKubeConfig();
  const kubeconfig = process.env['GITFLEET_TEST_KUBECONFIG']!;
  await inNamespace(kc, 'hub-lease-taken', async (namespace) => {
    const repo = join(tempDir('hub-lease-taken'), 'fleet');
    mkdirSync(repo, { recursive: true });
    await git(repo, ['-c', 'init.defaultBranch=main', 'init', '-q']);
    const first = await commitFleet(repo, fleetFiles('1'), 'v1');
    let hub: Process | undefined;
    try {
      hub = startProcess('hub', [
        ...['hub', '--repo', repo, '--interval', '1s', '--leader-elect'],
        ...['--leader-elect-kubeconfig', kubeconfig, '--leader-elect-resource-namespace', namespace],
        ...['--leader-elect-lease-duration', '4s', '--leader-elect-renew-deadline', '3s'],
        ...['--leader-elect-retry-period', '1s'],
      ]);
      const h = hub;
      await h.waitFor(/: leading as /);
      await eventually('the hub renders v1', async () =>
        (await sourceOf(repo, 'bindings')) === first ? true : undefined,
      );
      // The pass's report is printed after its refs moved: the lines after `taken` start after it.
      await h.waitFor(/hub: rendered .*\(v1\)/);

      const taken = h.lines().length;
      await eventually('the test takes the Lease', async () => {
        writeLease(namespace, leaseName, 'another-hub_00000000-0000-0000-0000-000000000000', 3600);
        return true;
      });
      await h.waitFor(
        /: lost the lease \(another-hub_[0-9a-f-]+ holds it now\); standing by$/,
        60_000,
        taken,
      );
      await h.waitFor(/standing by until this replica holds the lease/, 60_000, taken);
      const second = await commitFleet(repo, fleetFiles('2'), 'v2');
      // A leading hub renders a commit within a second (it watches the ref and resyncs every
      // second); standing by, it must not within five.
      await assert.rejects(
        eventually(
          'a standby hub renders v2',
          async () => ((await sourceOf(repo, 'bindings')) === second ? true : undefined),
          5_000,
        ),
        /a standby hub renders v2/,
        'the standby rendered v2',
      );
      assert.equal(await sourceOf(repo, 'bindings'), first);

      const back = h.lines().length;
      await eventually('the test releases the Lease', async () => {
        writeLease(namespace, leaseName, '', 1);
        return true;
      });
      const leads = await h.waitFor(/: leading as /, 60_000, back);
      await eventually(
        'the hub renders v2 once it leads again',
        async () => ((await sourceOf(repo, 'bindings')) === second ? true : undefined),
        60_000,
      );
      assert.equal(await sourceOf(repo, 'clusters/east'), second);
      const stamped = Number(await git(repo, ['log', '-1', '--format=%ct', 'refs/heads/gitfleet/bindings']));
      assert.ok(
        stamped * 1000 >= Math.floor(leads.at / 1000) * 1000,
        `v2 rendered in the new term (commit stamped ${stamped}, led again at ${leads.at})`,
      );
      assert.equal(
        h
          .lines()
          .slice(taken, back)
          .filter((l) => /^\S+Z hub: rendered /.test(l.text)).length,
        0,
        'no pass reported while standing by',
      );
      assert.equal((await git(repo, ['fsck', '--no-dangling'])).trim(), '', 'git fsck is clean');
    } catch (error) {
      if (hub) console.log(hub.output().split('\n').slice(-40).join('\n'));
      throw error;
    } finally {
      await hub?.stop('SIGTERM');
      removeTempDirs();
    }
  });
});
