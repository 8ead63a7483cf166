// Two `gitfleet hub --leader-elect` processes on one fleet repository, electing their leader
// through a Lease in a test cluster (docs/production.md#leader-election): one leads and renders,
// the other stands by; the leader is killed (SIGKILL) while it renders a change to every object
// of a fleet big enough that a pass takes seconds; the standby takes over once the lease has
// gone unrenewed for its duration, renders the change, and the branches are consistent: git fsck
// is clean, every branch is at the render of the old or the new source commit, and the bindings
// branch names cluster commits that the cluster branches hold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, removeTempDirs, tempDir } from '../git-server/git-cli.js';
import { eventually, inNamespace, testKubeConfig } from './test-clusters.js';
import { kubectl } from './agent-fixture.js';
import { startProcess, type Process } from './lease-processes.js';

const clusters = Array.from({ length: 10 }, (_, i) => `c${String(i + 1).padStart(2, '0')}`);
const configMaps = 1500;
// Short timings so the test is quick; the rules are the same as with the defaults.
const leaseDurationS = 4;
const retryPeriodS = 1;

function fleetFiles(value: string): Record<string, string> {
  const files: Record<string, string> = {
    'clusters.yaml': clusters
      .map(
        (c) =>
          `apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: ${c}}\nspec: {syncMode: Pull}\n`,
      )
      .join('---\n'),
    'apps/namespace.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata: {name: big}\n',
    'apps/policy.yaml': `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: all, namespace: big}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]
  placement:
    clusterAffinity: {clusterNames: [${clusters.join(', ')}]}
`,
  };
  for (let i = 0; i < configMaps; i++) {
    const name = `cm-${String(i).padStart(4, '0')}`;
    files[`apps/${name}.yaml`] =
      `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${name}, namespace: big}\ndata: {v: '${value}'}\n`;
  }
  return files;
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

interface LeaseSpec {
  holderIdentity: string;
  acquireTime: string;
  renewTime: string;
  leaseTransitions?: number;
}

/** The hub's Lease as the API server holds it. */
function leaseOf(namespace: string): LeaseSpec {
  const lease = JSON.parse(kubectl(['get', 'lease', 'gitfleet-hub', '-n', namespace, '-o', 'json'])) as {
    spec: LeaseSpec;
  };
  return lease.spec;
}

/** Returns the source commit a hub branch's head was rendered from (its Gitfleet-Source-Commit trailer). */
async function sourceOf(repo: string, branch: string): Promise<string | undefined> {
  const body = await git(repo, ['log', '-1', '--format=%B', `refs/heads/gitfleet/${branch}`]).catch(() => '');
  return /^Gitfleet-Source-Commit: ([0-9a-f]{40})$/m.exec(body)?.[1];
}

test('two hubs with --leader-elect: the standby takes over from a leader killed mid-pass, and the branches stay consistent', async () => {
  const kc = testKubeConfig();
  const kubeconfig = process.env['GITFLEET_TEST_KUBECONFIG']!;
  await inNamespace(kc, 'hub-lease', async (namespace) => {
    const repo = join(tempDir('hub-lease'), 'fleet');
    mkdirSync(repo, { recursive: true });
    await git(repo, ['-c', 'init.defaultBranch=main', 'init', '-q']);
    const first = await commitFleet(repo, fleetFiles('1'), 'v1');
    const hubArgs = [
      ...['hub', '--repo', repo, '--interval', '1s', '--leader-elect'],
      ...['--leader-elect-kubeconfig', kubeconfig, '--leader-elect-resource-namespace', namespace],
      ...['--leader-elect-lease-duration', `${leaseDurationS}s`, '--leader-elect-renew-deadline', '3s'],
      ...['--leader-elect-retry-period', `${retryPeriodS}s`],
    ];
    const hubs: Process[] = [];
    try {
      const a = startProcess('hub-a', hubArgs);
      hubs.push(a);
      const aLeads = await a.waitFor(/: leading as \S+$/);
      const aIdentity = /: leading as (\S+)$/.exec(aLeads.text)![1];
      const b = startProcess('hub-b', hubArgs);
      hubs.push(b);
      await b.waitFor(/: held by .*; standing by$/);
      await eventually('the leader renders v1', async () =>
        (await sourceOf(repo, 'bindings')) === first ? true : undefined,
      );
      assert.equal(
        b.lines().some((l) => /rendered/.test(l.text)),
        false,
        'the standby rendered nothing',
      );

      // A change to every object: the leader's pass rewrites 10 branches of 1,501 objects.
      const linesBefore = a.lines().length;
      const second = await commitFleet(repo, fleetFiles('2'), 'v2');
      // The ref watcher starts the pass at once, and it takes seconds on this fleet: the leader is
      // killed 1.5 s into it (the pass writes every branch at its end, so no branch shows when it
      // is under way); the line below says whether the kill came before or after the leader's v2
      // pass ended, and the checks after it hold either way.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await a.stop('SIGKILL');
      const killedAt = Date.now();
      const lastRenewal = leaseOf(namespace);
      const bindingsAtKill = await sourceOf(repo, 'bindings');
      const aFinished = a
        .lines()
        .slice(linesBefore)
        .some((l) => /^\S+Z hub: rendered .*\(v2\)/.test(l.text));

      const took = await b.waitFor(/: leading as /, 60_000);
      const taken = leaseOf(namespace);
      await eventually(
        'the new leader renders v2',
        async () => ((await sourceOf(repo, 'bindings')) === second ? true : undefined),
        120_000,
      );
      console.log(
        `takeover ${took.at - killedAt} ms after SIGKILL (lease ${leaseDurationS} s, retry ${retryPeriodS} s); ` +
          `at the kill the bindings named ${bindingsAtKill === second ? 'v2' : 'v1'} and the leader had ${aFinished ? '' : 'not '}printed its v2 pass`,
      );
      // No split brain: the standby took the Lease only once the killed leader's last renewal was
      // a whole lease duration old (the Lease's own times, as both hubs wrote them). How soon after
      // that it took over is a figure for bench/, not an assertion here.
      assert.equal(lastRenewal.holderIdentity, aIdentity, 'the killed leader held the Lease');
      assert.notEqual(taken.holderIdentity, aIdentity, 'the standby holds the Lease');
      assert.equal(taken.leaseTransitions, (lastRenewal.leaseTransitions ?? 0) + 1, 'one transition');
      const waitedMs = Date.parse(taken.acquireTime) - Date.parse(lastRenewal.renewTime);
      assert.ok(waitedMs >= leaseDurationS * 1000, `took the Lease ${waitedMs} ms after the last renewal`);

      const fsck = await git(repo, ['fsck', '--no-dangling']);
      assert.equal(fsck.trim(), '', 'git fsck is clean');
      const bindingsBody = await git(repo, ['log', '-1', '--format=%B', 'refs/heads/gitfleet/bindings']);
      for (const cluster of clusters) {
        const source = await sourceOf(repo, `clusters/${cluster}`);
        assert.ok(source === first || source === second, `${cluster} at a render of v1 or v2, not ${source}`);
        assert.equal(source, second, `${cluster} rendered from v2 in the end`);
        const head = (await git(repo, ['rev-parse', `refs/heads/gitfleet/clusters/${cluster}`])).trim();
        assert.match(bindingsBody, new RegExp(`^Gitfleet-Cluster-Commit: ${cluster}=${head}$`, 'm'));
      }
    } catch (error) {
      for (const hub of hubs) console.log(hub.output().split('\n').slice(-40).join('\n'));
      throw error;
    } finally {
      for (const hub of hubs) await hub.stop('SIGTERM');
      removeTempDirs();
    }
  });
});
